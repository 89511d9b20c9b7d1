"""The editor's panel as a person sees it at different window sizes, and its keys as
each rule system takes them (session 10 left: "U unit" listed for Necromunda, which
has no units; a panel 360 pixels wide at every size, its words as small at 1600x1000
as at 1280x800, and as wide at 800x600, where it took 45% of the window)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.paths import scenario_path
from game.render import editor_draw
from game.render.editor import MARGIN, Editor
from game.render.table import OBJECTIVE
from game.scenario.editing import Editing

Rows = list[tuple[str, Any]]


def _drawn(name: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch,
           resize_to: tuple[int, int] | None = None) -> tuple[Editor, Rows]:  # fmt: skip
    """The editor on a bundled table at `size` (then resized by the window to
    `resize_to`), drawn once: each row of the panel with its position and size."""
    editor = Editor(Editing.open(scenario_path(name)), size=size)
    if resize_to is not None:
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=resize_to[0], h=resize_to[1]))
        editor.frame()
    rows: Rows = []
    line = editor_draw._line

    def drawn_line(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int = 18,
                   *args: Any) -> int:  # fmt: skip
        rows.append((text, (pos, size)))
        return line(surface, text, pos, size, *args)

    monkeypatch.setattr(editor_draw, "_line", drawn_line)
    editor.draw()
    return editor, rows


@pytest.mark.parametrize("name", ["infinity-demo", "necromunda-demo", "open-rebellion-demo"])
def test_the_keys_list_u_unit_only_where_the_rules_have_units(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor, rows = _drawn(name, (1280, 800), monkeypatch)
    keys = " ".join(text for text, _ in rows)
    assert "S side" in keys and "T state" in keys
    assert ("U unit" in keys) == editor.has_units
    if name == "necromunda-demo":
        assert not editor.has_units


def test_the_panel_grows_with_the_window_and_gives_a_small_one_its_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def panel(size: tuple[int, int], resize_to: tuple[int, int] | None = None) -> tuple[Any, ...]:
        editor, rows = _drawn("infinity-checkpoint", size, monkeypatch, resize_to)
        surface = editor.surface
        width = surface.get_width()
        left = min(pos[0] for _, (pos, _) in rows)  # the words' left edge
        title = next(px for text, (_, px) in rows if text == "Highway checkpoint")
        return left, width - left, title, editor.state.view.scale

    _, room, title, _ = panel((1280, 800))
    assert (room, title) == (348, 24)  # 360 wide, less its 12 pixels of margin
    # the window made larger as a person would: the panel and its words grow
    _, room_big, title_big, _ = panel((1280, 800), resize_to=(1600, 1000))
    assert room_big > room * 1.2 and title_big == 30
    # and a small window keeps more of itself for the table: 320 pixels for the panel,
    # the 32" table drawn larger than beside a 360-pixel one, and clear of the panel
    _, room_small, _, scale_small = panel((800, 600))
    assert room_small + editor_draw.PAD == 320
    assert scale_small > (800 - 360 - 2 * MARGIN) / 32
    assert MARGIN + 32 * scale_small <= 800 - 320
    # every key row inside the panel, at every size
    for size in ((800, 600), (1280, 800), (1600, 1000)):
        _, rows = _drawn("infinity-checkpoint", size, monkeypatch)
        for text, (pos, px) in rows:
            assert pos[0] + editor_draw.font(px).size(text)[0] <= size[0], (size, text)


def test_an_objective_s_label_has_its_box_in_the_editor(monkeypatch: pytest.MonkeyPatch) -> None:
    # session 10's note: "an objective's label in the editor has no background" (the
    # editor drew a bare name beside the disc before bbdf994 placed it as a label)
    for size in ((800, 600), (1280, 800)):
        editor, _ = _drawn("infinity-checkpoint", size, monkeypatch)
        assert editor.labels_cache is not None
        labels = [p for p in editor.labels_cache[2] if p.want.kind == "objective"]
        assert len(labels) == 2
        for placed in labels:
            x, y, _, h = placed.box
            # the box's left edge, between its corner and its words: the objective's colour
            assert editor.surface.get_at((round(x) + 1, round(y + h / 2)))[:3] == OBJECTIVE
