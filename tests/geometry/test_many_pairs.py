"""Many pairs at once give the answers of one pair at a time, to the last bit: the search
for a clear line over thousands of pairs (`lines_of_fire`, `clear_witnesses`) finds the
same witness, or names the same blockers, as `clear_sight` asked pair by pair."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
import shapely

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, lof
from game.geometry.blocking import gather
from game.geometry.lof import _prepass_few, _prepass_many, _solve_many, clear_sight
from game.geometry.over_tops import line_over_tops
from game.geometry.table import BoolArray, IntArray

BIG = Path(__file__).resolve().parents[2] / "benchmarks" / "tables" / "big-infinity.toml"


def crowded(count: int, seed: int) -> Table:
    """The 60-piece table with models added on free ground up to `count`, of mixed heights
    (so pieces and models of in-between height stand between many pairs)."""
    from game.scenario import load_scenario
    from game.scenario.tables import table_from_scenario

    table = table_from_scenario(load_scenario(BIG))
    rnd = random.Random(seed)
    bodies = list(table.bodies)
    scenery = shapely.union_all(list(table.polygons))
    while len(bodies) < count:
        x, y = rnd.uniform(1, table.width - 1), rnd.uniform(1, table.depth - 1)
        r = rnd.choice([0.49, 0.49, 0.79])
        if scenery.distance(shapely.Point(x, y)) < r + 0.05:
            continue
        if any(math.dist((x, y), b.at) < r + b.radius + 0.3 for b in bodies):
            continue
        bodies.append(Body(BodyId(f"x{len(bodies)}"), (x, y), r, rnd.uniform(1.0, 3.0)))
    return table.with_bodies(bodies)


@pytest.mark.parametrize("models_block", [True, False])
def test_many_pairs_at_once_are_answered_as_one_at_a_time(models_block: bool) -> None:
    table = crowded(70, seed=3)
    ids = [b.id for b in table.bodies]
    pairs = [(table.body(a), table.body(b)) for a, b in itertools.combinations(ids, 2)]
    many = _solve_many(table, pairs, models_block)
    steps = {"clear": 0, "hidden": 0}
    for (a, b), answer in zip(pairs, many, strict=True):
        assert answer == clear_sight(table, a, b, models_block), (a.id, b.id)
        steps["clear" if answer[0] else "hidden"] += 1
    # both answers are common on this table (the comparison is not empty)
    assert min(steps.values()) > 300, steps


def test_touching_bases_and_bodies_off_the_table_are_answered_as_one_at_a_time() -> None:
    wall = Piece(
        PieceId("w"), PieceKind.WALL, ((5.0, 2.0), (5.5, 2.0), (5.5, 8.0), (5.0, 8.0)), 1.5
    )
    low = Piece(
        PieceId("l"), PieceKind.OBSTACLE, ((7.0, 4.0), (8.0, 4.0), (8.0, 6.0), (7.0, 6.0)), 2.2
    )
    table = Table.build(
        12.0,
        12.0,
        [wall, low],
        [
            Body(BodyId("a"), (2.0, 5.0), 0.5, 2.0),
            Body(BodyId("b"), (10.0, 5.0), 0.5, 3.0),
            Body(BodyId("c"), (6.2, 5.0), 0.5, 2.6),
        ],
    )
    a, b, c = table.bodies
    moved = Body(BodyId("a"), (2.0, 9.5), 0.5, 1.2)  # the table's "a", stood elsewhere
    stranger = Body(BodyId("z"), (3.0, 5.0), 0.5, 2.5)  # in contact with "a"
    pairs = [(a, b), (b, a), (a, c), (c, b), (moved, b), (a, stranger), (stranger, b), (moved, c)]
    many = _solve_many(table, pairs, True)
    assert many == [clear_sight(table, p, q, True) for p, q in pairs]
    assert many[5][0], "bases in contact see each other"


def test_the_first_steps_for_a_few_pairs_answer_as_for_many() -> None:
    """A few pairs go through the first steps against the obstacles any of them could
    meet, many pairs each against its own: the answers are the same."""
    table = crowded(70, seed=5)
    ids = [b.id for b in table.bodies]
    pairs = [(table.body(a), table.body(b)) for a, b in itertools.permutations(ids, 2)]
    many = _prepass_many(table, pairs, True)
    rnd = random.Random(1)
    settled = 0
    for _ in range(60):
        ks = rnd.sample(range(len(pairs)), rnd.randint(1, 20))
        few = _prepass_few(table, [pairs[k] for k in ks], True)
        assert few == [many[k] for k in ks]
        settled += sum(answer is not None for answer in few)
    assert settled > 200, settled


def walled(seed: int) -> Table:
    """A small table of thin walls and models of mixed heights (1 to 3 inches): many
    pairs see each other only over the top of some wall."""
    rnd = random.Random(seed)
    walls = []
    for k in range(7):
        x, y = rnd.uniform(3, 19), rnd.uniform(3, 19)
        w, d = (rnd.uniform(2, 4), 0.3) if k % 2 else (0.3, rnd.uniform(2, 4))
        box = ((x, y), (x + w, y), (x + w, y + d), (x, y + d))
        walls.append(Piece(PieceId(f"w{k}"), PieceKind.WALL, box, rnd.uniform(1.0, 3.0)))
    scenery = shapely.union_all([shapely.Polygon(p.footprint) for p in walls])
    bodies: list[Body] = []
    while len(bodies) < 14:
        x, y = rnd.uniform(1, 23), rnd.uniform(1, 23)
        if scenery.distance(shapely.Point(x, y)) < 0.6:
            continue
        if any(math.dist((x, y), b.at) < 1.2 for b in bodies):
            continue
        bodies.append(Body(BodyId(f"m{len(bodies)}"), (x, y), 0.5, rnd.uniform(1.0, 3.0)))
    return Table.build(24.0, 24.0, walls, bodies)


def test_the_search_over_top_edges_is_skipped_only_where_it_finds_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Step 4 is skipped when every candidate crosses a wall or an obstacle of in-between
    height that no sight line climbs over where it crosses it: wherever that skips a
    search the walls alone would not have, the search finds no line."""
    original = lof._may_pass_over
    skipped = 0

    def checking(
        table_: Table,
        pieces: IntArray,
        bodies: IntArray,
        by_piece: BoolArray,
        by_body: BoolArray,
        a: Body,
        b: Body,
    ) -> bool:
        nonlocal skipped
        verdict = original(table_, pieces, bodies, by_piece, by_body, a, b)
        high = max(a.height, b.height)
        walls = by_piece[:, table_.arrays.top[pieces] >= high].any(axis=1) | by_body[
            :, table_.body_arrays.h[bodies] >= high
        ].any(axis=1)
        if walls.all():
            return verdict
        if not verdict:
            skipped += 1
            assert line_over_tops(a, b, gather(table_, pieces, bodies)) is None, (a.id, b.id)
        return verdict

    monkeypatch.setattr(lof, "_may_pass_over", checking)
    for seed in range(6):
        table = walled(seed)
        pairs = list(itertools.combinations(table.bodies, 2))
        lof._solve_many(table, pairs, True)
        for a, b in pairs[::5]:  # and one pair at a time
            lof.clear_sight(table, a, b, True)
    assert skipped > 20, skipped


