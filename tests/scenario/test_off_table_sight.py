"""A model off the table hides nothing in the line-of-fire ruling, as in the game (fix15c
item 1). `skirmish lof` and the window's ruling (panel, label, shooter's-eye view) read the
table with every model on it, so a Necromunda fighter Out of Action (FACTS 2.8: "Out of
Action: removed") or an Infinity trooper Dead (FACTS 3.3: "Removed from the table") still
hid a target and gave it cover, where the engine's own sight leaves them out
(`Placement.present`: Necromunda's OUT_OF_ACTION, Infinity's placements(("dead",))).

Each table here is bare: a shooter, its target 10" ahead, and a third model standing beside
the line near the target, hiding part of it. In a state the engine keeps on the table
(standing, Infinity's Unconscious) it hides that part in both; in a state that takes it
off the table it hides nothing in both: the ruling is the one of the table without it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.render.session import Session
from game.scenario import load_scenario
from game.scenario.ruling import LofRuling, rule
from game.scenario.scenario import Scenario
from game.scenario.tables import table_from_scenario
from game.sequencer.game import Game
from game.sequencer.sight import Sighting
from tests.conftest import REPO

# (scenario, shooter, target, the third model, a state that keeps it, one that takes it off)
CASES = [
    ("necromunda-demo", "escher-leader", "orlock-leader", "orlock-heavy", None, "out-of-action"),
    ("infinity-demo", "fusilier-1", "orc-1", "fusilier-2", "unconscious", "dead"),
]
# shooter, target and the third model: the third 2" short of the target, a little aside
AT = ((6.0, 4.0), (6.0, 14.0), (6.6, 12.0))


def _bare(name: str, shooter: str, target: str, third: str, state: str | None) -> Scenario:
    """The scenario with no scenery and only the three models, placed at AT, the shooter
    facing the target and the third in `state` (None: without it)."""
    scenario = load_scenario(REPO / "scenarios" / f"{name}.toml")
    models = {m.id: m for m in scenario.models}
    kept = [
        replace(models[shooter], at=AT[0], facing=90.0, state=None),
        replace(models[target], at=AT[1], facing=-90.0, state=None, side=_other(scenario, shooter)),
    ]
    if state != "gone":
        kept.append(replace(models[third], at=AT[2], facing=-90.0, state=state,
                            side=_other(scenario, shooter)))  # fmt: skip
    return replace(scenario, scenery=(), objectives=(), models=tuple(kept))


def _other(scenario: Scenario, shooter: str) -> str:
    side = scenario.model(shooter).side
    return next(s.id for s in scenario.sides if s.id != side)


def _ruling(scenario: Scenario, shooter: str, target: str) -> LofRuling:
    return rule(scenario, table_from_scenario(scenario), shooter, target)


def _engine(scenario: Scenario, shooter: str, target: str) -> Sighting:
    game: Game = Session.start(scenario, seed=1).game
    return game.engine.sighting(game.state, shooter, target)  # type: ignore[attr-defined]


def _said(r: LofRuling) -> tuple[object, ...]:
    return (r.lof, r.cover, r.reason, r.blockers, r.sight.hidden_by, r.visible_fraction)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_model_off_the_table_hides_nothing_in_the_ruling_as_in_the_game(
    case: tuple[str, str, str, str, str | None, str],
) -> None:
    name, shooter, target, third, stays, gone = case
    alone = _bare(name, shooter, target, third, "gone")
    kept = _bare(name, shooter, target, third, stays)
    off = _bare(name, shooter, target, third, gone)
    # on the table, the third model hides part of the target, in the ruling and the game
    assert third in _ruling(kept, shooter, target).sight.hidden_by
    assert _engine(kept, shooter, target) != _engine(alone, shooter, target)
    # off the table, it hides nothing in the game ...
    assert _engine(off, shooter, target) == _engine(alone, shooter, target)
    # ... nor in the ruling (it said the target was partly hidden by it, in cover)
    ruled = _ruling(off, shooter, target)
    assert third not in ruled.sight.hidden_by
    assert _said(ruled) == _said(_ruling(alone, shooter, target))
    # and a ruling from it or at it says there is no shot, and why
    assert _ruling(off, shooter, third).no_shot == f"{third} is {gone.replace('-', ' ')}"
