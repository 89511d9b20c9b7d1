"""Open Rebellion's fall back shown before the defender answers (fix15b): where each model
of the unit would end by each length its tac-move's skill test may give (FACTS 1.3, 1.4:
"a tac-move generally away from enemy units"), as the engine places it, and D then takes
it to the end its bangs pick."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.render.app import App
from game.render.help import help_sections
from game.render.open_rebellion_play import OpenRebellionRules
from game.render.overlays import ahead_turns
from game.render.ranges import range_rings
from game.render.session import Session
from game.render.style import DRAFT, INK
from game.render.table import base_circles, table_bounds
from game.scenario import load_scenario
from game.sequencer.open_rebellion_types import BangTest
from tests.render.driving import at, base, click, panel, press
from tests.render.test_app_open_rebellion import GAME, scenario_text

Write = Callable[..., Path]

# woods up the table from both squads: a fall back turns toward them where it reaches
WOODS = GAME.replace(
    "polygon = [[18, 16], [23, 16], [23, 23], [18, 23]]",
    "polygon = [[1, 1], [5, 1], [5, 5], [1, 5]]",
) + (
    '\n[[scenery]]\nid = "copse"\nkind = "area"\nheight = 0.5\n'
    "polygon = [[19, 1], [23, 1], [23, 5], [19, 5]]\n"
)
UNITS = {
    "red-a": ("red", [(7.0, 9.0), (7.0, 11.0)]),
    "blue-a": ("blue", [(17.0, 9.0), (17.0, 11.0)]),
}


def _fired_on(
    write_scenario: Write,
    seed: int,
    size: tuple[int, int],
    units: dict[str, tuple[str, list[tuple[float, float]]]] = UNITS,
) -> tuple[App, str]:
    """The side that wins the initiative fires at the other's squad; the squad hit (in the
    open) is asked to answer: D falls back, I takes the morale check."""
    path = write_scenario(scenario_text(WOODS, units), header=False)
    scenario = load_scenario(path)
    app = App(scenario, session=Session.start(scenario, seed=seed), size=size)
    assert app.session is not None
    game = app.session.game
    click(app, base(app, "red-a-1"))
    press(app, pygame.K_e)
    click(app, base(app, "blue-a-2"))
    press(app, pygame.K_e)
    mine, theirs = ("red-a", "blue-a") if game.awaiting().side == "red" else ("blue-a", "red-a")
    click(app, base(app, f"{mine}-1"))
    press(app, pygame.K_s)
    click(app, base(app, f"{theirs}-2"))
    press(app, pygame.K_RETURN)
    assert game.awaiting().kind == "fall-back"
    return app, theirs


@pytest.mark.parametrize(("seed", "size"), [(1, (1280, 800)), (2, (800, 600)), (4, (1280, 800))])
def test_open_rebellion_fall_back_shows_where_each_model_ends_before_d(
    write_scenario: Write, seed: int, size: tuple[int, int]
) -> None:
    app, unit = _fired_on(write_scenario, seed, size)
    assert app.session is not None
    game = app.session.game
    rules = app.session.rules
    assert isinstance(rules, OpenRebellionRules) and app.state.prompt is not None
    engine = rules.engine
    dice = engine.skill_dice(game.state, unit)
    ahead = {a.model: a for a in app.state.ahead}
    assert set(ahead) == {f"{unit}-1", f"{unit}-2"}
    # FACTS 1.3: no bangs 3", else 5" and a bang each: every length the dice may give
    assert all(len(a.ends) == dice + 1 for a in ahead.values())
    reach = f'falls back 3" to {5 + dice}" (shown)'
    assert reach in app.state.prompt.text and reach in panel(app)
    # drawn as a move laid out is: the path to the farthest end in the draft's colour
    surface = app.draw()
    for a in ahead.values():
        (sx, sy), (ex, ey) = at(app, a.start), at(app, a.ends[-1])
        # (its words may sit over a stretch of it: most of it shows)
        along = [(sx + (ex - sx) * t // 10, sy + (ey - sy) * t // 10) for t in range(1, 10)]
        assert sum(tuple(surface.get_at(p))[:3] == DRAFT for p in along) >= 6
    press(app, pygame.K_d)
    [test] = [e for e in game.events if isinstance(e, BangTest) and e.purpose == "fall back"]
    for model, a in ahead.items():
        # where D took each model is the end shown for the bangs it rolled
        assert math.dist(game.state.model(model).at, a.ends[test.bangs]) < 1e-6
    assert app.state.ahead == ()  # answered: nothing more is shown


@pytest.mark.parametrize(("seed", "size"), [(1, (1280, 800)), (2, (800, 600))])
def test_open_rebellion_fall_back_selects_the_squad_asked_not_the_shooter(
    write_scenario: Write, seed: int, size: tuple[int, int]
) -> None:
    """fix15c item 3: the prompt says "select it" (the squad the fire damaged, FACTS 1.4),
    yet the shooter stayed selected, its range rings and its line of fire at the squad
    drawn over the fall back shown. The squad asked is selected as the prompt appears: no
    shooter's rings, no ruling from it; D falls back as before."""
    app, unit = _fired_on(write_scenario, seed, size)
    assert app.session is not None
    shooter = "red-a" if unit == "blue-a" else "blue-a"
    assert app.state.ahead and app.state.prompt is not None
    assert app.state.selected in app.state.prompt.models  # was f"{shooter}-1"
    assert str(app.state.selected).startswith(f"{unit}-")
    assert app.state.hover is None or app.state.hover.shooter != f"{shooter}-1"
    app.draw()
    # the panel's line of fire no longer reads the shooter's at the squad ("Blue a 1 ->
    # Red a 2"): it asks for an enemy to point at
    assert " -> " not in panel(app) and "point at an enemy" in panel(app)
    press(app, pygame.K_d)
    assert app.session.game.awaiting().kind != "fall-back"


