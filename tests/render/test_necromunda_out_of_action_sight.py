"""Every question of sight about a Necromunda fighter Out of Action is answered in words or
leaves it out (session 14's leftover: the hover odds raised a KeyError at a fighter taken
Out of Action, mended in the pointer only). FACTS 2.4: a fighter Out of Action is out of
the fight, off the table: the game's sight has no body for it, so nothing may ask the
sight from it or at it.

The table, tests/tables/necromunda-out-of-action.toml, starts a fighter of each gang Out of
Action (a file may give the state; no game offers it): Escher ganger among the Eschers,
Orlock leader 2" from Orlock ganger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.playtest.batch import automatic_player
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import OUT_OF_ACTION
from tests.conftest import REPO

TABLE = REPO / "tests" / "tables" / "necromunda-out-of-action.toml"
GONE = ("escher-ganger", "orlock-leader")
SAID = {"escher-ganger": "Escher ganger", "orlock-leader": "Orlock leader"}


def _session() -> Session:
    scenario = load_scenario(TABLE)
    session = Session.start(scenario, seed=1)
    for model in GONE:
        assert session.game.state.model(model).status == OUT_OF_ACTION
    return session


def _pairs(game: Game) -> list[tuple[str, str, str]]:
    """(shooter, weapon, target) of every weapon of every fighter at every other one where
    one of the two is Out of Action."""
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    ids = [m.id for m in game.state.models]
    return [
        (a, w.name, b) for a in ids for w in engine.weapons_of(a) for b in ids
        if a != b and (a in GONE or b in GONE)
    ]  # fmt: skip


def test_the_odds_from_or_at_a_fighter_out_of_action_say_why() -> None:
    # it raised KeyError for a shooter Out of Action (the sight has no body for it)
    session = _session()
    rules, game = session.rules, session.game
    pairs = _pairs(game)
    assert len(pairs) > 20
    for shooter, weapon, target in pairs:
        lines = rules.odds_lines(game, shooter, target, weapon)
        gone = shooter if shooter in GONE else target
        assert lines == [f"{weapon} at {target}", f"no shot: {gone} is out of action"], lines


def test_the_risk_the_extra_hits_and_the_preview_leave_it_out() -> None:
    session = _session()
    rules, game = session.rules, session.game
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    for shooter, weapon, target in _pairs(game):
        assert rules.at_risk(game, shooter, target, weapon) == ()
        assert rules.at_risk(game, shooter, target) == ()
        assert engine.at_risk(game.state, shooter, target) == []  # it raised KeyError
        assert rules.extra_hits(game, shooter, weapon, target)[1] == ()
        if shooter in GONE:
            at = game.state.model(target).at
            assert rules.preview(game, shooter, weapon, point=at, direction=0.0) is None
    # the engine's own question says why, the shooter first
    why = engine.why_not_target(game.state, "escher-ganger", "orlock-ganger", 90.0)
    assert why == "escher-ganger is out of action"


def test_the_lof_command_says_there_is_no_shot_and_leaves_them_out_of_all(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # it said "line of fire: yes" and the cover at a fighter Out of Action
    args = ["lof", str(TABLE), "--from", "escher-leader", "--to", "orlock-leader"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Escher leader -> Orlock leader (necromunda)",
        "no shot: Orlock leader is out of action",
    ]
    assert (
        main(["lof", str(TABLE), "--from", "escher-ganger", "--to", "orlock-ganger", "--json"]) == 0
    )
    doc = json.loads(capsys.readouterr().out)
    # tester15 finding 11: by name, as the words say it, and no ruling of sight beside it
    assert doc["lof"] is False and doc["no_shot"] == "Escher ganger is out of action"
    for key in ("in_arc", "clear_sight_line", "witness", "visible_fraction", "cover",
                "reason", "said", "distance", "cover_of", "out_of_sight"):  # fmt: skip
        assert doc[key] is None, key
    assert doc["blockers"] == doc["hidden_by"] == doc["cover_from"] == []
    assert doc["attacker_name"] == "Escher ganger" and doc["target"] == "orlock-ganger"
    assert main(["lof", str(TABLE), "--all"]) == 0
    out = capsys.readouterr().out
    pairs = [line for line in out.splitlines() if line.endswith(" (necromunda)")]
    assert len(pairs) == 2 * 3 * 2  # 3 Eschers and 2 Orlocks in the fight, both ways
    assert not [p for p in pairs if "Escher ganger" in p or "Orlock leader" in p]
    assert out.rstrip().splitlines()[-1] == (
        "left out: Escher ganger is out of action; Orlock leader is out of action"
    )
    assert main(["lof", str(TABLE), "--all", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 12
    picture = tmp_path / "lof.png"
    assert main([*args, "--out", str(picture)]) == 0 and picture.is_file()


@pytest.mark.parametrize(("attacker", "target"), [("escher-leader", "orlock-leader"),
                                                   ("escher-ganger", "orlock-ganger")])  # fmt: skip
def test_the_shoot_command_refuses_it_in_words(
    capsys: pytest.CaptureFixture[str], attacker: str, target: str
) -> None:
    gone = attacker if attacker in GONE else target
    for extra in ([], ["--trials", "20"]):
        args = ["shoot", str(TABLE), "--attacker", attacker, "--target", target, *extra]
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(f": {SAID[gone]} is out of action") and len(err.splitlines()) == 1


@pytest.mark.parametrize("policy", ["simple", "careful", "search"])
def test_the_automatic_players_play_the_table_out(policy: str) -> None:
    """Each player plays a whole game of the table (2 rounds), never activating a fighter
    Out of Action nor shooting at one (the engine would refuse it: IllegalDeclaration)."""
    game = Game(load_scenario(TABLE), 3)
    options = {"think": 0.02} if policy == "search" else {}
    player = automatic_player(game.engine, policy, **options)
    for _ in range(200):
        if game.state.finished:
            break
        game.declare(player.choose(game.state, game.awaiting()))
    assert game.state.finished


def _eye_panel_pixels(target: str) -> tuple[int, tuple[int, ...]]:
    """lof's picture from Escher leader at `target`: the eye view's green pixels, and
    the colour at the middle of the target's base."""
    import pygame

    from game.render.eye import SEEN
    from game.render.lof_picture import HEADER, _panels, lof_picture
    from game.render.style import MARGIN
    from game.render.view import View
    from game.scenario.ruling import rule
    from game.scenario.tables import table_from_scenario

    scenario = load_scenario(TABLE)
    ruling = rule(scenario, table_from_scenario(scenario), "escher-leader", target)
    picture = lof_picture(scenario, ruling)
    top_w = _panels(scenario, 20.0)[0]
    panel = pygame.Rect(top_w, HEADER, picture.get_width() - top_w, picture.get_height() - HEADER)
    green = sum(
        1
        for x in range(panel.left, panel.right, 2)
        for y in range(panel.top, panel.bottom, 2)
        if picture.get_at((x, y))[:3] == SEEN
    )
    middle = View(20.0, MARGIN, HEADER).to_screen(*scenario.model(target).at)
    return green, tuple(picture.get_at((round(middle[0]), round(middle[1] + 4)))[:3])


def test_the_lof_picture_at_a_fighter_out_of_action_has_no_eye_view() -> None:
    """tester15 finding 3: `lof --out` at a fighter Out of Action drew the shooter's-eye
    view, a full green silhouette "seen: 100%", under a header saying there is no shot,
    and the fighter as a standing model. As the window: no eye view (why there is no shot
    in its place), the fighter greyed and crossed. A fighter in the fight keeps both."""
    from game.render.style import DEAD

    green, base = _eye_panel_pixels("orlock-leader")
    assert green == 0 and base == DEAD
    green, base = _eye_panel_pixels("orlock-ganger")
    assert green > 100 and base != DEAD
