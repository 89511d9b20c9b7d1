"""Open Rebellion readings a rules lawyer would check (issue #12, items 12-14), with
scripted dice: hard cover only from a wall in base contact, hidden units one tier
better, and fall back toward cover, generally away from the shooter (seed 001)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.rules.open_rebellion.cover import OpenRebellionCover
from game.scenario import load_scenario
from game.sequencer.events import StateChanged
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_types import (
    Action,
    ActivateUnit,
    DamageConverted,
    FallBackChoice,
    FellBack,
    OpenRebellionState,
    PickInitiative,
    UnitAct,
)
from tests.sequencer.test_open_rebellion_engine import HEADER, of, red_activating, run

Write = Callable[..., Path]


def squads(
    write: Write, scenery: str = "", blue: tuple[tuple[float, float], ...] = (), extra: str = ""
) -> OpenRebellionEngine:
    """red-a: three riflemen at x 4 (y 10, 12, 14); blue-a: three riflemen at `blue`."""
    body = HEADER + scenery
    spots = [("r", "red", "red-a", (4.0, y), "") for y in (10, 12, 14)]
    spots += [("s", "red", "red-b", (4.0 + 1.5 * i, 20.0), "") for i in range(3)]
    spots += [("b", "blue", "blue-a", at, extra) for at in blue or ((20, 10), (20, 12), (20, 14))]
    for i, (prefix, side, unit, (x, y), more) in enumerate(spots):
        body += (
            f'\n[[model]]\nid = "{prefix}{i + 1}"\nside = "{side}"\nprofile = "rifleman"\n'
            f'at = [{x}, {y}]\nunit = "{unit}"\n{more}'
        )
    return OpenRebellionEngine(load_scenario(write(body, header=False)))


BARN = """
[[scenery]]
id = "barn"
kind = "building"
polygon = [[16, 9.2], [18, 9.2], [18, 12.8], [16, 12.8]]
"""


def test_hard_cover_needs_a_wall_in_base_contact_not_a_building(write_scenario: Write) -> None:
    # seed 001: "A model should be in base contact with a wall to count as having hard
    # cover". Two of three blue models stand behind a barn (no wall anywhere): the
    # shooter sees only the third, in the open. Reading (README): the unit's cover is
    # judged on the models the shooter sees.
    engine = squads(write_scenario, BARN, blue=((19, 10), (19, 12), (19, 16)))
    state = red_activating(engine)
    cover = engine.cover(state, "red-a", "blue-a")
    assert cover.level is OpenRebellionCover.OPEN
    assert "wall" not in cover.reason
    assert cover.reason == "open: only 0 of the 1 in sight in cover; 2 of 3 out of sight"
    hidden = [m for m in cover.models if not m.seen]
    assert len(hidden) == 2 and all("barn" in m.reason for m in hidden)


def test_hidden_unit_improves_its_tier_by_one(write_scenario: Write) -> None:
    # seed 001: "Units that are hidden and represented on table by cards improve their
    # position by one tier": in the open they convert as light cover (defender rolls)
    engine = squads(write_scenario, extra='state = "hidden"\n')
    state = red_activating(engine)
    assert engine.hidden(state, "blue-a")
    # attack 7 dice: 3 bangs; defence 5 dice: 1 bang -> 2 damage (the open: morale)
    state, _ = run(
        engine, state, UnitAct("red-a", Action.fire("blue-a")), 5, 6, 5, 1, 2, 3, 4, 6, 1, 1, 1, 1
    )
    # morale passes (one bang of 4); conversion as light: the defender rolls 2 dice
    state, events = run(engine, state, FallBackChoice("blue-a", False), 5, 1, 1, 1, 6, 1)
    [conv] = of(events, DamageConverted)
    assert (conv.tier, conv.roller, conv.wounds, conv.pins) == ("light", "defender", 1, 1)


def test_hidden_unit_is_revealed_when_it_acts(write_scenario: Write) -> None:
    # our reading: the card is replaced by the models at the unit's first action
    engine = squads(write_scenario, extra='state = "hidden"\n')
    state, _ = engine.start(rng=np.random.default_rng(0))
    assert isinstance(state, OpenRebellionState)
    state, _ = run(engine, state, PickInitiative("red-a"))
    state, _ = run(engine, state, PickInitiative("blue-a"), 1, 1, 1, 1, 6, 1, 1, 1)
    state, _ = run(engine, state, ActivateUnit("blue-a"))
    assert engine.hidden(state, "blue-a")
    state, events = run(engine, state, UnitAct("blue-a", Action.move(1, 0)))
    revealed = of(events, StateChanged)
    assert [(e.before, e.after) for e in revealed] == [("hidden", "ready")] * 3
    assert not engine.hidden(state, "blue-a")


SOUTH_WOODS = """
[[scenery]]
id = "copse"
kind = "area"
height = 0.5
polygon = [[22, 16], [30, 16], [30, 24], [22, 24]]
"""


def test_fall_back_goes_toward_cover_generally_away(write_scenario: Write) -> None:
    # seed 001: "they must pass a morale check or fall back toward cover"; "a tac-move
    # that takes the unit generally away from enemy units, primarily the one shooting".
    # Straight away (+x) stays in the open, and so does 25 degrees off it; 50 degrees off
    # it (headings are tried every 25 degrees, nearest straight away first) reaches the copse.
    engine = squads(write_scenario, SOUTH_WOODS)
    state = red_activating(engine)
    state, _ = run(
        engine, state, UnitAct("red-a", Action.fire("blue-a")), 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
    )
    # morale: no bangs; tac-move 4 dice, 2 bangs -> 7"; 1 damage now in light cover: the
    # defender rolls one conversion die (a 1: it stays a wound)
    state, events = run(engine, state, FallBackChoice("blue-a", False), 1, 1, 1, 1, 5, 6, 1, 1, 1)
    [fell] = of(events, FellBack)
    turn = math.radians(50)
    assert fell.vector == pytest.approx((7 * math.cos(turn), 7 * math.sin(turn)))
    assert fell.vector[0] > 0  # still away from the shooters
    [conv] = of(events, DamageConverted)
    assert conv.tier == "light"
    assert engine.cover(state, "red-a", "blue-a").level is OpenRebellionCover.LIGHT
