"""skirmish balance: changes to a scenario, each checked like a file, played with the
same seeds, and the ones that bring the win rate within the target."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.cli import main
from game.paths import scenario_path
from game.playtest.variants import VaryError, parse_vary
from game.scenario.load import read_toml

CORRIDOR = scenario_path("infinity-corridor")


@pytest.fixture
def data() -> dict:  # type: ignore[type-arg]
    return read_toml(CORRIDOR)[0]


def test_each_value_is_one_change(data: dict) -> None:  # type: ignore[type-arg]
    turns = parse_vary("turns=3,4", data)
    assert [c.label for c in turns] == ["turn limit 3", "turn limit 4"]
    assert turns[1].apply(data)["scenario"]["turns"] == 4
    assert data["scenario"]["turns"] == 2  # the original is left alone

    [shift] = parse_vary("shift:red:y=1.5", data)
    moved = {m["id"]: m["at"] for m in shift.apply(data)["model"]}
    for model in data["model"]:
        x, y = model["at"]
        assert moved[model["id"]] == ([x, y + 1.5] if model["side"] == "red" else [x, y])

    [removed] = parse_vary("remove=flamer", data)
    assert "flamer" not in [m["id"] for m in removed.apply(data)["model"]]
    assert len(removed.apply(data)["model"]) == len(data["model"]) - 1

    [profile] = parse_vary("profile:flamer=fusilier", data)
    changed = {m["id"]: m["profile"] for m in profile.apply(data)["model"]}
    assert changed["flamer"] == "fusilier"


def test_objective_points(data: dict) -> None:  # type: ignore[type-arg]
    data["objective"] = [{"id": "antenna", "at": [12, 12], "points": 2}]
    [worth] = parse_vary("points:antenna=5", data)
    assert worth.apply(data)["objective"][0]["points"] == 5


@pytest.mark.parametrize(
    ("vary", "problem"),
    [
        ("turns", "is not PARAM=VALUES"),
        ("turns=two", "'two' is not a whole number of turns"),
        ("turns=0", "a turn limit is at least 1"),
        ("shift:green:x=1", "no side 'green' in the scenario"),
        ("shift:red:z=1", "'shift:red:z' is not a parameter to vary"),
        ("shift:red:x=nan", "'nan' is not a distance in inches"),
        ("remove=nobody", "no model 'nobody' in the scenario"),
        ("points:antenna=3", "no objective 'antenna': the scenario has no objectives"),
        ("height=3", "'height' is not a parameter to vary"),
    ],
)
def test_bad_varies_say_why(data: dict, vary: str, problem: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(VaryError, match=problem):
        parse_vary(vary, data)


def test_bad_vary_on_the_command_line_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(CORRIDOR), "--vary", "turns=x", "--games", "1"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [
        "skirmish: <command line>: balance --vary turns=x: 'x' is not a whole number of turns; "
        "see skirmish balance --help"
    ]


def test_a_vary_that_changes_nothing_or_names_no_profile_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester13: on an Open Rebellion table (its objectives decide nothing) points:... played
    the games for a row identical to "as it is"; profile:...=dragon played every game and
    then listed the change as refused (exit 0) where remove=zz was refused at once. Both
    are refused before any game now: one line, exit 2, nothing printed on stdout."""
    table = tmp_path / "or-objective.toml"
    text = scenario_path("open-rebellion-demo").read_text(encoding="utf-8")
    table.write_text(text + '\n[[objective]]\nid = "well-head"\nat = [18, 15]\n', encoding="utf-8")
    for vary, said in [
        ("points:well-head=5", "Open Rebellion scores no objectives here: it is drawn on the "
         "table and decides nothing, so its points would change nothing"),
        ("profile:reb-a1=dragon", "no profile 'dragon' in the scenario (known: hmg-team, "),
    ]:  # fmt: skip
        assert main(["balance", str(table), "--vary", vary, "--games", "2"]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"skirmish: <command line>: balance --vary {vary}: {said}")
        assert len(err.strip().splitlines()) == 1
    # a profile the rule system has, though the scenario does not use it, is a change
    [change] = parse_vary("profile:reb-a1=veteran", read_toml(table)[0], ["rifleman", "veteran"])
    assert change.label == "reb-a1 as veteran"


