"""The draft's labels on the table ('4.4" left' by a move's end, "x1" by a target) go
through the label placer (game.render.labels): they overprint none of the table's
labels (names, state markers, scenery heights), and the ruling's label keeps off them
(tester12 item 11: "x1" over "Blue a: done", '5.0" left' over a wall's '0.5"'). And the
Selected heading says an Open Rebellion model's state as its unit's label does
("done", not "ready": tester12 item 12)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render.app import App
from game.render.labels import overlaps
from game.sequencer.open_rebellion_types import ACTIVATED, IN_POSITION
from tests.render.driving import at, base, click, panel, press
from tests.render.test_app_open_rebellion import Point
from tests.render.test_open_rebellion_activates_first import red_to_activate

Write = Callable[..., Path]

# blue-a in a column: its middle model carries the unit's "done", up and right of the
# model clicked as the target, where the "x1" tag went
UNITS: dict[str, tuple[str, list[Point]]] = {
    "red-a": ("red", [(4, 4), (4, 16), (4, 18)]),
    "red-b": ("red", [(4, 22), (6, 22)]),
    "blue-a": ("blue", [(14, 4), (14, 5.2), (14, 6.4)]),
    "blue-b": ("blue", [(20, 20), (20, 22)]),
}


def blue_a_done(write_scenario: Write) -> App:
    """Red to activate, Blue a done this turn (its flag set, as its activation leaves it)."""
    app, game = red_to_activate(write_scenario, UNITS)
    for m in game.state.models:
        if m.id.startswith("blue-a"):
            game.state = game.state.with_model(m.replace(flags=m.flags | {ACTIVATED}))
    app.follow_game([])
    return app


def boxes(app: App) -> list[tuple[float, float, float, float]]:
    return [(float(r.x), float(r.y), float(r.w), float(r.h)) for r in app.cache.draft_labels]


def test_the_dice_tag_of_a_shot_overprints_no_label(write_scenario: Write) -> None:
    app = blue_a_done(write_scenario)
    app.draw()
    done = next(label for label in app.cache.table.labels if label.text == "Blue a: done")
    click(app, base(app, "red-a-2"))
    press(app, pygame.K_s)
    click(app, base(app, "blue-a-2"))
    assert "Red a fires at Blue a: Enter" in panel(app)
    app.draw()
    [tag] = boxes(app)
    # where the tag was drawn before, up and right of the target, it covered "done"
    x, y = base(app, "blue-a-2")
    left, top, width, tall = done.box
    assert left < x + 18 < left + width and top < y - 18 + tall and y - 18 < top + tall
    assert not any(overlaps(tag, label.box) for label in app.cache.table.labels)
    ruling = app.cache.ruling_label
    assert ruling is not None
    assert not overlaps(tag, (ruling.x, ruling.y, ruling.w, ruling.h))


def test_the_move_drafts_inches_left_overprint_no_height(write_scenario: Write) -> None:
    app = blue_a_done(write_scenario)
    app.draw()
    height = next(label for label in app.cache.table.labels if label.want.kind == "scenery")
    cx, cy = height.centre
    click(app, base(app, "red-a-1"))
    press(app, pygame.K_m)
    # the move's end 20 pixels below the wall's height: where its label went, over it
    end = app.state.view.to_table(cx, cy + 20)
    click(app, at(app, end))
    assert app.state.draft is not None and app.state.draft.points
    assert '" left' in panel(app)
    app.draw()
    [left] = boxes(app)
    assert not any(overlaps(left, label.box) for label in app.cache.table.labels)


def test_a_units_flags_are_said_in_one_label_with_its_name(write_scenario: Write) -> None:
    """tester12 item 11: "done" floated apart from its "Gov squad a: in position"."""
    app = blue_a_done(write_scenario)
    assert app.session is not None
    game = app.session.game
    for m in game.state.models:
        if m.id.startswith("blue-a"):
            game.state = game.state.with_model(m.replace(flags=m.flags | {IN_POSITION}))
    app.follow_game([])
    tags = [marker.tags for _, marker in app.state.markers if marker.tags]
    assert tags == [("Blue a: in position, done",)]
    app.draw()
    assert "Blue a: in position, done" in [label.text for label in app.cache.table.labels]
    click(app, base(app, "blue-a-1"))
    assert "Blue a 1  (Blue)  in position, done" in panel(app)


def test_selected_says_a_done_units_model_is_done(write_scenario: Write) -> None:
    app = blue_a_done(write_scenario)
    click(app, base(app, "blue-a-3"))
    assert "Blue a 3  (Blue)  done" in panel(app)
    assert "ready" not in panel(app).split("Selected")[1].split("Rifleman")[0]
    click(app, base(app, "red-a-1"))
    assert "Red a 1  (Red)  ready" in panel(app)
