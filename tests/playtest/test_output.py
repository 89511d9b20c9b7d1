"""`skirmish playtest --out DIR --report FILE`: per-game rows that add up to the summary,
saves that replay, plots of the right size that are not blank, and one HTML page."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from collections import Counter
from dataclasses import replace
from html import escape
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from game.cli import main
from game.playtest import plots
from game.playtest.record import GameRecord
from game.scenario import load_scenario
from tests.conftest import SCENARIOS

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small playtest written out (6 games), shared by the tests of this module."""
    from tests.playtest.conftest import SMALL

    folder = tmp_path_factory.mktemp("batch")
    scenario = folder / "small.toml"
    # the blue side has a name, the red one none (its id made readable)
    scenario.write_text(SMALL.replace('id = "blue"', 'id = "blue"\nname = "Ariadna"'), "utf-8")
    out = folder / "out"
    argv = ["playtest", str(scenario), "--games", "6", "--seed", "4", "--out", str(out)]
    argv += ["--save-games", "2", "--report", str(folder / "report.html"), "--json"]
    assert main(argv) == 0
    return folder


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_game_rows_add_up_to_the_summary(batch: Path) -> None:
    rows = _rows(batch / "out" / "games.csv")
    summary = json.loads((batch / "out" / "summary.json").read_text(encoding="utf-8"))
    assert len(rows) == summary["games"] == 6
    assert [int(r["game"]) for r in rows] == list(range(6))
    winners = Counter(r["winner"] for r in rows)
    for side, figures in summary["sides"].items():
        assert winners[side] == figures["wins"]
        lost = [int(r[f"lost_{side}"]) for r in rows]
        assert sum(lost) / len(rows) == pytest.approx(figures["mean_down"])
        points = [int(r[f"points_{side}"]) for r in rows]
        assert sum(points) / len(rows) == pytest.approx(figures["mean_points"])
    assert winners["draw"] == summary["draws"]["count"]
    # games.csv and summary.json say how games ended in the same words, sides by name,
    # what decided a game at the turn limit too
    ended = Counter(r["ended"] for r in rows)
    assert dict(ended) == summary["reasons"]
    assert all(int(r["turns"]) >= 1 for r in rows)


def test_casualty_rows_match_the_models_lost(batch: Path) -> None:
    games = _rows(batch / "out" / "games.csv")
    casualties = _rows(batch / "out" / "casualties.csv")
    per_game = Counter((int(c["game"]), c["side"]) for c in casualties)
    for row in games:
        for side in ("blue", "red"):
            assert per_game[(int(row["game"]), side)] == int(row[f"lost_{side}"])
    for c in casualties:  # on the 16" table, and every loss here is a shot
        assert 0 <= float(c["x"]) <= 16 and 0 <= float(c["y"]) <= 16
        assert c["by"] and c["side"] != ("blue" if c["by"].startswith("b") else "red")
        assert 0 <= float(c["from_x"]) <= 16 and 0 <= float(c["from_y"]) <= 16


