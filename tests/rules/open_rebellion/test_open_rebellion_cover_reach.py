"""Open Rebellion: cover is a place the unit is in (seed 001, FACTS 1.4: "Area terrain is
typically light cover. If more than half the models of a unit are in a particular
category of cover...", hard cover in base contact with a wall). A piece that hides part
of a model gives it light cover only when the model stands within the cover reach of it
(`cover_reach`, assets/open-rebellion/rules.toml, 2", a reading): the hedge it stands
behind covers it, the shooter's own wall or a house across the street does not
(tester14's finding 1: the village's Gov HMG was "in cover from the garden wall north",
the Rebels' wall 10" from it)."""

from __future__ import annotations

import pytest

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind
from game.rules.open_rebellion.cover import REACH, REACH_KEY, OpenRebellionCover, cover_reach
from game.scenario.rule_values import load_rule_values
from tests.commands.test_lof_cli import run
from tests.rules.open_rebellion.test_cover_open_rebellion import WALL, box, squad_reading

# the shooter at (2, 10); the squad at x = 20, its bases' near edge at x = 19.5
HEDGE_AT = Piece(PieceId("hedge"), PieceKind.OBSTACLE, box(18.5, 4, 19.0, 16), 0.8)  # 0.5" off
HEDGE_FAR = Piece(PieceId("hedge"), PieceKind.OBSTACLE, box(17.0, 4, 17.4, 16), 0.8)  # 2.1" off
HEDGE_NEAR = Piece(PieceId("hedge"), PieceKind.OBSTACLE, box(17.2, 4, 17.6, 16), 0.8)  # 1.9" off
MID_WALL = Piece(PieceId("low-wall"), PieceKind.WALL, box(15.0, 4, 15.28, 16), 1.0)  # 4.2" off


def test_cover_reach_is_rule_data_marked_unconfirmed() -> None:
    values = load_rule_values("open-rebellion")
    assert values[REACH_KEY] == REACH == 2.0
    assert cover_reach({}) == REACH and cover_reach({REACH_KEY: 0.5}) == 0.5


def test_a_piece_a_model_stands_behind_gives_light_cover() -> None:
    # seed 001: light cover; the hedge 0.5" in front of each model hides part of it
    found = squad_reading([8, 10, 12], (HEDGE_AT,), say_from=True)
    assert found.level is OpenRebellionCover.LIGHT
    assert found.pieces == ("hedge",)
    assert found.reason == "light: 3 of 3 in cover from hedge"


def test_a_piece_far_from_the_model_gives_no_cover() -> None:
    # FACTS 1.4: cover is where the unit is; a wall 4" in front of the squad hides the
    # lower third of each model and puts none of them in cover
    found = squad_reading([8, 10, 12], (MID_WALL,), say_from=True)
    assert found.level is OpenRebellionCover.OPEN and found.pieces == ()
    for model in found.models:
        assert model.level is OpenRebellionCover.OPEN and model.pieces == ()
        assert model.reason.startswith("in the open: ")
        assert model.reason.endswith(' hidden by low-wall, farther than 2" from it')


@pytest.mark.parametrize(
    ("piece", "level"),
    [(HEDGE_NEAR, OpenRebellionCover.LIGHT), (HEDGE_FAR, OpenRebellionCover.OPEN)],
)
def test_the_cover_reach_is_measured_from_the_base_edge_to_the_piece(
    piece: Piece, level: OpenRebellionCover
) -> None:
    # the same hedge 1.9" and 2.1" in front of the bases: within the reach, and past it
    assert squad_reading([8, 10, 12], (piece,)).level is level


def test_a_scenarios_cover_reach_is_the_one_read() -> None:
    from game.geometry import Table, sight
    from game.rules.open_rebellion.cover import squad_cover

    models = [Body(BodyId(f"m{i}"), (20, y), 0.5, 1.6, unit="sq") for i, y in enumerate([8, 10])]
    shooter = Body(BodyId("s"), (2, 10), 0.5, 1.6)
    t = Table.build(40, 40, (HEDGE_AT,), (shooter, *models))
    sights = [sight(t, "s", m.id, models_block=False) for m in models]
    assert squad_cover(t, sights).level is OpenRebellionCover.LIGHT
    assert squad_cover(t, sights, reach=0.4).level is OpenRebellionCover.OPEN


def test_only_what_gives_the_cover_is_named() -> None:
    # the hedge at the squad and a wall 4" off both hide part of the first model (the
    # wall its side nearest the wall's end): the hedge gives it its cover, and the squad's
    short = Piece(PieceId("low-wall"), PieceKind.WALL, box(15.0, 4, 15.28, 8.8), 1.0)
    found = squad_reading([8, 10, 12], (HEDGE_AT, short), say_from=True)
    assert found.level is OpenRebellionCover.LIGHT and found.pieces == ("hedge",)
    assert found.reason == "light: 3 of 3 in cover from hedge"
    first = found.models[0]
    assert first.pieces == ("hedge",)
    assert first.reason.endswith(' hidden by hedge, low-wall; within 2" of hedge'), first


def test_a_wall_far_from_the_squad_does_not_hold_off_a_flank() -> None:
    # FACTS 1.4: a flank (more than half the unit seen past the wall it touches) drops hard
    # cover to light. Seen from along the wall, a low wall 10" from the squad hides part
    # of each model: it was counted as the wall hiding them, and the squad kept hard cover
    flank = Body(BodyId("s"), (22, 30), 0.5, 1.6)
    far = Piece(PieceId("far-wall"), PieceKind.WALL, box(19.6, 20, 25, 20.28), 1.0)
    found = squad_reading([5, 7, 9], (WALL, far), flank)
    assert found.level is OpenRebellionCover.LIGHT
    assert found.reason == "light: hard cover flanked, 3 of 3 seen past the wall"


def test_the_village_hmg_is_not_in_cover_from_the_shooters_own_wall(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # tester14's finding 1: lof said East squad was "in light cover from the hedge and the
    # garden wall north", the Rebels' wall beside the shooter, 10" from the Gov HMG
    _, text, _ = run(capsys, "lof", "open-rebellion-village", "--from", "reb-b2", "--to", "gov-hmg")
    lines = text.splitlines()
    assert "visible: 82% (the rest hidden by the garden wall north)" in lines
    assert (
        "cover: light: 3 of its 4 models are in cover from the hedge; judged for the whole "
        "of East squad"
    ) in lines
