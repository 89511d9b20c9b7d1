"""ARO eligibility, batched (cheap exact "any line clear" first, one pass per route),
names the same reactors as the straightforward check: every enemy, every route point
0.5" apart, the full sighting at each in-arc point, or the 8" Zone of Control."""

from __future__ import annotations

import math
import random

from game.ai.infinity import SimpleInfinityPlayer
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.infinity import (
    ACTIVE_STATES,
    ZONE_OF_CONTROL,
    InfinityEngine,
    InfinityState,
    OrderInProgress,
    Skill,
    Stage,
    _along,
)
from game.sequencer.sight import Cover, Placement
from tests.conftest import SCENARIOS

Point = tuple[float, float]


def reference(
    engine: InfinityEngine,
    state: InfinityState,
    model: str,
    route: tuple[Point, ...],
    facing: float,
) -> tuple[tuple[str, bool], ...]:
    """The straightforward per-point check, kept here as the reference."""
    active = state.model(model)
    out: list[tuple[str, bool]] = []
    for r in state.models:
        if r.side == active.side or r.status not in ACTIVE_STATES:
            continue
        lof = zoc = False
        for p in _along(route):
            placements = {m.id: Placement(m.at, m.facing, m.status != "dead") for m in state.models}
            placements[model] = Placement(p, facing)
            if engine.sight.in_arc(placements, r.id, model):
                s = engine.sight.sighting(placements, r.id, model)
                if s.lof and s.in_arc and s.cover is not Cover.TOTAL:
                    lof = True
                    break
            if engine.sight.distance(placements, r.id, model) <= ZONE_OF_CONTROL:
                zoc = True
        if lof or zoc:
            out.append((r.id, lof))
    return tuple(out)


def routes(state: InfinityState, rng: random.Random, n: int) -> list[tuple[str, tuple[Point, ...]]]:
    out = []
    for _ in range(n):
        m = rng.choice(
            [m for m in state.models if m.side == state.active and m.status in ACTIVE_STATES]
        )
        heading = rng.uniform(0, 2 * math.pi)
        legs = rng.choice((1, 2))
        pts = [m.at]
        for _ in range(legs):
            d = rng.uniform(1.0, 4.0)
            x, y = pts[-1]
            pts.append(
                (
                    min(max(x + d * math.cos(heading), 1), 47),
                    min(max(y + d * math.sin(heading), 1), 47),
                )
            )
            heading += rng.uniform(-1.0, 1.0)
        out.append((m.id, tuple(pts)))
    return out


def test_batched_eligibility_names_the_same_reactors_as_the_per_point_check() -> None:
    setup = load_scenario(SCENARIOS / "infinity-demo.toml")
    game = Game(setup, seed=5)
    engine = game.engine
    assert isinstance(engine, InfinityEngine)
    player = SimpleInfinityPlayer(engine)
    states: list[InfinityState] = []
    for n in range(240):  # states across a played game: sides apart, then closing in
        if game.state.finished:
            break
        if n % 8 == 0 and isinstance(game.state, InfinityState):
            states.append(game.state)
        game.declare(player.choose(game.state, game.awaiting()))
    assert len(states) >= 4
    checker = InfinityEngine(setup)  # its own caches: the reference shares nothing
    rng = random.Random(3)
    seen_lof = seen_zoc_only = seen_none = 0
    for state in states:
        for model, route in routes(state, rng, 6):
            last, before = route[-1], route[-2]
            facing = math.degrees(math.atan2(last[1] - before[1], last[0] - before[0]))
            skill = Skill.move(*route[1:])
            order = OrderInProgress(model, route[0], skill, route, facing, Stage.ARO_FIRST, ())
            fast = engine._eligible(state, order, skill, route, already=())
            assert fast == reference(checker, state, model, route, facing), (model, route)
            enemies = sum(
                1 for m in state.models if m.side != state.active and m.status in ACTIVE_STATES
            )
            seen_lof += sum(1 for _, any_aro in fast if any_aro)
            seen_zoc_only += sum(1 for _, any_aro in fast if not any_aro)
            seen_none += enemies - len(fast)
    # the routes exercise all three answers, so a wrong shortcut would show
    assert seen_lof and seen_zoc_only and seen_none
