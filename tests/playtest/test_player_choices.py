"""Choosing players on the command line over what a scenario's [[side]] names: a side
`--ai` leaves out keeps its own player; a temperament no player has is refused in one
line before any game starts; `play --ai SIDE=NAME` for a side a person plays is refused
rather than silently ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main
from game.errors import InputError
from game.playtest.plan import choose_players
from game.scenario import load_scenario
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "necromunda-demo.toml"
HUMAN_SIDE = 'id = "orlock"\nname = "House Orlock"\nplayer = "human"'
AI_SIDE = 'id = "escher"\nname = "House Escher"\nplayer = "ai"'


def named_players(tmp_path: Path) -> Path:
    """The Necromunda demo with Orlock played by careful, Escher by an aggressive search."""
    text = DEMO.read_text("utf-8")
    assert HUMAN_SIDE in text and AI_SIDE in text
    text = text.replace(HUMAN_SIDE, 'id = "orlock"\nname = "House Orlock"\nplayer = "careful"')
    text = text.replace(
        AI_SIDE,
        'id = "escher"\nname = "House Escher"\nplayer = "search"\ntemperament = "aggressive"',
    )
    path = tmp_path / "named.toml"
    path.write_text(text, "utf-8")
    return path


def test_a_side_left_out_of_ai_keeps_its_scenario_player(tmp_path: Path) -> None:
    setup = load_scenario(named_players(tmp_path))
    choice = choose_players(setup, "escher=simple", {})
    assert choice["orlock"] == ("careful", ())
    assert choice["escher"] == ("simple", ())
    choice = choose_players(setup, "orlock=simple", {})
    assert choice["orlock"] == ("simple", ())
    assert choice["escher"] == ("search", (("temperament", "aggressive"),))
    # --think goes to the side that still plays search
    choice = choose_players(setup, "orlock=simple", {"think": 0.05})
    assert choice["escher"] == ("search", (("temperament", "aggressive"), ("think", 0.05)))


def test_an_unknown_temperament_is_refused_before_any_game(tmp_path: Path) -> None:
    setup = load_scenario(named_players(tmp_path))
    with pytest.raises(InputError) as caught:
        choose_players(setup, None, {"temperament": "wild"})
    assert "no temperament 'wild' (one of cautious, balanced, aggressive)" in str(caught.value)


@pytest.mark.parametrize(
    "command",
    [
        ["playtest", str(DEMO), "--games", "1", "--ai", "search", "--temperament", "wild"],
        ["play", str(DEMO), "--frames", "1", "--temperament", "wild"],
        ["play", str(DEMO), "--frames", "1", "--temperament", ""],
    ],
)
def test_a_bad_temperament_is_one_line_exit_2(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [*command, "--screenshot", str(tmp_path / "x.png")] if command[0] == "play" else command
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    place = f"skirmish: <command line>: {command[0]} --temperament: "
    assert len(err) == 1 and err[0].startswith(place), err
    assert err[0].endswith(f"; see skirmish {command[0]} --help"), err
    assert not (tmp_path / "x.png").exists()


def test_play_ai_for_a_side_the_scenario_gives_a_person_gives_it_to_the_computer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """tester15 finding 14: `--ai orlock=search` on a table whose [[side]] says `player =
    "human"` was refused, without saying how to let the computer play it, and a person
    could not watch the computer play both sides of a bundled table (playtesting in the
    window). `--ai SIDE=PLAYER` now gives that side to the computer, as `player = "ai"`
    would: the window plays both, from the first frame."""
    from game.render.app import App
    from game.render.session import Session

    seen: list[Session | None] = []
    monkeypatch.setattr(App, "run", lambda app, frames=None: seen.append(app.session))
    out = tmp_path / "x.png"
    args = ["play", str(DEMO), "--frames", "1", "--screenshot", str(out)]
    assert main([*args, "--ai", "orlock=careful"]) == 0 and out.exists()
    session = seen[-1]
    assert session is not None and session.is_ai("orlock") and session.is_ai("escher")
    assert session.recorded_players()["orlock"]["player"] == "careful"
    assert session.watching().startswith("the computer plays House Orlock and House Escher")
    assert main([*args, "--ai", "escher=careful"]) == 0
    assert seen[-1] is not None and not seen[-1].is_ai("orlock")


def test_play_checks_options_against_the_computer_sides_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The person's side has no automatic player: a temperament the computer's player
    does not take is refused, not accepted because the person's side 'could' take it."""
    out = tmp_path / "x.png"
    args = ["play", str(DEMO), "--frames", "1", "--screenshot", str(out)]
    assert main([*args, "--ai", "escher=careful", "--temperament", "cautious"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--temperament: not an option of the chosen player (careful)" in err[0]
    assert main([*args, "--ai", "escher=search", "--temperament", "cautious"]) == 0


def test_play_on_a_table_people_play_alone_refuses_computer_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "people.toml"
    path.write_text(DEMO.read_text("utf-8").replace(AI_SIDE, AI_SIDE.replace('"ai"', '"human"')))
    out = tmp_path / "x.png"
    for option in (["--ai", "careful"], ["--temperament", "cautious"], ["--think", "0.1"]):
        assert main(["play", str(path), "--frames", "1", "--screenshot", str(out), *option]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"{option[0]}: a person plays every side" in err[0], err
    assert not out.exists()


def test_shoot_names_a_fighter_only_passed_over(capsys: pytest.CaptureFixture[str]) -> None:
    """A Cool test's sentence names the fighter it looks past, who is neither the
    attacker, the target nor at risk of a stray shot."""
    alley = SCENARIOS / "necromunda-alley.toml"
    assert (
        main(["shoot", str(alley), "--attacker", "cawdor-leader", "--target", "goliath-juve"]) == 0
    )
    out = capsys.readouterr().out
    assert "past Goliath ganger 2" in out and "goliath-ganger-2" not in out
