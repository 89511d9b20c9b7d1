"""The automatic Necromunda players ask only what decides their choice: each test checks
that a shortcut chooses what the player's rule chooses when every candidate is asked."""

from __future__ import annotations

import math

from game.ai.necromunda import SimpleNecromundaPlayer
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import ARC
from game.sequencer.necromunda_types import SERIOUSLY_INJURED, UPRIGHT, Action, NecromundaState
from game.sequencer.state import ModelState
from tests.conftest import SCENARIOS


def shot_asking_everything(
    player: SimpleNecromundaPlayer, state: NecromundaState, m: ModelState, left: int
) -> Action | None:
    """The simple player's shot as its note states it, every eligible enemy sighted: the
    closest eligible target (no Cool test), with the usable weapon that needs the lowest
    score to hit it (then the strongest), in range and needing 6 or less; a flamer's
    template when it may be placed on the nearest enemy and is worth more."""
    engine = player.engine
    standing = {t.id for t in state.models if t.status != SERIOUSLY_INJURED}
    targets = [t for t, _ in engine.eligible(state, m.id, ARC, among=standing)]
    best: tuple[tuple[int, int], Action] | None = None
    for weapon in player._usable(m, left):
        if weapon.is_template:
            action = player._flame(state, m, weapon)
            if action is not None and (best is None or (0, weapon.strength + 2) > best[0]):
                best = ((0, weapon.strength + 2), action)
            continue
        if not targets:
            continue
        plan = engine.hit_plan(state, m.id, weapon, target=targets[0])
        if plan.out_of_range or plan.need > 6:
            continue
        key = (-plan.need, weapon.strength)
        if best is None or key > best[0]:
            best = (key, Action.shoot(weapon.name, targets[0]))
    return best[1] if best is not None else None


def test_simple_player_sights_no_enemy_beyond_its_guns_and_shoots_as_before() -> None:
    """The simple player sights no enemy beyond its guns' longest reach (none there can
    be shot): its shot is the one it picks with every eligible enemy sighted, for every
    fighter it weighs along seeded games on the alley and the demo (many with the
    closest eligible enemy out of range, many with a shot)."""
    for name in ("necromunda-alley", "necromunda-demo"):
        game = Game(load_scenario(SCENARIOS / f"{name}.toml"), seed=5)
        engine = game.engine
        assert isinstance(engine, NecromundaEngine)
        player = SimpleNecromundaPlayer(engine)
        shots = beyond = 0
        for _ in range(400):
            state, awaiting = game.state, game.awaiting()
            if state.finished:
                break
            assert isinstance(state, NecromundaState)
            for m in (state.model(f) for f in awaiting.models):
                if m.status not in UPRIGHT:
                    continue
                me = m.replace(facing=player._face_enemy(state, m))
                here = state.with_model(me)
                for left in (1, 2):
                    expected = shot_asking_everything(player, here, me, left)
                    assert player._shot(here, me, left) == expected
                    shots += expected is not None
                guns = [w for w in player._usable(me, 2) if not w.is_template]
                reach = max((engine.long_range(me.id, w) for w in guns), default=math.inf)
                closest = engine.eligible(here, me.id, ARC, limit=1)
                beyond += bool(closest) and closest[0][1].distance > reach
            game.declare(player.choose(state, awaiting))
        assert shots >= 20
        assert beyond >= 10
