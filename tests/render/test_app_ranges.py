"""Range rings and panel summaries read each rule system's weapon columns."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest

from game.render.app import App
from game.render.overlays import draw_range_rings
from game.render.ranges import Ring, profile_summary, range_rings, weapon_summary
from game.render.session import Session
from game.render.style import RINGS
from game.scenario import Scenario, load_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import base, click, point_at, press


def demo(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}-demo.toml")


def test_infinity_rings_where_the_mod_changes() -> None:
    weapons = demo("infinity").weapons
    # Combi Rifle bands 8:+3 16:+3 24:-3 32:-3 40:-6 48:-6
    assert range_rings(weapons["Combi Rifle"]) == [
        Ring(16.0, '+3 to 16"'),
        Ring(32.0, '-3 to 32"'),
        Ring(48.0, '-6 to 48"'),
    ]
    assert [r.label for r in range_rings(weapons["Pistol"])] == [
        '+3 to 8"',
        '0 to 16"',
        '-3 to 24"',
    ]


def test_necromunda_short_and_long_with_grenades_from_strength() -> None:
    scenario = demo("necromunda")
    leader = scenario.profiles["leader"]
    assert range_rings(scenario.weapons["Autopistol"], leader) == [
        Ring(4.0, 'short to 4", +1'),
        Ring(12.0, 'long to 12"'),
    ]
    # Grenades: long range = S x 3 (FACTS, Necromunda grenades); the leader has S 3.
    krak = scenario.weapons["Krak grenade"]
    assert range_rings(krak, leader) == [Ring(9.0, 'long to 9", -1')]
    assert range_rings(krak) == []  # no fighter, no strength: no ring rather than a guess


def test_open_rebellion_a_ring_per_band() -> None:
    rings = range_rings(demo("open-rebellion").weapons["Rifle"])
    assert rings[:3] == [
        Ring(8.0, 'past 8": +1 defence die'),
        Ring(16.0, 'past 16": +2 defence dice'),
        Ring(24.0, 'past 24": +3 defence dice'),
    ]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*-demo.toml")), ids=lambda p: p.name)
def test_every_demo_weapon_and_profile_summarises(path: Path) -> None:
    scenario = load_scenario(path)
    for model in scenario.models:
        assert profile_summary(scenario.profiles[model.profile])
        for name in model.weapons:
            assert weapon_summary(scenario.weapons[name])


def test_infinity_profile_summary_shows_move_pair() -> None:
    text = profile_summary(demo("infinity").profiles["fusilier"])
    assert text.startswith("MOV 4-4  CC 13  BS 12")


def test_weapon_summaries_read_as_each_rule_system_lists_a_profile() -> None:
    """Necromunda's armoury columns (FACTS 2.2: Rng S | Rng L | Acc S | Acc L | Str | AP |
    D | Am | Traits); Infinity's bands with their MODs, DAM, B, AMMO and the save; Open
    Rebellion's ROF and range band (seed 001). No column names from the data files."""
    necromunda = demo("necromunda").weapons
    assert weapon_summary(necromunda["Autopistol"]) == (
        'Rng 4"/12", Acc +1/-, Str 3, D 1, Am 4+, Rapid Fire (1), Sidearm'
    )
    assert weapon_summary(necromunda["Krak grenade"]).startswith("Rng L S x3, Acc -/-1, Str 6")
    assert weapon_summary(demo("infinity").weapons["HMG"]) == (
        'to 8" -3, to 16" 0, to 32" +3, to 48" -3, to 96" -6; DAM 15; B 4; AMMO N; SAVE ARM'
    )
    assert weapon_summary(demo("open-rebellion").weapons["HMG"]) == (
        'ROF 1, range band 12", 3 support dice in position'
    )


