"""The interactive table, driven headless by posting pygame events (SDL dummy driver)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.cli import main
from game.errors import IllegalDeclaration
from game.render import frame, style
from game.render.app import App, Declare, Idle, Measuring, Panning
from game.render.ruling import NOT_LOADED, DistanceOnly, Ruling, edge_distance
from game.render.state import AppState
from game.scenario import Scenario, load_scenario
from game.scenario.names import table_names
from game.sequencer.sentences import named

Write = Callable[..., Path]
Point = tuple[float, float]

TABLE = """
[[scenery]]
id = "hab"
kind = "building"
height = 3
polygon = [[12, 10], [16, 10], [16, 14], [12, 14]]

[[model]]
id = "b1"
side = "blue"
profile = "fusilier"
at = [4, 20]
facing = -90

[[model]]
id = "b2"
side = "blue"
profile = "fusilier"
at = [10, 20]
facing = -90

[[model]]
id = "r1"
side = "red"
profile = "fusilier"
at = [4, 8]
facing = 90
"""


@pytest.fixture
def scenario(write_scenario: Write) -> Scenario:
    return load_scenario(write_scenario(TABLE))


def screen(app: App, model_id: str) -> tuple[int, int]:
    x, y = app.state.view.to_screen(*app.scenario.model(model_id).at)
    return round(x), round(y)


def post(*events: pygame.event.Event) -> None:
    for event in events:
        pygame.event.post(event)


def motion(pos: Point, buttons: tuple[int, int, int] = (0, 0, 0)) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons)


def down(pos: Point, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def up(pos: Point, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def click(app: App, pos: Point) -> None:
    post(motion(pos), down(pos), up(pos))
    app.frame()


def panel_text(app: App) -> str:
    """The panel's lines joined with spaces (long lines are wrapped at spaces)."""
    return " ".join(line.text for line in frame.panel_lines(app.scenario, app.state))


def pixel(surface: pygame.Surface, pos: Point) -> tuple[int, int, int]:
    r, g, b, _ = surface.get_at((round(pos[0]), round(pos[1])))
    return (r, g, b)


# ------------------------------------------------------------------ selection and hover


def test_click_on_a_base_selects_it(scenario: Scenario) -> None:
    app = App(scenario)
    assert app.state.selected is None
    click(app, screen(app, "b2"))
    assert app.state.selected == "b2"
    assert "B2  (Blue)" in panel_text(app) and "[b2]" not in panel_text(app)
    surface = app.draw()
    # The selection ring: white just outside the base's edge.
    x, y = screen(app, "b2")
    r = scenario.model("b2").radius * app.state.view.scale
    assert pixel(surface, (x + r + 2.5, y + 1)) == frame.SELECT


def test_click_on_open_table_or_panel_selects_nothing(scenario: Scenario) -> None:
    app = App(scenario)
    x, y = screen(app, "b1")
    click(app, (x + 40, y))  # open table
    click(app, (1280 - 100, y))  # the panel
    assert app.state.selected is None
    assert isinstance(app.handler, Idle)


def test_hover_enemy_shows_distance_only_ruling(scenario: Scenario) -> None:
    app = App(scenario, provider=DistanceOnly())
    click(app, screen(app, "b1"))
    post(motion(screen(app, "r1")))
    app.frame()
    hover = app.state.hover
    assert hover is not None and (hover.shooter, hover.target) == ("b1", "r1")
    expected = 12.0 - 2 * scenario.model("b1").radius
    assert hover.ruling.distance == pytest.approx(expected)
    text = panel_text(app)
    assert NOT_LOADED in text
    assert f'distance {expected:.2f}" edge to edge (centre line drawn)' in text
    # Pointing at a friend or at open table drops the ruling.
    post(motion(screen(app, "b2")))
    app.frame()
    assert app.state.hover is None


@dataclass(frozen=True, slots=True)
class FakeRuling:
    lof: bool
    witness: tuple[Point, Point] | None
    blockers: tuple[str, ...]
    visible_fraction: float
    cover: str
    reason: str
    distance: float


@dataclass
class FakeProvider:
    """A provider that rules line of fire (as the geometry engine will)."""

    name: str = "fake engine"
    engine_loaded: bool = True
    calls: list[tuple[str, str]] = field(default_factory=list)

    def rule(self, scenario: Scenario, shooter_id: str, target_id: str) -> FakeRuling:
        self.calls.append((shooter_id, target_id))
        return FakeRuling(
            True, ((4.0, 19.5), (4.0, 8.5)), ("hab",), 0.5, "partial", "clear past hab", 11.0
        )

    def describe(self, scenario: Scenario, ruling: Ruling) -> list[str]:
        return [f"LoF: yes, {ruling.visible_fraction:.0%} visible", f"cover: {ruling.cover}"]


