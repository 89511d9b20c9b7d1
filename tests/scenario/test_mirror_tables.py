"""The bundled tables made to measure the automatic players (`*-mirror.toml` and
`necromunda-screened.toml`, issue #17) are fair by construction: every piece of scenery
and every model has its image under a half-turn about the table's centre, the model's
image of the same profile, weapons and unit shape on the other side, facing the opposite
way."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.scenario import load_scenario
from game.scenario.load import Scenario
from tests.conftest import SCENARIOS

MIRRORS = sorted([*SCENARIOS.glob("*-mirror.toml"), SCENARIOS / "necromunda-screened.toml"])


def turned(scenario: Scenario, p: tuple[float, float]) -> tuple[float, float]:
    width, depth = scenario.header.table
    return (round(width - p[0], 6), round(depth - p[1], 6))


def test_there_is_a_mirror_table() -> None:
    assert MIRRORS, "no bundled *-mirror.toml"


@pytest.mark.parametrize("path", MIRRORS, ids=lambda p: p.stem)
def test_every_piece_has_its_image_under_a_half_turn(path: Path) -> None:
    scenario = load_scenario(path)
    pieces = {
        (p.kind, p.height, frozenset((round(x, 6), round(y, 6)) for x, y in p.footprint))
        for p in scenario.scenery
    }
    for p in scenario.scenery:
        image = frozenset(turned(scenario, q) for q in p.footprint)
        assert (p.kind, p.height, image) in pieces, p.id


@pytest.mark.parametrize("path", MIRRORS, ids=lambda p: p.stem)
def test_every_model_has_its_image_on_the_other_side(path: Path) -> None:
    scenario = load_scenario(path)
    first, second = (s.id for s in scenario.sides)
    other = {first: second, second: first}
    at = {(m.side, (round(m.at[0], 6), round(m.at[1], 6))): m for m in scenario.models}
    images: dict[str | None, set[str | None]] = {}
    for m in scenario.models:
        image = at.get((other[m.side], turned(scenario, m.at)))
        assert image is not None, m.id
        assert (image.profile, image.weapons) == (m.profile, m.weapons), m.id
        assert (image.facing - m.facing) % 360 == pytest.approx(180), m.id
        images.setdefault(m.unit, set()).add(image.unit)
    # a unit's image is one unit (a model alone, its image alone)
    assert all(len(i) == 1 for i in images.values()), images
    for side in (first, second):
        assert len([m for m in scenario.models if m.side == side]) * 2 == len(scenario.models)