def test_open_rebellion_rings_are_the_units_band_from_its_nearest_model() -> None:
    """tester13: a Rifle's ring said 'past 8": +1 defence die' where the fire rolled no
    range die. The engine counts a volley's range in the longest band among the firing
    models' weapons, from the nearest of them (seed 001: '+1 for each full range band
    between attacker and target units', the band of the attacker's weapon type; the
    reading is in README's readings chosen): the rings are the unit's, so a target
    beyond k rings is k bands away in the fire's own figures."""
    scenario = demo("open-rebellion")
    app = App(scenario, session=Session.start(scenario, seed=1), size=(1280, 800))
    app.frame()
    click(app, base(app, "reb-a1"))  # a rifleman of a squad with a SAW
    assert app.state.selected == "reb-a1"
    squad = ("reb-a1", "reb-a2", "reb-a3", "reb-a4")
    ringed_from = dict(app.state.rings_from)["reb-a1"]
    assert (ringed_from.weapon, ringed_from.bases) == ("SAW", squad)
    assert app.scenario.weapons["SAW"].band > app.scenario.weapons["Rifle"].band
    # the rings drawn alone on a blank table, read back from their pixels
    surface = pygame.Surface(app.state.size)
    labels = draw_range_rings(surface, app.scenario, app.state)
    view = app.state.view
    models = [app.scenario.model(m) for m in squad]
    limits = [r.limit for r in range_rings(app.scenario.weapons["SAW"])]

    def ringed(x: float, y: float) -> bool:
        px, py = view.to_screen(x, y)
        near = [(round(px) + dx, round(py) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        inside = surface.get_rect()
        return any(inside.collidepoint(p) and surface.get_at(p)[:3] == RINGS for p in near)

    # straight out from each model of the squad, the first ring is its band past the
    # nearest base, not the chosen Rifle's 8"
    width, depth = app.scenario.header.table
    seen = 0
    for m in models:
        for degrees in range(0, 360, 15):
            dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
            for limit in (limits[0], app.scenario.weapons["Rifle"].band):
                x, y = m.at[0] + dx * (m.radius + limit), m.at[1] + dy * (m.radius + limit)
                spot = view.to_screen(x, y)
                if not (0 < x < width and 0 < y < depth) or any(
                    box.inflate(4, 4).collidepoint(spot) for box in labels
                ):
                    continue  # off the table, or under a ring's label
                gap = min(math.dist((x, y), o.at) - o.radius for o in models)
                on_edge = abs(gap - limit) < 0.05
                assert ringed(x, y) == (on_edge and limit == limits[0]), (m.id, degrees, limit)
                seen += on_edge
    assert seen > 10
    # at each enemy unit, fired at by every model of the squad: the fire's range bands
    # (the figure its defender rolls) are the rings past the nearest of its models
    engine = app.session.rules.engine
    state = app.session.game.state
    for enemy in ("gov-squad-a", "gov-squad-b"):
        targets = [app.scenario.model(m) for m in engine.units[enemy]]
        gap = min(math.dist(t.at, m.at) - m.radius - t.radius for m in models for t in targets)
        bands = engine.range_bands(state, squad, enemy)
        assert bands == sum(gap >= limit for limit in limits), enemy


def test_open_rebellion_rings_at_a_target_are_the_band_of_the_models_that_see_it() -> None:
    """tester13b finding 1: the rings drew the SAW's 12" band while the SAW gunner (Reb
    a3, its sight line clipping the farmhouse's corner) did not see Gov squad b, so only
    the riflemen fired and the fire and the odds rolled 2 range dice in the Rifle's 8"
    band, where the rings promised 1. The band is the firing models' longest (README's
    readings chosen, seed 001's 'band of the attacker's weapon type'): with a target
    under the pointer the rings are the band of the models that see it, around them,
    and say so; with none, the unit's, saying they hold while the SAW's model sees."""
    scenario = demo("open-rebellion")
    app = App(scenario, session=Session.start(scenario, seed=5), size=(1280, 800))
    app.frame()
    click(app, base(app, "reb-a1"))
    press(app, pygame.K_e)
    click(app, base(app, "reb-a1"))
    assert app.state.selected == "reb-a1" and app.state.hover is None
    surface = pygame.Surface(app.state.size)
    assert draw_range_rings(surface, app.scenario, app.state)  # the unit's, labelled
    ringed_from = dict(app.state.rings_from)["reb-a1"]
    assert ringed_from.said == "SAW band, while Reb a3 sees the target"
    point_at(app, base(app, "gov-b1"))
    hover = app.state.hover
    assert hover is not None and hover.rings is not None
    engine = app.session.rules.engine
    state = app.session.game.state
    plan = engine.pools(state, "rebel-squad-a", "gov-squad-b")
    assert "reb-a3" not in plan.firing  # the SAW's sight line is blocked
    assert 'range 2 (Rifle band 8")' in " ".join(hover.odds)
    assert (hover.rings.weapon, hover.rings.bases) == ("Rifle", tuple(plan.firing))
    assert hover.rings.said == "Rifle band at Gov squad b: Reb a3 with the SAW sees none of it"
    # the rings drawn read back from their pixels: the first lies 8" past the nearest
    # firing model (not 12", the SAW's), and Gov squad b stands past two of them
    surface = pygame.Surface(app.state.size)
    labels = draw_range_rings(surface, app.scenario, app.state)
    view = app.state.view
    firing = [app.scenario.model(m) for m in plan.firing]

    def ringed(x: float, y: float) -> bool:
        px, py = view.to_screen(x, y)
        near = [(round(px) + dx, round(py) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        inside = surface.get_rect()
        return any(inside.collidepoint(p) and surface.get_at(p)[:3] == RINGS for p in near)

    rifle, saw = app.scenario.weapons["Rifle"].band, app.scenario.weapons["SAW"].band
    width, depth = app.scenario.header.table
    on_rifle = on_saw = 0
    for m in firing:
        for degrees in range(0, 360, 15):
            dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
            for limit in (rifle, saw):
                x, y = m.at[0] + dx * (m.radius + limit), m.at[1] + dy * (m.radius + limit)
                if not (0 < x < width and 0 < y < depth) or any(
                    box.inflate(4, 4).collidepoint(view.to_screen(x, y)) for box in labels
                ):
                    continue
                gap = min(math.dist((x, y), o.at) - o.radius for o in firing)
                if abs(gap - limit) < 0.05:  # on the edge of the firing models' circles
                    on_rifle += ringed(x, y) and limit == rifle
                    on_saw += ringed(x, y) and limit == saw
    assert on_rifle > 10 and on_saw == 0
    targets = [app.scenario.model(m) for m in engine.units["gov-squad-b"]]
    gap = min(math.dist(t.at, m.at) - m.radius - t.radius for m in firing for t in targets)
    assert plan.bands == math.floor(gap / rifle) == 2


def _union_edge(discs: list[tuple[tuple[float, float], float]]) -> list[tuple[float, float]]:
    """Points of the discs' edge taken together (as draw_union_edge draws it)."""
    out = []
    for k, ((cx, cy), r) in enumerate(discs):
        for step in range(720):
            a = 2 * math.pi * step / 720
            x, y = cx + r * math.cos(a), cy + r * math.sin(a)
            if all(math.dist((x, y), c) >= o for j, (c, o) in enumerate(discs) if j != k):
                out.append((x, y))
    return out


@pytest.mark.parametrize("size", [(800, 600), (1280, 800)])
def test_open_rebellion_ring_labels_sit_on_the_drawn_rings_clear_of_names(
    size: tuple[int, int],
) -> None:
    """session 13's leftover: on the Hill farm at 800x600 (seed 5, Reb a1 pointing at Gov
    b1) the 16" ring's label lay over Gov a4's and Gov b1's names and the 8" one over
    the 2" building's height, and at 1280x800 the 24" one floated off every ring drawn
    (the upper right of the selected model's circle, inside the others' circles, where
    no spot of that circle alone was free). A unit's ring is the edge of its models'
    circles: its label may sit on any of them, where that edge is drawn."""
    scenario = demo("open-rebellion")
    app = App(scenario, session=Session.start(scenario, seed=5), size=size)
    app.frame()
    click(app, base(app, "reb-a1"))
    press(app, pygame.K_e)
    click(app, base(app, "reb-a1"))
    point_at(app, base(app, "gov-b1"))
    hover = app.state.hover
    assert hover is not None and hover.rings is not None
    app.draw()
    labels = app.cache.ring_labels
    assert len(labels) >= 3
    names = [pygame.Rect(box) for box in app.cache.table.taken]
    for label in labels:
        assert label.collidelist(names) < 0, label
    view = app.state.view
    firing = [app.scenario.model(m) for m in hover.rings.bases]
    weapon = app.scenario.weapons[hover.rings.weapon]
    edges = [
        _union_edge([(view.to_screen(*m.at), (m.radius + ring.limit) * view.scale)
                     for m in firing])
        for ring in range_rings(weapon)
    ]  # fmt: skip
    table = pygame.Rect((0, 0), app.state.table_size)
    for label in labels:
        if not table.contains(label):
            continue  # beyond the table's side, the edge may run off the window
        assert any(label.collidepoint(p) for edge in edges for p in edge), label