def test_hover_asks_the_provider_once_per_pair_and_draws_its_ruling(scenario: Scenario) -> None:
    provider = FakeProvider()
    app = App(scenario, provider=provider)
    click(app, screen(app, "b1"))
    x, y = screen(app, "r1")
    post(motion((x, y)), motion((x + 1, y)), motion((x, y + 1)))
    app.frame()
    assert provider.calls == [("b1", "r1")]
    text = " ".join(line.text for line in frame.panel_lines(scenario, app.state, provider.name))
    assert "LoF: yes, 50% visible" in text and "cover: partial" in text
    assert "Line of fire  [fake engine]" in text
    surface = app.draw()
    view = app.state.view
    assert pixel(surface, view.to_screen(4.0, 14.0)) == frame.LOF_YES  # the witness line
    assert pixel(surface, view.to_screen(14.0, 10.0)) == frame.HIDES  # hides a part: orange
    # Another shooter is another question.
    click(app, screen(app, "b2"))
    post(motion((x, y)))
    app.frame()
    assert provider.calls == [("b1", "r1"), ("b2", "r1")]


BLOCKED = """
[[scenery]]
id = "tower"
kind = "building"
polygon = [[8, 12], [12, 12], [12, 15], [8, 15]]

[[model]]
id = "r2"
side = "red"
profile = "fusilier"
at = [10, 8]
facing = 90
"""


@pytest.mark.parametrize("pair", [("b1", "r1"), ("b2", "r2")], ids="-".join)
def test_hover_shows_what_skirmish_lof_gives(
    write_scenario: Write, capsys: pytest.CaptureFixture[str], pair: tuple[str, str]
) -> None:
    path = write_scenario(TABLE + BLOCKED, "lof.toml")
    shooter, target = pair
    assert main(["lof", str(path), "--from", shooter, "--to", target]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    app = App(load_scenario(path))  # the default provider: the line-of-fire engine
    assert app.provider.engine_loaded
    click(app, screen(app, shooter))
    post(motion(screen(app, target)))
    app.frame()
    hover = app.state.hover
    assert hover is not None
    # The panel's ruling is the command's, less its first line ("a -> b (ruleset)"),
    # which the panel shows as its own heading; both call the models by name.
    names = table_names(app.scenario)  # models and scenery, as both call them
    assert printed[0].startswith(f"{names[shooter]} -> {names[target]}")
    assert [named(line, names) for line in hover.lines] == printed[1:]
    text = panel_text(app)
    assert all(line in text for line in printed[1:])
    surface = app.draw()
    view = app.state.view
    if hover.ruling.lof:
        assert printed[1] == "line of fire: yes"
        assert hover.ruling.witness is not None
        (x0, y0), (x1, y1) = hover.ruling.witness
        mid = view.to_screen(x0 + (x1 - x0) * 0.4, y0 + (y1 - y0) * 0.4)
        assert frame.LOF_YES in [pixel(surface, (mid[0] + dx, mid[1])) for dx in (-1, 0, 1)]
    else:
        assert printed[1].startswith("line of fire: no")
        assert "tower" in hover.ruling.blockers
        assert pixel(surface, view.to_screen(8.0, 13.5)) == frame.LOF_NO  # tower outlined


def test_static_layer_is_not_redrawn_for_overlays(scenario: Scenario) -> None:
    app = App(scenario)
    app.draw()
    click(app, screen(app, "b1"))
    post(motion(screen(app, "r1")))
    app.frame()
    app.draw()
    assert app.cache.table.builds == 1
    post(motion(screen(app, "r1")), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
    app.frame()
    assert app.cache.table.builds == 2  # a new view is a new layer


# ------------------------------------------------------------------ view


def test_wheel_zoom_keeps_the_table_point_under_the_cursor(scenario: Scenario) -> None:
    app = App(scenario)
    cursor = (333.0, 411.0)
    before = app.state.view
    point = before.to_table(*cursor)
    post(motion(cursor), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2))
    app.frame()
    after = app.state.view
    assert after.scale == pytest.approx(before.scale * 1.15**2)
    assert after.to_table(*cursor) == pytest.approx(point)
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-5))
    app.frame()
    assert app.state.view.scale < before.scale
    assert app.state.view.to_table(*cursor) == pytest.approx(point)