def test_a_change_off_the_table_is_refused_not_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["balance", str(CORRIDOR), "--vary", "shift:red:y=30", "--games", "2", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    [change] = report["changes"]
    assert change["change"] == 'red shifted +30" along y'
    assert "off the 24x24 table" in change["refused"]
    assert report["baseline"]["games"] == 2 and report["balanced"] == []


@pytest.mark.slow
def test_balance_finds_the_turn_limit_that_balances_a_lopsided_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cargo hold with one turn: blue moves first and red answers with nothing to
    # lose, and blue wins about 1 in 8 (5 of 40 with the simple players). Its own two
    # turns are about even (22 of 40); four favour blue (28 of 40).
    lopsided = tmp_path / "one-turn.toml"
    lopsided.write_text(
        CORRIDOR.read_text(encoding="utf-8").replace("turns = 2", "turns = 1"), encoding="utf-8"
    )
    argv = ["balance", str(lopsided), "--vary", "turns=2,4", "--games", "30", "--seed", "3"]
    assert main([*argv, "--tolerance", "10", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["side"] == "blue" and report["games"] == 30
    assert not report["baseline"]["within"]
    assert report["baseline"]["interval95"][1] < 0.4  # lopsided beyond doubt
    rows = {r["change"]: r for r in report["changes"]}
    nearest = min(rows.values(), key=lambda r: r["off_by"])
    assert nearest["change"] == "turn limit 2"
    assert "turn limit 2" in report["balanced"]
    for row in rows.values():  # same seeds, every game decided or drawn
        assert row["decided"] + row["draws"] == 30
        low, high = row["interval95"]
        assert low <= row["share"] <= high


def test_balance_on_a_scheduler_plays_the_same_games(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dask import distributed

    argv = ["balance", str(small), "--vary", "turns=1", "--games", "2", "--seed", "5", "--json"]
    assert main(argv) == 0
    here = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        protocol="tcp://",
        host="127.0.0.1",
    ) as cluster:
        assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    there = json.loads(capsys.readouterr().out)
    assert there["baseline"] == here["baseline"] and there["changes"] == here["changes"]


def test_threads_of_one_worker_load_a_scenario_once(small: Path) -> None:
    """A cluster worker runs chunks in threads: one read the scenario's file while
    another was writing it ("[scenario]: missing") before setup_of took a lock."""
    import threading

    from game.playtest.runner import Source, setup_of

    # a text no other test loads, so every thread finds it not yet loaded
    source = Source("table.toml", small.read_text(encoding="utf-8") + "\n# threads\n")
    start = threading.Barrier(8)
    found: list[object] = []
    failed: list[BaseException] = []

    def load() -> None:
        start.wait()
        try:
            found.append(setup_of(source))
        except BaseException as err:  # any failure is the finding
            failed.append(err)

    threads = [threading.Thread(target=load) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert len(found) == 8 and all(setup is found[0] for setup in found)


def test_the_table_names_the_changes_and_the_json_keeps_the_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # tester9: the table said "fusilier-1 removed", "guilang-1 as zhanshi"
    varies = ["remove=fusilier-1", "profile:fusilier-2=fusilier-flamer", "shift:red:y=-1,30"]
    argv = ["balance", str(CORRIDOR), *(f"--vary={v}" for v in varies), "--games", "1"]
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())  # the table's cells may wrap
    for said in ("Fusilier 1 removed", "Fusilier 2 as Fusilier flamer", 'Yu Jing shifted -1"',
                 "refused: Guilang 1: base at"):  # fmt: skip
        assert said in out, out
    assert not re.search(r"\b(fusilier|guilang)-", out)
    assert main([*argv, "--json"]) == 0
    changes = {r["change"] for r in json.loads(capsys.readouterr().out)["changes"]}
    assert changes == {
        "fusilier-1 removed",
        "fusilier-2 as fusilier-flamer",
        'red shifted -1" along y',
        'red shifted +30" along y',
    }


@pytest.mark.parametrize(
    ("vary", "problem"),
    [
        ("turns=2", "the scenario has 2 turns already, so it would change nothing"),
        ("turns=2,2", "the scenario has 2 turns already"),
        ("shift:red:x=0", "a shift of 0 leaves side 'red' where it stands, so it would change"),
        ("shift:red:y=-0", "a shift of 0 leaves side 'red' where it stands"),
        ("profile:flamer=fusilier-flamer", "model 'flamer' has the profile 'fusilier-flamer'"),
    ],
)
def test_a_change_equal_to_the_table_as_it_is_is_refused(
    data: dict,  # type: ignore[type-arg]
    vary: str,
    problem: str,
) -> None:
    """retest13's finding 3: turns=4 where the file has 4, a model given the profile it
    has, a shift of 0 each played every game for a row identical to "as it is"."""
    with pytest.raises(VaryError, match=re.escape(problem)):
        parse_vary(vary, data)


@pytest.mark.parametrize(
    ("vary", "kept", "note"),
    [
        ("turns=1,2,3", ["turn limit 1", "turn limit 3"], "the scenario has 2 turns already"),
        ("shift:red:y=-1,0,1", ['red shifted -1" along y', 'red shifted +1" along y'],
         "a shift of 0 leaves side 'red' where it stands"),
        ("profile:flamer=fusilier,fusilier-flamer", ["flamer as fusilier"],
         "model 'flamer' has the profile 'fusilier-flamer' already"),
    ],
)  # fmt: skip
def test_a_sweep_around_the_table_as_it_is_plays_the_other_values(
    data: dict,  # type: ignore[type-arg]
    vary: str,
    kept: list[str],
    note: str,
) -> None:
    """review13: turns=1,2,3 on a 2-turn table, a sweep around the table as it is, was
    played before retest13's finding 3 and then refused whole for its 2; the 2 is the row
    "as it is", left out and said so, the others played."""
    notes: list[str] = []
    assert [c.label for c in parse_vary(vary, data, notes=notes)] == kept
    assert notes == [f"{note}: the row 'as it is' plays it"]


def test_a_sweep_says_before_any_game_what_it_leaves_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["balance", str(CORRIDOR), "--vary", "turns=1,2", "--games", "1", "--ai", "simple"]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    changes = [r["change"] for r in json.loads(captured.out)["changes"]]
    assert changes == ["turn limit 1"]
    said = "balance --vary turns=1,2: the scenario has 2 turns already: the row 'as it is' plays it"
    assert said in captured.err


def test_objective_points_equal_to_the_files_or_the_default_are_refused(
    data: dict,  # type: ignore[type-arg]
) -> None:
    data["objective"] = [
        {"id": "antenna", "at": [12, 12], "points": 2},
        {"id": "well", "at": [6, 6]},
    ]
    with pytest.raises(VaryError, match="objective 'antenna' is worth 2 already"):
        parse_vary("points:antenna=2", data)
    with pytest.raises(VaryError, match="objective 'well' is worth 1 already"):
        parse_vary("points:well=1", data)
    del data["scenario"]["turns"]  # a file that leaves it unset plays 3
    with pytest.raises(VaryError, match="the scenario has 3 turns already"):
        parse_vary("turns=3", data)


def test_a_change_names_each_id_in_its_own_place(tmp_path: Path) -> None:
    """Checked with tester13b finding 2 (playtest's why named the scenery inside the
    game's sentence): balance named a change's words against every id of the table at
    once, so a profile whose id is also a model's (Infinity tables name a lone trooper
    by its profile: remote, zhanshi-hmg, hac-tao) was called by that model's name:
    "fusilier-2 as remote", the model `remote` called Spotbot, read "Fusilier 2 as
    Spotbot". Each id is now named by its kind, in its own place."""
    from game.commands.balance import change_names
    from game.scenario import load_scenario

    text = CORRIDOR.read_text(encoding="utf-8")
    shown = 'id = "remote"\nside = "blue"\n'
    assert shown in text
    table = tmp_path / "named.toml"
    table.write_text(text.replace(shown, shown + 'name = "Spotbot"\n'), encoding="utf-8")
    told = change_names(load_scenario(table))
    data = read_toml(table)[0]
    said = {
        vary: [told(c.label) for c in parse_vary(vary, data)]
        for vary in ("remove=remote", "profile:fusilier-2=remote", "shift:red:y=-1", "turns=3")
    }
    assert said == {
        "remove=remote": ["Spotbot removed"],
        "profile:fusilier-2=remote": ["Fusilier 2 as Remote"],
        "shift:red:y=-1": ['Yu Jing shifted -1" along y'],
        "turns=3": ["turn limit 3"],
    }
    checkpoint = scenario_path("infinity-checkpoint")
    told = change_names(load_scenario(checkpoint))
    [worth] = parse_vary("points:barrier-gate=3", read_toml(checkpoint)[0])
    assert told(worth.label) == "the gate between the barriers worth 3"
