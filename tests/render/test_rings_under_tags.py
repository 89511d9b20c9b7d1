"""A weapon's range rings pass under the table's names and a model's tags ("done",
"aimed"): tester11 saw Escher juve's "done" crossed by a ring."""

from __future__ import annotations

import math

import pygame

from game.render.app import App
from game.render.frame import _rect
from game.render.ranges import range_rings
from game.render.session import Session
from game.scenario import load_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import base, click, point_at, press


def _crossed(box: pygame.Rect, centre: tuple[float, float], radius: float) -> bool:
    """Whether a circle passes through the box (some corner inside it, some outside)."""
    corners = [(box.left, box.top), (box.right, box.top), (box.left, box.bottom),
               (box.right, box.bottom)]  # fmt: skip
    inside = [math.dist(c, centre) < radius for c in corners]
    return any(inside) and not all(inside)


def test_range_rings_pass_under_names_and_tags() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    app = App(scenario, session=Session.start(scenario, seed=2), size=(1280, 800))
    app.frame()
    click(app, base(app, "orlock-ganger-1"))
    press(app, pygame.K_a)  # aims: its tag "aimed"
    click(app, base(app, "orlock-heavy"))
    surface = app.draw()
    layer = app.cache.table.layer(
        app.scenario, app.state.view, app.state.table_size, app.state.markers, 1.0
    )
    heavy = app.scenario.model("orlock-heavy")
    centre = app.state.view.to_screen(*heavy.at)
    weapon = app.scenario.weapons[heavy.weapons[0]]
    bands = range_rings(weapon, app.scenario.profiles.get(heavy.profile))
    rings = [(heavy.radius + ring.limit) * app.state.view.scale for ring in bands]
    crossed = 0
    for label in app.cache.table.labels:
        box = _rect(label.box)
        if not any(_crossed(box, centre, r) for r in rings):
            continue
        crossed += 1
        for x in range(box.left, box.right):
            for y in range(box.top, box.bottom):
                assert surface.get_at((x, y)) == layer.get_at((x, y)), label.text
    assert crossed >= 1


def test_the_hovered_rulings_label_keeps_off_the_rings_labels() -> None:
    """fix11c saw at 800x600 the ruling's label ("100% seen, squad in the open, 16.23\"")
    written over a range ring's ("past 24\": +3 defence dice"): the ruling's label is
    placed after the rings' and now keeps off them, as off the table's labels."""
    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    app = App(scenario, size=(800, 600))  # a table viewer: the rings and the hover
    checked = 0
    for shooter in ("reb-b1", "reb-a1", "reb-a3"):
        click(app, base(app, shooter))
        for target in ("gov-b2", "gov-a1", "gov-a3", "gov-hmg"):
            point_at(app, base(app, target))
            app.draw()
            said = app.cache.ruling_label
            if said is None or not app.cache.ring_labels:
                continue
            checked += 1
            assert not any(said.colliderect(ring) for ring in app.cache.ring_labels), target
    assert checked >= 6