def test_right_drag_pans(scenario: Scenario) -> None:
    app = App(scenario)
    click(app, screen(app, "b1"))
    before = app.state.view
    post(down((300, 300), 3), motion((320, 290), (0, 0, 1)))
    app.frame()
    assert isinstance(app.handler, Panning)
    post(motion((350, 280), (0, 0, 1)), up((350, 280), 3))
    app.frame()
    assert isinstance(app.handler, Idle)
    view = app.state.view
    assert (view.left - before.left, view.top - before.top) == pytest.approx((50, -20))
    assert view.scale == before.scale
    assert app.state.selected == "b1"  # panning does not change the selection


# ------------------------------------------------------------------ ruler


def test_ruler_measures_edge_to_edge_between_bases(scenario: Scenario) -> None:
    app = App(scenario)
    start = screen(app, "b1")
    end = screen(app, "r1")
    post(motion(start), down(start), motion((start[0], start[1] - 30), (1, 0, 0)))
    app.frame()
    assert isinstance(app.handler, Measuring)
    post(motion(end, (1, 0, 0)), up(end))
    app.frame()
    ruler = app.state.ruler
    assert ruler is not None and ruler.target == "r1"
    b1, r1 = scenario.model("b1"), scenario.model("r1")
    assert ruler.distance == pytest.approx(12.0 - b1.radius - r1.radius)
    assert ruler.distance == pytest.approx(edge_distance(b1, r1))
    assert math.dist(ruler.start, b1.at) == pytest.approx(b1.radius)
    assert math.dist(ruler.end, r1.at) == pytest.approx(r1.radius)
    assert app.state.selected is None  # a drag measures; it does not select
    assert f'{ruler.distance:.2f}" edge to edge from B1 to R1' in panel_text(app)


def test_ruler_to_a_point_on_the_table(scenario: Scenario) -> None:
    app = App(scenario)
    start = screen(app, "b2")
    view = app.state.view
    target = view.to_screen(10.0, 15.0)
    post(down(start), motion(target, (1, 0, 0)), up(target))
    app.frame()
    ruler = app.state.ruler
    assert ruler is not None and ruler.target is None
    assert ruler.distance == pytest.approx(5.0 - scenario.model("b2").radius, abs=0.05)
    surface = app.draw()
    x, y = view.to_screen(10.0, 18.6)  # below the distance label at the middle
    assert frame.RULER in [pixel(surface, (x + dx, y)) for dx in (-1, 0, 1)]
    post(key(pygame.K_ESCAPE))
    app.frame()
    assert app.state.ruler is None


# ------------------------------------------------------------------ keys


def test_weapons_cycle_with_tab_and_number_keys(scenario: Scenario) -> None:
    app = App(scenario)
    post(key(pygame.K_TAB))
    app.frame()
    assert app.state.message == "select a model first"
    click(app, screen(app, "b1"))
    weapons = scenario.model("b1").weapons
    assert len(weapons) == 2
    post(key(pygame.K_TAB))
    app.frame()
    assert app.state.weapon == 1
    assert f">2 {weapons[1]}" in panel_text(app)
    post(key(pygame.K_TAB))
    app.frame()
    assert app.state.weapon == 0
    post(key(pygame.K_TAB, pygame.KMOD_SHIFT))
    app.frame()
    assert app.state.weapon == 1
    post(key(pygame.K_1))
    app.frame()
    assert app.state.weapon == 0
    post(key(pygame.K_9))
    app.frame()
    assert app.state.weapon == 0 and app.state.message == "no weapon 9 (it has 2)"


def test_range_rings_are_drawn_for_the_chosen_weapon(scenario: Scenario) -> None:
    app = App(scenario)
    click(app, screen(app, "b2"))
    model = scenario.model("b2")
    view = app.state.view

    def ring_at(limit: float) -> bool:
        """A ring pixel where a ring `limit` inches from the base edge crosses y = base."""
        x, y = view.to_screen(model.at[0] + model.radius + limit, model.at[1])
        return frame.RINGS in [pixel(surface, (x + dx, y + 3)) for dx in (-1, 0, 1)]

    # Combi Rifle: +3 to 16" is the first ring; none at 8".
    surface = app.draw()
    assert ring_at(16.0) and not ring_at(8.0)
    post(key(pygame.K_2))  # the Pistol: +3 to 8", 0 to 16"
    app.frame()
    surface = app.draw()
    assert ring_at(8.0) and ring_at(16.0)


