"""The round's line of Necromunda's log counts the fighters still in the fight (retest14:
"Round 2: House Orlock has priority; 7 fighters ready" with 2 of the 7 Out of Action).

FACTS 2.8: a round's Action phase activates each fighter once; FACTS 2.4: a fighter Out
of Action is out of the fight. Under Necromunda's rules version 3 a fighter taken Out of
Action before it activated is not Ready in the rounds after, and the round's TurnStarted
event counts the fighters in the fight; a log of older rules counted its Ready flag kept,
and its sentence counts the fighters in the fight from the log (`_ready`)."""

from __future__ import annotations

from game.rules.registry import find_ruleset
from game.sequencer.events import Event, StateChanged, TurnStarted
from game.sequencer.necromunda import Act, Action
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    READY,
    EndActivation,
    NecromundaState,
)
from game.sequencer.sentences import Teller
from tests.sequencer.necromunda_tables import ScriptedNecromunda, Write
from tests.sequencer.test_necromunda_coup_de_grace import DOWN, FINISHER, game_with


def test_round_line_counts_no_fighter_out_of_action_before_it_activated(
    write_scenario: Write,
) -> None:
    """The Seriously Injured DOWN, Ready since round 1 began, is finished off (FACTS 2.4:
    Coup de Grace) before it activates; everyone else activates doing nothing. Round 2's
    event and line count the 4 fighters left, not DOWN's flag kept (it was 5 in the event
    before rules version 3)."""
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
    assert started.orders == in_fight == 4
    assert READY not in game.state.model(DOWN).flags  # it kept it before version 3
    assert game.engine.ready(game.state, game.state.active) == tuple(
        m.id for m in game.state.side_models(game.state.active) if READY in m.flags
    )
    teller = Teller(find_ruleset("necromunda"), {m.id for m in game.state.models})
    said = [teller.say(e) for e in game.events]
    [line] = [s for s in said if s.startswith("Round 2: ")]
    assert line.endswith(f" has priority; {in_fight} fighters ready")


def test_round_line_of_a_log_of_older_rules_counts_the_fighters_in_the_fight() -> None:
    """A log of rules version 1 or 2 counted the Ready flag a fighter taken Out of Action
    before it activated kept (its round 2 event: 5 with 4 in the fight): the sentence
    counts the fighters in the fight from the log, as before; a version-3 log's count is
    told as stored (the least of the two is the stored count when it is right)."""
    down = StateChanged("e", "seriously-injured", OUT_OF_ACTION)
    for stored, said in ((5, 4), (4, 4)):
        teller = Teller(find_ruleset("necromunda"), ("a", "b", "c", "d", "e"))
        assert teller.say(TurnStarted(1, "escher", 5)).endswith("; 5 fighters ready")
        teller.say(down)
        line = teller.say(TurnStarted(2, "escher", stored))
        assert line == f"Round 2: Escher has priority; {said} fighters ready"