# each squad with its back to the table's edge (24" wide; a rifleman's base
# 20 mm across, its middle 0.4" from the edge: no room to go away from the fire)
AT_THE_EDGE = {
    "red-a": ("red", [(0.4, 11.0), (0.4, 13.0)]),
    "blue-a": ("blue", [(23.6, 11.0), (23.6, 13.0)]),
}
# a little room: the longer lengths are cut short by the edge
NEAR_THE_EDGE = {
    "red-a": ("red", [(4.0, 11.0), (4.0, 13.0)]),
    "blue-a": ("blue", [(20.0, 11.0), (20.0, 13.0)]),
}


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_open_rebellion_fall_back_blocked_by_the_edge_says_it_cannot_move(
    write_scenario: Write, size: tuple[int, int]
) -> None:
    """FACTS 1.4 (a fall back is a tac-move): where the engine's fall_back_plan moves the
    squad nowhere, the prompt and the table say so, not "3" to 9"" (tester15 item 1)."""
    app, _ = _fired_on(write_scenario, 1, size, AT_THE_EDGE)
    assert app.state.prompt is not None
    text = app.state.prompt.text
    assert "but cannot move (blocked by the table's edge)" in text and '3" to' not in text
    [said] = [a.said for a in app.state.ahead if a.said]
    assert said.endswith("cannot move, blocked by the table's edge")
    assert all(not a.ends for a in app.state.ahead)  # no path to draw
    app.draw()
    press(app, pygame.K_d)
    assert app.session is not None
    assert "cannot move from where it stands, blocked by the table's edge" in "\n".join(
        line.text for line in app.state.log
    )


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_open_rebellion_fall_back_cut_short_by_the_edge_says_how_far(
    write_scenario: Write, size: tuple[int, int]
) -> None:
    """FACTS 1.3, 1.4: the lengths the edge cuts short are said cut short, and the span is
    how far the engine would really move the squad (tester15 item 1: "7"" and "9"" were
    shown at the edge, 5.8" away)."""
    app, _ = _fired_on(write_scenario, 1, size, NEAR_THE_EDGE)
    assert app.session is not None and app.state.prompt is not None
    rules = app.session.rules
    assert isinstance(rules, OpenRebellionRules)
    engine, state = rules.engine, app.session.game.state
    target = state.pending.target
    lengths = engine.tac_lengths(state, target)
    far = []
    for n in lengths:
        plan = engine.fall_back_plan(state, target, state.pending.attacker, n)
        far.append(math.hypot(*plan.moved))
    cut = [(n, f) for n, f in zip(lengths, far, strict=True) if f < n - 0.05]
    assert cut  # the edge stops some (here 6" and 7" at 3.6"; 8" and 9" turn north)
    span = f'{round(min(far), 1):g}" to {round(max(far), 1):g}"'
    assert f"falls back {span} (shown;" in app.state.prompt.text
    assert "cut short by the table's edge)" in app.state.prompt.text
    [said] = [a for a in app.state.ahead if a.said]
    assert said.said.startswith(f"D falls back {span}, by its bangs (")
    # an end the edge cuts short says how far it really goes
    for n, f in cut:
        assert any(f'{n:g}"' in w and w.endswith(f': {round(f, 1):g}"') for w in said.ends_said)