def test_the_first_games_are_saved_and_replay(
    batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves = sorted((batch / "out" / "saves").iterdir())
    assert [p.name for p in saves] == ["game-0000.json", "game-0001.json"]
    rows = _rows(batch / "out" / "games.csv")
    for save, row in zip(saves, rows, strict=False):
        data = json.loads(save.read_text(encoding="utf-8"))
        assert data["seed"] == int(row["seed"])
        capsys.readouterr()
        assert main(["replay", str(save), "--check", "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["check"] is True
        assert (replayed["winner"] or "draw") == row["winner"]


def _not_blank(png: bytes) -> np.ndarray:
    assert png.startswith(PNG)
    image = imread(io.BytesIO(png))
    flat = image[..., :3].reshape(-1, 3)
    assert flat.std() > 0.05  # not one flat colour
    assert len(np.unique((flat * 255).astype(np.uint8), axis=0)) > 20
    return image


def test_plots_are_pngs_of_the_right_size_and_not_blank(batch: Path) -> None:
    out = batch / "out"
    for name in ("win-rate", "game-length", "models-lost"):
        image = _not_blank((out / f"{name}.png").read_bytes())
        assert image.shape[1::-1] == plots.SIZE
    heat = _not_blank((out / "heat-map.png").read_bytes())
    assert heat.shape[0] == plots.HEAT_HEIGHT
    table = _not_blank((out / "table.png").read_bytes())
    assert table.shape[0] > 16 * 20 and table.shape[1] > 16 * 20  # 20 px per inch


def test_report_is_one_page_with_its_pictures_inside(batch: Path) -> None:
    page = (batch / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == 5  # the table and four plots
    for source in sources:
        assert source.startswith("data:image/png;base64,")
        _not_blank(base64.b64decode(source.split(",", 1)[1]))
    assert not re.search(r'(href|url)\s*[=(]\s*"?(https?:|file:|\.\.?/)', page)
    assert "win rate [95% interval]" in page
    # each side named once (tester7b's E); the ids --ai takes only where --ai is refused
    assert "<td>Ariadna</td>" in page and "<td>Red</td>" in page
    assert "--ai" not in page


def test_sentences_call_sides_by_name_and_fields_keep_ids(batch: Path) -> None:
    """summary.json's and the report's "how games ended" name the sides as the console
    does; the keys a program reads stay the ids, each side's name beside its figures."""
    summary = json.loads((batch / "out" / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["sides"]) == {"blue", "red"}
    assert {s: f["name"] for s, f in summary["sides"].items()} == {"blue": "Ariadna", "red": "Red"}
    reasons = list(summary["reasons"])
    assert reasons and not any(re.search(r"\b(blue|red)\b", r) for r in reasons)
    assert "Ariadna has nothing left able to act" in reasons  # seed 4: blue lost twice
    meta = re.search(r'<p class="meta">([^<]*)</p>', (batch / "report.html").read_text("utf-8"))
    assert meta is not None
    assert all(escape(r.replace("): ", "), decided by ", 1)) in meta.group(1) for r in reasons)
    assert not re.search(r"\b(blue|red)\b", meta.group(1))


def test_save_games_needs_a_folder(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playtest", str(small), "--games", "2", "--save-games", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "skirmish: <command line>: playtest --save-games: needs --out DIR for the saves; "
        "see skirmish playtest --help"
    ]


def test_seeds_are_also_written_as_text_a_spreadsheet_keeps(batch: Path) -> None:
    # A spreadsheet keeps 15 digits of a number; the seeds run longer than that.
    rows = _rows(batch / "out" / "games.csv")
    with (batch / "out" / "games.csv").open(encoding="utf-8") as handle:
        assert handle.readline().rstrip("\n").split(",")[-1] == "seed_hex"
    assert any(len(r["seed"]) > 15 for r in rows)
    for r in rows:
        assert r["seed_hex"].startswith("0x")
        assert int(r["seed_hex"], 16) == int(r["seed"])


def _record(index: int, winner: str | None) -> GameRecord:
    return GameRecord(index, index, False, {"blue": "simple", "red": "simple"}, winner,
                      "turn limit", 2, 10, {}, {}, {}, ())  # fmt: skip


def test_the_win_rate_chart_counts_games_in_whole_numbers() -> None:
    records = [_record(i, "blue" if i % 3 else "red") for i in range(5)]
    figure = plots.win_rate_figure(records, ["blue", "red"], {})
    [axes] = figure.axes
    ticks = [t for t in axes.get_xticks() if 1 <= t <= 5]
    assert len(ticks) >= 2
    assert all(float(t).is_integer() for t in ticks)


def test_the_game_length_chart_lists_draws_only_with_draws_and_has_room_on_top() -> None:
    """tester13: the chart's legend listed "draw" with no draws, and the tallest bar
    touched the top of the axes."""
    decided = [_record(i, "blue" if i % 3 else "red") for i in range(5)]
    for records, legend in [
        (decided, ["blue", "red"]),
        ([*decided, _record(5, None)], ["blue", "red", "draw"]),
    ]:
        [axes] = plots.game_length_figure(records, ["blue", "red"], {}).axes
        assert [t.get_text() for t in axes.get_legend().get_texts()] == legend
        tallest = max(p.get_y() + p.get_height() for p in axes.patches)
        assert tallest == len(records)  # every game ended in turn 2: one stack
        assert axes.get_ylim()[1] > tallest


def test_the_report_says_why_how_sides_won_and_when_and_where_models_fell() -> None:
    """tester13: the report said whether a table is fair but not why. It says how each
    side won, and when and where each side's models were taken out (the piece within 2"
    of where each stood, or in the open)."""
    from game.playtest.record import Casualty
    from game.playtest.summary import why

    fell = (
        Casualty("b1", "blue", 1, (5.0, 5.0), "r1", (20.0, 20.0)),
        Casualty("b2", "blue", 2, (12.0, 12.0), "r1", (20.0, 20.0)),
        Casualty("r1", "red", 2, (5.5, 6.0), "b3", (1.0, 1.0)),
    )
    records = [
        replace(_record(0, "red"), casualties=fell[:2], reason="blue has no models left"),
        replace(_record(1, "red"), casualties=fell[2:]),
        _record(2, "red"),
    ]
    barn = ("the barn", ((4.0, 4.0), (6.0, 4.0), (6.0, 5.0), (4.0, 5.0)))
    said = why(records, ["blue", "red"], {"blue": "Blues", "red": "Reds"}, [barn], "round")
    assert said == [
        "How Reds won: round limit (2 games); Blues has no models left (1 game).",
        "Blues had 2 models taken out in 3 games: 1 in round 1, 1 in round 2; "
        '1 near the barn and 1 in the open (no piece within 2").',
        "Reds had 1 model taken out in 3 games: 1 in round 2; 1 near the barn.",
    ]


def test_the_why_says_what_in_the_open_and_the_rest_are() -> None:
    """tester13b finding 7: "2300 in the open, 320 near container 1, 310 near the rubble
    and 733 elsewhere" did not say what set "in the open" (no piece within 2") apart
    from "elsewhere" (near a piece past the three most taken out near). Now the open is
    said with its meaning, always, and the rest as near the other pieces, counted."""
    from game.playtest.record import Casualty
    from game.playtest.summary import NEAR, why

    def piece(name: str, x: float) -> tuple[str, tuple[tuple[float, float], ...]]:
        return (name, ((x, 0.0), (x + 1, 0.0), (x + 1, 1.0), (x, 1.0)))

    places = [piece(f"the crate {k}", 10.0 * k) for k in range(1, 6)]
    # by each crate k, k models taken out (its corner's edge, 1" off); 6 in the open
    fell = [
        Casualty(f"b{k}{j}", "blue", 1, (10.0 * k - 1, 0.5), None, None)
        for k in range(1, 6)
        for j in range(k)
    ]
    fell += [Casualty(f"o{j}", "blue", 2, (5.0 + 10 * j, 20.0), None, None) for j in range(6)]
    assert 1 <= NEAR < 8  # 1" from its crate, 8" from the next, 19" from any in the open
    records = [replace(_record(0, "red"), casualties=tuple(fell))]
    [_, said] = why(records, ["blue", "red"], {"blue": "Blues"}, places)
    assert said == (
        "Blues had 21 models taken out in 1 game: 15 in turn 1, 6 in turn 2; "
        '6 in the open (no piece within 2"), 5 near the crate 5, 4 near the crate 4, '
        "3 near the crate 3 and 3 near 2 other pieces."
    )


def test_the_why_names_in_the_game_s_sentence_only_models_and_sides() -> None:
    """tester13b finding 2: `playtest`'s why named the table's scenery inside the game's
    end reason: necromunda-demo's water still (id `still`) made "points of fighters
    still in the fight" read "points of fighters the water still in the fight"; replay
    and summary.json's reasons told it right. The reason names only models, units and
    sides; the places keep the scenery's labels."""
    from game.commands.playtest import _why
    from game.playtest.record import Casualty

    loaded = load_scenario(SCENARIOS / "necromunda-demo.toml")
    still = loaded.piece("still")
    reason = "round limit (4): points of fighters still in the fight"
    side = loaded.sides[0].id
    fell = (Casualty(loaded.models[0].id, side, 1, still.footprint[0], None, None),)
    records = [replace(_record(0, side), reason=reason, casualties=fell)]
    said = _why(records, [s.id for s in loaded.sides], loaded)
    assert said[0].endswith(
        "won: round limit (4), decided by points of fighters still in the fight (1 game)."
    ), said
    assert "near the water still" in said[1], said


def test_the_page_and_the_summary_carry_the_why(batch: Path) -> None:
    summary = json.loads((batch / "out" / "summary.json").read_text(encoding="utf-8"))
    page = (batch / "report.html").read_text("utf-8")
    assert summary["why"] and any(s.startswith("How ") for s in summary["why"])
    assert all(f"<li>{escape(s)}</li>" in page for s in summary["why"])


def test_the_report_says_how_games_ended_as_the_console_does(batch: Path) -> None:
    """The page said "turn limit (4) (2)": each way a game ended with its count of games,
    as the console prints it (retest14 finding 9: "turn limit (3): points of ...: 5
    games" chained colons; now "turn limit (3), decided by points of ... (5 games)")."""
    summary = json.loads((batch / "out" / "summary.json").read_text(encoding="utf-8"))
    meta = re.search(r'<p class="meta">([^<]*)</p>', (batch / "report.html").read_text("utf-8"))
    assert meta is not None
    ended = "; ".join(
        f"{escape(r.replace('): ', '), decided by ', 1))} ({n} game{'s' if n != 1 else ''})"
        for r, n in summary["reasons"].items()
    )
    assert meta.group(1).endswith(f"how games ended: {ended}")
    assert ") (" not in meta.group(1)


def test_the_speed_is_said_as_wall_clock_with_its_workers(batch: Path) -> None:
    from game.playtest.summary import speed_sentence

    summary = json.loads((batch / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["timed"] == "wall clock, from the first game to the last"
    document = {"games": 6, "seconds": 2.0, "workers": 1, "scheduler": None}
    assert speed_sentence(document) == (
        "6 games in 2.0 s of wall-clock time with 1 worker: 3.0 games a second."
    )
    assert speed_sentence(document | {"workers": 4}).startswith("6 games in 2.0 s of wall-clock")
    # under one game a second, seconds a game: "4 games in 99.2 s ...: 0.0 games a second"
    # read as no pace at all (tester12 item 15)
    slow = document | {"games": 4, "seconds": 99.2}
    assert speed_sentence(slow) == (
        "4 games in 99.2 s of wall-clock time with 1 worker: 24.8 seconds a game."
    )
    assert speed_sentence(document | {"games": 1, "seconds": 1.0}).endswith(": 1.0 games a second.")
    assert "with 4 workers" in speed_sentence(document | {"workers": 4})
    on_cluster = speed_sentence(document | {"workers": None, "scheduler": "tcp://h:8786"})
    assert "on the cluster at tcp://h:8786" in on_cluster


def test_the_heat_maps_count_bar_reads_whole_models() -> None:
    # The count bar's log ticks read "2 x 10^0" and "3 x 10^0" for counts of 1 to 3
    # (tester12 item 16): a wargamer counts models in whole numbers
    from game.playtest.record import Casualty

    def lost(at: tuple[float, float], n: int) -> list[Casualty]:
        return [Casualty(f"m{n}-{i}", "red", 1, at, "blue", (2.0, 2.0)) for i in range(n)]

    casualties = (*lost((5.0, 5.0), 3), *lost((8.0, 3.0), 1), *lost((9.0, 9.0), 2))
    record = replace(_record(0, "blue"), casualties=casualties)
    figure = plots.heat_map_figure([record], (12.0, 12.0), None)
    figure.canvas.draw()
    bars = [a for a in figure.axes if a.get_label() == "<colorbar>"]
    said = [[t.get_text() for t in bar.yaxis.get_ticklabels()] for bar in bars]
    # where models fell: 3, 2 and 1 in three squares; the shots: all 6 from one
    assert said == [["1", "2", "3"], ["1", "2", "5", "6"]]
    assert not [t for b in bars for t in b.yaxis.get_ticklabels(minor=True) if t.get_text()]
    assert plots.whole_ticks(2.0) == [1, 2]
    assert plots.whole_ticks(140.0) == [1, 2, 5, 10, 20, 50, 100, 140]
    assert plots.whole_ticks(110.0) == [1, 2, 5, 10, 20, 50, 100]  # 110 would crowd 100


def test_how_games_ended_names_the_objectives_held_as_games_csv_does() -> None:
    """With the deciding clause kept (it was cut at the first colon), summary.json's
    `reasons` and the console's "how games ended" named the objectives held by their ids
    ('objective points (barrier-gate to Yu Jing, ...)'): the names were made a plain
    dict, losing the objectives only end reasons name. Now as games.csv says it."""
    from game.playtest.record import GameRecord
    from game.playtest.summary import summary_document
    from game.scenario.names import reason_names
    from game.sequencer.sentences import named

    scenario = load_scenario(SCENARIOS / "infinity-checkpoint.toml")
    reason = (
        "turn limit (3): objective points (barrier-gate to yu-jing, guard-console to "
        "yu-jing), then points of troopers still able to act"
    )
    record = GameRecord(
        index=0, seed=1, swapped=False, players={"pano": "simple", "yu-jing": "simple"},
        winner="yu-jing", reason=reason, turn=3, declarations=40, down={}, points={},
        objectives={}, casualties=(),
    )  # fmt: skip
    names = reason_names(scenario)
    document = summary_document([record], ["pano", "yu-jing"], False, names)
    [said] = document["reasons"]
    assert said == named(reason, names)  # games.csv's "ended"
    assert "(the gate between the barriers to Yu Jing and Guard console to Yu Jing)" in said
