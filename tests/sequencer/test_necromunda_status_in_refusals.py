"""A fighter's status in a refusal is written as the dice log writes it (tester14
finding 10: "seriously-injured", with the hyphen of an id, is no word of the rules):
a Coup de Grace on a fighter Out of Action (FACTS 2.4: only a Seriously Injured one
is finished off) reads "is out of action", not "is out-of-action"."""

from __future__ import annotations

from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import OUT_OF_ACTION, NecromundaState
from tests.sequencer.necromunda_tables import Write
from tests.sequencer.test_necromunda_coup_de_grace import DOWN, FINISHER, game_with


def test_a_status_in_a_refusal_reads_without_the_hyphen(write_scenario: Write) -> None:
    game = game_with(write_scenario)
    state, engine = game.state, game.engine
    assert isinstance(state, NecromundaState) and isinstance(engine, NecromundaEngine)
    gone = state.with_model(state.model(DOWN).replace(status=OUT_OF_ACTION))
    said = engine.coup_de_grace_refused(gone, FINISHER, DOWN)
    assert said == f"{DOWN} is out of action: only a Seriously Injured fighter is finished off"