def test_open_rebellion_fall_back_names_d_as_the_log_does_and_asks_to_select_only_unselected(
    write_scenario: Write,
) -> None:
    """FACTS 1.4: "Fall back (a tac-move) follows a failed or voluntarily failed morale
    check if the defender is in the open": the banner, the foot line and the log call D
    the same, "fails the morale check on purpose" (tester15 item 5); "select it" only
    while none of the squad is selected."""
    app, unit = _fired_on(write_scenario, 1, (1280, 800))
    prompt = app.state.prompt
    assert prompt is not None
    assert prompt.choices == ("D fails the morale check on purpose", "I takes the morale check")
    assert 'D fails the morale check on purpose and falls back 3" to' in prompt.text
    assert any("D fails the morale check on purpose" in k for k in app.state.keys_help)
    assert "D falls back ·" not in " ".join(app.state.keys_help)
    app.state = replace(app.state, selected=None)
    app.draw()
    assert "damage in the open: select it, D fails" in panel(app)
    click(app, base(app, f"{unit}-1"))
    assert app.state.selected == f"{unit}-1"
    app.draw()
    assert "select it" not in panel(app)
    assert "damage in the open: D fails the morale check on purpose" in panel(app)
    press(app, pygame.K_d)
    log = "\n".join(line.text for line in app.state.log)
    assert "fails the morale check on purpose" in log


def test_open_rebellion_fall_back_f1_says_what_the_table_shows(write_scenario: Write) -> None:
    """F1 while a fall back is awaited says what the paths, dots and lengths on the table
    are, and why a length may turn toward cover (tester15 item 7)."""
    app, _ = _fired_on(write_scenario, 1, (800, 600))
    [keys] = [k for title, k in help_sections(app.state) if title.startswith("Reacting")]
    said = " ".join(keys)
    assert "where each model would end by each length" in said
    assert "a solid path from each base to its farthest end, a dot at each nearer end" in said
    assert "straight away from the fire" in said and "toward cover" in said
    press(app, pygame.K_F1)
    assert app.state.help
    app.draw()


