"""Why a game ended, as each engine records it (GameEnded.reason)."""

from __future__ import annotations

from typing import Any

import pytest

from game.scenario import load_scenario
from game.sequencer.game import Game
from tests.conftest import SCENARIOS


@pytest.mark.parametrize(
    ("table", "what"),
    [
        ("infinity-demo", "nothing left able to act"),
        ("necromunda-alley", "no fighter left standing or pinned"),
        ("open-rebellion-demo", "no models left"),
    ],
)
def test_sides_beaten_at_once_are_named_in_the_plural(table: str, what: str) -> None:
    # Each engine's end of a game (DESIGN: a side with nothing left in the fight is
    # beaten). When both fell at once Open Rebellion's reason read "rebels, government has
    # no models left" (session 7's note; Necromunda's was mended in d0fbc1c): one helper,
    # events.beaten_reason, words it for the three.
    game = Game(load_scenario(SCENARIOS / f"{table}.toml"), seed=7)
    out = game.setup.ruleset.out_of_fight[0]
    state = game.state
    for m in state.models:
        state = state.with_model(m.replace(status=out))
    events: list[Any] = []
    game.engine._victory(state, events)  # type: ignore[attr-defined]
    [ended] = events
    first, second = state.sides
    assert ended.reason == f"{first} and {second} have {what}"
    assert ended.winner is None
    one = game.state
    for m in one.side_models(second):
        one = one.with_model(m.replace(status=out))
    events.clear()
    game.engine._victory(one, events)  # type: ignore[attr-defined]
    assert events[-1].reason == f"{second} has {what}"
    assert events[-1].winner == first
