"""The round's line of Necromunda's log counts the fighters still in the fight (retest14:
"Round 2: House Orlock has priority; 7 fighters ready" with 2 of the 7 Out of Action).

FACTS 2.8: a round's Action phase activates each fighter once; FACTS 2.4: a fighter Out
of Action is out of the fight. One taken Out of Action before it activated keeps its
Ready flag (the engine refuses to activate it), and the round's TurnStarted event, as
games are saved, counts the flags: its sentence counts the fighters in the fight."""

from __future__ import annotations

from game.rules.registry import find_ruleset
from game.sequencer.events import Event, TurnStarted
from game.sequencer.necromunda import Act, Action
from game.sequencer.necromunda_types import OUT_OF_ACTION, EndActivation, NecromundaState
from game.sequencer.sentences import Teller
from tests.sequencer.necromunda_tables import ScriptedNecromunda, Write
from tests.sequencer.test_necromunda_coup_de_grace import DOWN, FINISHER, game_with


def test_round_line_counts_no_fighter_out_of_action_before_it_activated(
    write_scenario: Write,
) -> None:
    """The Seriously Injured DOWN, Ready since round 1 began, is finished off (FACTS 2.4:
    Coup de Grace) before it activates; everyone else activates doing nothing. Round 2's
    line counts the 4 fighters left, not DOWN's flag kept."""
    game = game_with(write_scenario)
    # its friend's Nerve test (passed); Escher's Bottle test in the End phase (FACTS 2.8:
    # D6 1 + 1 casualty against a crew of 3: holds); round 2's priority roll (Goliath 5,
    # Escher 2)
    game.rng = ScriptedNecromunda(6, 5, 1, 5, 2)  # type: ignore[assignment]
    game.declare(Act(FINISHER, Action.coup_de_grace(DOWN)))
    game.declare(EndActivation())
    events: list[Event] = []
    while game.state.turn == 1:
        state = game.state
        assert isinstance(state, NecromundaState) and not state.finished
        [first, *_] = game.engine.awaiting(state).models
        events += game.declare(EndActivation(first))
    assert game.rng.left() == []  # type: ignore[attr-defined]
    [started] = [e for e in events if isinstance(e, TurnStarted)]
    in_fight = sum(1 for m in game.state.models if m.status != OUT_OF_ACTION)
    assert started.orders == in_fight + 1  # DOWN's Ready flag, as the event is saved
    teller = Teller(find_ruleset("necromunda"), {m.id for m in game.state.models})
    said = [teller.say(e) for e in game.events]
    [line] = [s for s in said if s.startswith("Round 2: ")]
    assert line.endswith(f" has priority; {in_fight} fighters ready")
