"""The automatic Necromunda players lead group activations (FACTS 2.8: "Leaders may
group-activate 2 fighters within 3", Champions 1"): activating a Leader or Champion,
they nominate the Ready friends within 3" that have a shot, best first."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai.necromunda import CarefulNecromundaPlayer, SimpleNecromundaPlayer
from game.dice.rng import make_rng
from game.scenario import load_scenario
from game.sequencer.engine import Awaiting
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import Act, EndActivation, NecromundaState
from tests.sequencer.necromunda_tables import R, ScriptedNecromunda, Write, necromunda_table

LEADER, NEAR, SIDE, BEHIND, UNARMED, FAR = (
    "goliath-leader", "goliath-near", "goliath-side", "goliath-behind", "goliath-unarmed",
    "goliath-far",
)  # fmt: skip


def _game(write: Write) -> Game:
    """A leader with four friends within 3" (one unarmed) and one 5" off, an Escher
    ganger 8" east of it; Goliath activates first."""
    path: Path = necromunda_table(
        write,
        [
            (LEADER, "goliath", "leader", (2, 10), 0),
            (NEAR, "goliath", "ganger", (4, 10), 0),
            (SIDE, "goliath", "ganger", (2, 12.5), 0),
            (BEHIND, "goliath", "ganger-autogun", (2, 7.5), 0),
            (UNARMED, "goliath", "ganger", (4, 12.5), 0),
            (FAR, "goliath", "ganger", (2, 10 + 5 + 2 * R), 0),
            ("escher-ganger", "escher", "ganger", (10, 10), 180),
        ],
        weapons={UNARMED: ["Frag grenade"]},
    )
    game = Game(load_scenario(path), seed=1)
    game.rng = ScriptedNecromunda(6, 1)  # type: ignore[assignment]
    game.state, game.events = game.engine.start(rng=game.rng)
    game.rng = make_rng(3)  # the dice of the shots after
    return game


@pytest.mark.parametrize("player", [SimpleNecromundaPlayer, CarefulNecromundaPlayer])
def test_a_leader_activated_by_a_player_leads_the_friends_with_a_shot_best_first(
    write_scenario: Write, player: type[SimpleNecromundaPlayer]
) -> None:
    game = _game(write_scenario)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    me = player(engine)
    state = game.state
    assert isinstance(state, NecromundaState)
    # the player's pick among the Ready fighters aside: the leader is the one to activate
    chosen = me.choose(state, Awaiting("goliath", "activate", (LEADER,)))
    assert isinstance(chosen, Act) and chosen.model == LEADER
    assert len(chosen.group) == 2  # FACTS 2.8: a leader takes 2
    worth = {}
    for f in chosen.group:
        assert engine.may_join(state, LEADER, f) is None
        m = state.model(f)
        facing = me._face_enemy(state, m)
        turned = state.with_model(m.replace(facing=facing))
        shot = me._shot(turned, turned.model(f), actions_left=2)
        assert shot is not None, f
        worth[f] = me._shot_worth(turned, f, shot)
    assert FAR not in chosen.group and UNARMED not in chosen.group
    first, second = chosen.group
    assert worth[first] >= worth[second]
    # every friend left out that may come has no better shot
    for f in (NEAR, SIDE, BEHIND):
        if f not in chosen.group:
            m = state.model(f)
            turned = state.with_model(m.replace(facing=me._face_enemy(state, m)))
            shot = me._shot(turned, turned.model(f), actions_left=2)
            assert shot is None or me._shot_worth(turned, f, shot) <= worth[second]
    # the group then activates, the player choosing among them
    game.declare(chosen)
    while game.awaiting().kind == "action":
        game.declare(me.choose(game.state, game.awaiting()))
    assert game.awaiting().models == chosen.group
    nxt = me.choose(game.state, game.awaiting())
    assert isinstance(nxt, Act | EndActivation) and nxt.model in chosen.group
    assert not (isinstance(nxt, Act) and nxt.group)  # no group within a group
