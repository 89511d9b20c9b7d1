"""Open Rebellion squad cover (FACTS 1.4): majority, hard only at a wall, flanks drop it."""

from __future__ import annotations

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, sight
from game.rules.open_rebellion.cover import (
    OpenRebellionCover,
    SquadCover,
    cover_said,
    squad_cover,
)


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


SHOOTER = Body(BodyId("s"), (2, 10), 0.5, 1.6)
WALL = Piece(PieceId("wall"), PieceKind.WALL, box(19.2, 4, 19.48, 12), 1.0)
WOODS = Piece(PieceId("woods"), PieceKind.AREA, box(19, 14, 23, 20), 0.5)


def squad(
    ys: list[float], pieces: tuple[Piece, ...], shooter: Body = SHOOTER
) -> OpenRebellionCover:
    return squad_reading(ys, pieces, shooter).level


def squad_reading(
    ys: list[float], pieces: tuple[Piece, ...], shooter: Body = SHOOTER, say_from: bool = False
) -> SquadCover:
    models = [Body(BodyId(f"m{i}"), (20, y), 0.5, 1.6, unit="sq") for i, y in enumerate(ys)]
    t = Table.build(40, 40, pieces, (shooter, *models))
    sights = [sight(t, "s", m.id, models_block=False) for m in models]
    return squad_cover(t, sights, say_from)


def test_majority_behind_a_wall_is_hard() -> None:
    assert squad([5, 7, 9, 30], (WALL,)) is OpenRebellionCover.HARD


def test_half_behind_a_wall_is_not_a_majority() -> None:
    # two of four at the wall, two in the open: neither hard nor light
    assert squad([5, 7, 28, 30], (WALL,)) is OpenRebellionCover.OPEN


def test_area_terrain_is_light() -> None:
    assert squad([15, 17, 30], (WOODS,)) is OpenRebellionCover.LIGHT


def test_flanked_wall_drops_to_light() -> None:
    # the shooter stands beside the wall's end, looking along the squad's side of it
    flank = Body(BodyId("s"), (22, 2), 0.5, 1.6)
    assert squad([5, 7, 9], (WALL,), flank) is OpenRebellionCover.LIGHT


def test_a_flanked_squads_cover_reads_as_the_other_counts_do() -> None:
    # FACTS 1.4: "If the enemy can see more than half the models around the wall (a
    # flank), hard cover drops to light". The reason events keep stays as saves hold it;
    # lof, the hover and shoot said it so ("light: hard cover flanked, 3 of 3 seen past
    # the wall") where every other count reads as a player says it (fix13a)
    flank = Body(BodyId("s"), (22, 2), 0.5, 1.6)
    assert squad_reading([5, 7, 9], (WALL,), flank).reason == (
        "light: hard cover flanked, 3 of 3 seen past the wall"
    )
    assert cover_said(squad_reading([5, 7, 9], (WALL,), flank).reason) == (
        "light: hard cover flanked: all 3 in sight are seen past the wall"
    )
    assert cover_said(squad_reading([5, 7, 9], (WALL,), flank, say_from=True).reason) == (
        "light: hard cover flanked: all 3 in sight are seen past the wall; the unit is in "
        "cover from wall"
    )
    for reason, said in [
        ("light: hard cover flanked, 2 of 3 seen past the wall", "2 of the 3 in sight are"),
        ("light: hard cover flanked, 2 of 2 seen past the wall", "both models in sight are"),
        ("light: hard cover flanked, 1 of 1 seen past the wall", "the one model in sight is"),
    ]:
        assert cover_said(reason) == f"light: hard cover flanked: {said} seen past the wall"


def test_what_gives_a_squad_its_cover_is_named_with_the_tier() -> None:
    # FACTS 1.4: hard cover from the wall its models touch, light from the area terrain
    # they stand in (and a flank drops the wall's hard cover to light, the wall still
    # giving it); in the open, nothing (lof --json's cover_from)
    assert squad_reading([5, 7, 9, 30], (WALL,)).pieces == ("wall",)
    assert squad_reading([15, 17, 30], (WOODS,)).pieces == ("woods",)
    flank = Body(BodyId("s"), (22, 2), 0.5, 1.6)
    assert squad_reading([5, 7, 9], (WALL,), flank).pieces == ("wall",)
    assert squad_reading([5, 7, 28, 30], (WALL,)).pieces == ()