def test_a_bent_building_across_the_way_hides_unless_a_channel_runs_through_it() -> None:
    """Step 2 for pieces that are not convex: an L-shaped building across both outer
    tangents hides the target; a U-shaped one whose channel runs from one model to the
    other (its arms joined outside the way) does not."""
    a = Body(BodyId("a"), (2.0, 10.0), 0.5, 1.5)
    b = Body(BodyId("b"), (20.0, 10.0), 0.5, 1.5)
    ell = ((9.0, 6.0), (13.0, 6.0), (13.0, 14.0), (12.0, 14.0), (12.0, 7.0), (9.0, 7.0))
    # a U on its side: arms along y 8..9 and 11..12, joined by a bar across the way
    # (x 16..17, y 3..17)
    u = (
        (8.0, 8.0),
        (16.0, 8.0),
        (16.0, 3.0),
        (17.0, 3.0),
        (17.0, 17.0),
        (16.0, 17.0),
        (16.0, 12.0),
        (8.0, 12.0),
        (8.0, 11.0),
        (16.0, 11.0),
        (16.0, 9.0),
        (8.0, 9.0),
    )
    for footprint, hidden in ((ell, True), (u, True)):
        piece = Piece(PieceId("p"), PieceKind.BUILDING, footprint, 4.0)
        table = Table.build(24.0, 24.0, [piece], [a, b])
        many = _solve_many(table, [(a, b), (b, a)], True)
        assert many == [clear_sight(table, a, b, True), clear_sight(table, b, a, True)]
        assert many[0][0] is not hidden
    # the channel between the arms is open at both ends: the bar sits beyond the target
    channel = (
        (8.0, 8.0),
        (22.0, 8.0),
        (22.0, 3.0),
        (23.0, 3.0),
        (23.0, 17.0),
        (22.0, 17.0),
        (22.0, 12.0),
        (8.0, 12.0),
        (8.0, 11.0),
        (21.5, 11.0),
        (21.5, 9.0),
        (8.0, 9.0),
    )
    piece = Piece(PieceId("p"), PieceKind.BUILDING, channel, 4.0)
    table = Table.build(24.0, 24.0, [piece], [a, b])
    many = _solve_many(table, [(a, b), (b, a)], True)
    assert many == [clear_sight(table, a, b, True), clear_sight(table, b, a, True)]
    assert many[0][0], "lines run along the channel between the arms"
