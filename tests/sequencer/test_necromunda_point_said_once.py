"""A blast's point is written one way in one shot (tester14 finding 16): "places the
... blast at (12.2, 11.9)" and the hit roll "at (12.19, 11.87)" read as two places.
Points in the dice log are written to a tenth of an inch, as the blast's placing says
it; the event keeps the point as the engine has it (saves replay as before)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.sequencer.events import Rolled
from game.sequencer.necromunda import Act, Action
from game.sequencer.necromunda_types import BlastPlaced
from game.sequencer.sentences import describe
from tests.sequencer.necromunda_tables import ScriptedNecromunda, necromunda_table, shooting_game

Write = Callable[..., Path]
GL = "Grenade launcher (frag)"


def test_a_blast_point_reads_the_same_in_its_placing_and_its_hit_roll(
    write_scenario: Write,
) -> None:
    fighters = [
        ("gren", "goliath", "grenadier", (2.0, 12.0), 0.0),
        ("foe", "escher", "ganger", (20.0, 2.0), 180.0),
    ]
    game, _ = shooting_game(necromunda_table(write_scenario, fighters), "gren")
    # a hit (6), one hole (firepower 2), then the wound roll and save: nothing under it
    game.rng = ScriptedNecromunda(6, 2, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(12.19, 11.87))))
    ruleset = game.setup.ruleset
    placed = describe(next(e for e in events if isinstance(e, BlastPlaced)), ruleset)
    roll = next(e for e in events if isinstance(e, Rolled) and e.purpose.startswith("hit roll"))
    assert roll.purpose.endswith("at (12.19, 11.87)")  # the event as before
    said = describe(roll, ruleset)
    assert placed is not None and said is not None
    assert "blast at (12.2, 11.9)" in placed
    assert "at (12.2, 11.9)" in said and "12.19" not in said