def test_escape_deselects_and_q_quits(scenario: Scenario) -> None:
    app = App(scenario)
    click(app, screen(app, "b1"))
    post(key(pygame.K_ESCAPE))
    app.frame()
    assert app.state.selected is None
    post(key(pygame.K_q))
    app.run(frames=50)
    assert not app.state.running
    assert app.frames < 50
    app2 = App(scenario)
    post(pygame.event.Event(pygame.QUIT))
    app2.run(frames=50)
    assert not app2.state.running


def test_f12_saves_a_timestamped_png_in_the_current_directory(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = App(scenario, size=(800, 600))
    post(key(pygame.K_F12), key(pygame.K_F12))
    app.frame()
    shots = sorted(tmp_path.glob("skirmish-*.png"))
    assert len(shots) == 2
    assert pygame.image.load(str(shots[0])).get_size() == (800, 600)
    assert app.state.message in {f"saved {shot.name}" for shot in shots}
    assert not list(tmp_path.glob(".*tmp*"))


def test_resize_keeps_the_panel_at_the_right(scenario: Scenario) -> None:
    app = App(scenario)
    post(pygame.event.Event(pygame.VIDEORESIZE, w=900, h=700, size=(900, 700)))
    app.frame()
    assert app.state.size == (900, 700)
    surface = app.draw()
    assert surface.get_size() == (900, 700)
    assert pixel(surface, (900 - 5, 350)) == frame.PANEL_BG


@dataclass(frozen=True, slots=True)
class FakeModel:
    id: str
    side: str
    at: Point
    facing: float
    status: str = "normal"


@dataclass(frozen=True, slots=True)
class FakeNow:
    turn: int
    active: str
    models: tuple[FakeModel, ...]


@dataclass(frozen=True, slots=True)
class FakeMoved:
    model: str
    to: Point


@dataclass
class FakeGame:
    """A game that takes "move ID X Y" and refuses anything else with a reason."""

    state: FakeNow

    def declare(self, declaration: Any) -> list[object]:
        words = str(declaration).split()
        if words[0] != "move":
            raise IllegalDeclaration(f"cannot {words[0]} now")
        to = (float(words[2]), float(words[3]))
        models = tuple(
            replace(m, at=to, status="prone") if m.id == words[1] else m for m in self.state.models
        )
        self.state = FakeNow(self.state.turn + 1, "red", models)
        return [FakeMoved(words[1], to)]

    def refusal(self, declaration: Any) -> str:
        word = str(declaration).split()[0]
        return "" if word == "move" else f"cannot {word} now"


def test_declarations_go_to_the_game_and_the_table_follows_it(scenario: Scenario) -> None:
    app = App(scenario)
    app.perform(Declare("move b1 4 18"))
    assert app.state.message == "no game attached: declarations are not taken yet"
    game = FakeGame(
        FakeNow(1, "blue", tuple(FakeModel(m.id, m.side, m.at, m.facing) for m in scenario.models))
    )
    app = App(scenario, game=game)
    app.draw()
    app.perform(Declare("shoot b1 r1"))
    assert app.state.message == "cannot shoot now"  # the rules' reason, shown
    assert app.scenario.model("b1").at == (4.0, 20.0)
    app.perform(Declare("move b1 6 18"))
    assert app.scenario.model("b1").at == (6.0, 18.0)
    assert app.scenario.model("b1").state == "prone"
    assert (app.state.turn, app.state.active_side) == (2, "red")
    assert [line.text for line in app.state.log] == ["FakeMoved: model=b1, to=(6.0, 18.0)"]
    text = panel_text(app)
    assert "Turn 2 of 3" in text and "FakeMoved: model=b1" in text
    app.draw()
    assert app.cache.table.builds == 2  # the moved base is drawn where it now stands


def test_the_sequencer_game_fits_the_table(scenario: Scenario) -> None:
    from game.sequencer.game import Game

    game = Game(scenario, 7)
    app = App(scenario, game=game)
    assert (app.state.turn, app.state.active_side) == (game.state.turn, game.state.active)


def test_state_is_frozen(scenario: Scenario) -> None:
    app = App(scenario)
    with pytest.raises(AttributeError):
        app.state.selected = "b1"  # type: ignore[misc]
    assert isinstance(app.state, AppState)


def test_distance_only_provider_is_labelled(scenario: Scenario) -> None:
    provider = DistanceOnly()
    ruling = provider.rule(scenario, "b1", "r1")
    assert ruling.reason == NOT_LOADED and not provider.engine_loaded
    assert ruling.witness == (scenario.model("b1").at, scenario.model("r1").at)
    assert style.MARGIN > 0  # the table area keeps room for grid labels