SAVES = Path(__file__).parent / "saves"


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
@pytest.mark.parametrize(("save", "select"), [("first", "reb-b2"), ("at-edge", None)])
def test_open_rebellion_fall_back_labels_overprint_nothing(
    save: str, select: str | None, size: tuple[int, int]
) -> None:
    """tester15 item 2 (README: no label overprints another, a state marker never gives
    way): in the bundled demo's two fall-back prompts the tester saved (the squad 5.6"
    from the table's edge, its shooter's rings drawn; then the squad at the edge, its
    "5 wound markers" beside it) the preview's labels cover no table label, state,
    ring label or base, and none is in the ruler's margin."""
    session = Session.load(SAVES / f"open-rebellion-fall-back-{save}.json")
    app = App(session.scenario, session=session, size=size)
    app.draw()
    if select is not None:
        click(app, base(app, select))
    app.draw()
    assert app.state.ahead
    said = [a.said for a in app.state.ahead if a.said]
    ahead = [r for r in app.cache.draft_labels]
    assert len(ahead) >= len(said)
    kept = [pygame.Rect(b) for b in app.cache.table.taken] + list(app.cache.ring_labels)
    view = app.state.view
    # (the table's box in whole pixels, a pixel of rounding each side allowed)
    within = pygame.Rect(table_bounds(session.scenario, view, app.state.table_size)).inflate(4, 4)
    circles = base_circles(session.scenario, view)
    for k, box in enumerate(ahead):
        assert within.contains(box), (box, within)
        assert box.collidelist(kept) == -1, (box, kept[box.collidelist(kept)])
        assert box.collidelist(ahead[k + 1 :]) == -1
        for x, y, r in circles:  # clear of every base
            nx, ny = min(max(x, box.left), box.right), min(max(y, box.top), box.bottom)
            assert (nx - x) ** 2 + (ny - y) ** 2 >= r * r - 1


