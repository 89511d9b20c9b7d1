"""The editor's panel gives way to the shooter's-eye picture of the selected pair as the
play panel does (polish10b; the play panel's: fix9f): the ruling's lines that say what
the table and the picture show already go first, the cover's reason last, and a window
under 640 pixels tall says in one line where the picture is. Before, the editor kept
every word and drew the picture only in the room they left: at 1280x720 with a message
shown, 216 of 248 pairs had it."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.paths import scenario_path
from game.render import editor_draw
from game.render.editor import Editor
from game.render.eye import least_height
from game.render.panel import EYE_ELSEWHERE, EYE_LEAST
from game.render.state import ui_scale
from game.render.table import font
from game.scenario.editing import Editing

# The ruling's lines the README says give way to the picture (the test's own list).
REPEATED = ("witness:", "visible:", "in arc:", "distance:", "line of fire:")
SLACK = 4  # pixels: rounding not measured here
# Pairs seen through part of the scenery whose picture the editor left out at 1280x720.
PAIRS = [
    ("infinity-demo", "fusilier-lt", "guilang-1"),
    ("infinity-checkpoint", "knight", "hac-tao"),
    ("necromunda-alley", "goliath-leader", "cawdor-leader"),
    ("open-rebellion-mirror", "alpha-a1", "bravo-b1"),
]


def _selected(name: str, pair: tuple[str, str], size: tuple[int, int],
              monkeypatch: pytest.MonkeyPatch) -> tuple[Editor, dict[str, Any]]:  # fmt: skip
    """The editor on a bundled table with the pair selected and a message shown, drawn
    once: the panel's rows with their boxes and the picture's box (None: not drawn)."""
    editor = Editor(Editing.open(scenario_path(name)), size=size)
    editor.state.selected = list(pair)
    editor.state.message = f"turned {editor.called(pair[0])}"
    seen: dict[str, Any] = {"rows": [], "eye": None}
    line, eye = editor_draw._line, editor_draw.draw_eye

    def drawn_line(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int = 18,
                   *args: Any) -> int:  # fmt: skip
        seen["rows"].append((text, pygame.Rect(pos, font(size).size(text))))
        return line(surface, text, pos, size, *args)

    def drawn_eye(surface: pygame.Surface, box: pygame.Rect, *args: Any) -> pygame.Rect:
        seen["eye"] = box
        return eye(surface, box, *args)

    monkeypatch.setattr(editor_draw, "_line", drawn_line)
    monkeypatch.setattr(editor_draw, "draw_eye", drawn_eye)
    editor.draw()
    return editor, seen


def _room_left(editor: Editor, size: tuple[int, int]) -> float:
    """Pixels between the words that must stay and the keys, measured with the font's own
    metrics: every line but the repeated ones and the note, each row a line size and the
    panel's 3 pixels apart, from the panel's top (10) to the keys'."""
    ruled = editor_draw._ruling(editor, editor.editing.scenario)
    assert ruled is not None
    lines = editor_draw._panel_lines(editor, editor.editing.scenario, ruled[0])
    words = sum(
        editor_draw.line_height(line, size)
        for line in lines
        if not (line.no_eye or line.text.startswith(REPEATED))
    )
    keys = editor_draw.editor_keys(editor.has_units)
    return editor_draw.keys_top(size, keys) - 10 - words


@pytest.mark.parametrize("size", [(1280, 640), (1024, 680), (1280, 720), (1280, 800), (1600, 1000)])
@pytest.mark.parametrize(("name", "shooter", "target"), PAIRS)
def test_the_ruling_s_repeated_lines_give_way_to_the_picture(
    name: str, shooter: str, target: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    editor, seen = _selected(name, (shooter, target), size, monkeypatch)
    ruled = editor_draw._ruling(editor, editor.editing.scenario)
    assert ruled is not None and ruled[0].sight.hidden_by  # something to picture
    view = editor_draw.eye_view(editor.editing.scenario, ruled[1], ruled[0])
    least = max(least_height(view, ui_scale(size)), EYE_LEAST)
    left = _room_left(editor, size)
    said = " ".join(text for text, _ in seen["rows"])
    if left < least + 12 - SLACK:  # a font too tall for it: the words, and where it is
        assert seen["eye"] is None and EYE_ELSEWHERE in said, (name, size, left)
        return
    if left < least + 12 + SLACK:
        return  # too near to call without the panel's own rounding
    box = seen["eye"]
    assert box is not None and box.height >= least, (name, size, left, box)
    assert "cover:" in said and EYE_ELSEWHERE not in said  # the reason stays
    for text, row in seen["rows"]:  # no word under the picture
        assert row.bottom <= box.top or row.top >= box.bottom, text


@pytest.mark.parametrize(("name", "shooter", "target"), PAIRS)
def test_a_window_under_640_pixels_says_where_the_picture_is(
    name: str, shooter: str, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, seen = _selected(name, (shooter, target), (800, 600), monkeypatch)
    rows = [text for text, _ in seen["rows"]]
    assert seen["eye"] is None
    assert EYE_ELSEWHERE in rows  # on one row of its own
    said = " ".join(rows)
    for start in ("in arc:", "visible:", "cover:", "distance:"):  # the words kept
        assert start in said, (start, said)