def _from_segment(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
    """How far `p` lies from the segment from `a` to `b`."""
    (ax, ay), (bx, by) = a, b
    t = ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / max(math.dist(a, b) ** 2, 1e-9)
    t = max(0.0, min(1.0, t))
    return math.dist((ax + t * (bx - ax), ay + t * (by - ay)), p)


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_open_rebellion_fall_back_ends_read_as_each_models_own(size: tuple[int, int]) -> None:
    """tester15 item 6: the squad in a row, its 6" ends turning east along the row, had
    four dashed lines under Reb b2 to b4 and their names. Each end now carries its
    model's number, and a turn is drawn once, from the model whose line crosses no other
    base of the squad."""
    session = Session.load(SAVES / "open-rebellion-fall-back-first.json")
    app = App(session.scenario, session=session, size=size)
    surface = app.draw()
    view = app.state.view
    going = [a for a in app.state.ahead if a.ends]
    assert len(going) == 4
    radii = {a.model: session.scenario.model(a.model).radius * view.scale for a in going}
    turns = ahead_turns(app.state.ahead, view, radii)
    # the 6" ends turn east and the 8" south-east, toward the woods: each drawn once
    assert len(turns) == 2
    for start, end in turns:
        crossed = [
            a.model
            for a in going
            if math.dist(start, view.to_screen(*a.start)) > radii[a.model] + 1
            and _from_segment(start, end, view.to_screen(*a.start)) < radii[a.model]
        ]
        assert crossed == [], crossed
    # every end: a draft-coloured dot with its model's number in ink
    for a in going:
        for end in a.ends:
            x, y = (round(v) for v in view.to_screen(*end))
            dot = [tuple(surface.get_at((x + dx, y + dy)))[:3] for dx in range(-3, 4)
                   for dy in range(-4, 5)]  # fmt: skip
            assert DRAFT in dot and INK in dot


def test_open_rebellion_fall_back_plans_once_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prompt is asked each frame (App.tick: ai_due); the fall back's plans, 9 ms for
    the tester's squad of 4 with 5 lengths, are found once for a state."""
    session = Session.load(SAVES / "open-rebellion-fall-back-first.json")
    rules = session.rules
    assert isinstance(rules, OpenRebellionRules)
    engine = rules.engine
    plan = engine.fall_back_plan
    asked: list[float] = []

    def counted(*args: object) -> object:
        asked.append(float(str(args[-1])))
        return plan(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "fall_back_plan", counted)
    for _ in range(3):
        session.prompt()
        rules.ahead(session.game)
    state = session.game.state
    assert asked == list(engine.tac_lengths(state, state.pending.target))


def _box_gap(box: pygame.Rect, point: tuple[float, float]) -> float:
    """Pixels from `point` to the nearest point of `box` (0 inside it)."""
    nx = min(max(point[0], box.left), box.right)
    ny = min(max(point[1], box.top), box.bottom)
    return math.dist((nx, ny), point)


@pytest.mark.parametrize(("seed", "size"), [(2, (800, 600)), (2, (1280, 800))])
def test_open_rebellion_fall_back_words_beside_the_squad_and_ring_labels_off_the_ruler(
    write_scenario: Write, seed: int, size: tuple[int, int]
) -> None:
    """fix16a item 4: at 800x600 the fall back's words ("D falls back 3" to 9", by its
    bangs") sat by its farthest end, up by the banner, far from the squad, and the 16"
    ring's label ("past 16": +2 defence dice") lay over the ruler's inches. The words now
    sit beside the model they are said on, the ring labels on their rings on the table,
    and no two of them overlap."""
    app, _ = _fired_on(write_scenario, seed, size)
    app.draw()
    [go] = [a for a in app.state.ahead if a.said]
    view = app.state.view
    home = view.to_screen(*go.start)
    radius = app.scenario.model(go.model).radius * view.scale
    said = max(app.cache.draft_labels, key=lambda box: box.width)  # the words, not a length
    assert _box_gap(said, home) <= radius + 24, (said, home)  # beside its base
    rings = list(app.cache.ring_labels)
    assert rings  # the selected squad's rings are drawn, labelled
    within = pygame.Rect(table_bounds(app.scenario, view, app.state.table_size)).inflate(4, 4)
    selected = app.scenario.model(str(app.state.selected))
    centre = view.to_screen(*selected.at)
    circles = [
        (selected.radius + ring.limit) * view.scale
        for ring in range_rings(app.scenario.weapons[selected.weapons[0]])
    ]
    for label in rings:
        assert within.contains(label), (label, within)  # not over the ruler's margin
        # across one of its rings: the ring passes between its corners' distances
        near = min(_box_gap(label, centre), math.dist(label.center, centre))
        far = max(math.dist(c, centre) for c in (label.topleft, label.topright,
                                                 label.bottomleft, label.bottomright))  # fmt: skip
        assert any(near <= r <= far for r in circles), (label, circles)
    boxes = [said, *rings]
    for k, box in enumerate(boxes):
        assert box.collidelist(boxes[k + 1 :]) == -1, (box, boxes)


def test_open_rebellion_fall_back_resized_to_800x600_words_by_the_squad_rings_over_no_name() -> (
    None
):
    """tester16 finding 4 (e8.png): the demo, seed 1, Reb squad a in the open fired on in
    turn 2, the window resized from 1280x800 to 800x600. The words sat 150 px up, by
    "Gov squad a: in position", and 'past 36": +3 defence dice' lay over "Gov HMG" and
    off the table. A resized window lays out as one opened at its size (README: no label
    overprints another); the words within 80 px of the squad, each ring label on the
    table clear of every table label."""
    path = SAVES / "open-rebellion-fall-back-resized.json"
    opened_session = Session.load(path)
    opened = App(opened_session.scenario, session=opened_session, size=(800, 600))
    opened.draw()
    session = Session.load(path)
    app = App(session.scenario, session=session, size=(1280, 800))
    app.draw()
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600, size=(800, 600)))
    app.draw()
    assert app.state.size == (800, 600) and app.state.selected == "reb-a1"
    assert app.cache.draft_labels == opened.cache.draft_labels
    assert list(app.cache.ring_labels) == list(opened.cache.ring_labels)
    [go] = [a for a in app.state.ahead if a.said]
    view = app.state.view
    home = view.to_screen(*go.start)
    said = max(app.cache.draft_labels, key=lambda box: box.width)
    assert _box_gap(said, home) <= 80, (said, home)  # was 150 px off
    within = pygame.Rect(table_bounds(app.scenario, view, app.state.table_size)).inflate(4, 4)
    names = [pygame.Rect(b) for b in app.cache.table.taken]
    for label in app.cache.ring_labels:
        assert within.contains(label), (label, within)
        assert label.collidelist(names) == -1, (label, names[label.collidelist(names)])
