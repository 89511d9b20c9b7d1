"""The editor's selection handles and the shared label placer: a label placed with the
handles' boxes `taken` keeps clear of them (a new user's report: after selecting,
`edit infinity-demo --size 800x600` read "Zhan○ HMG", the turn handle over the name)."""

from __future__ import annotations

import pygame

from game.paths import scenario_path
from game.render.editor import Editor
from game.render.editor_state import HANDLE
from game.render.labels import Box, Placed, overlaps
from game.render.table import table_labels
from game.scenario.editing import Editing


def _handle_boxes(editor: Editor) -> list[Box]:
    """The squares the handles are drawn in (editor_draw._handles)."""
    return [
        (x - HANDLE, y - HANDLE, 2.0 * HANDLE, 2.0 * HANDLE) for _, (x, y), _ in editor.handles()
    ]


def test_a_models_name_keeps_clear_of_the_handles_given_as_taken() -> None:
    editor = Editor(
        Editing.open(scenario_path("infinity-demo")), surface=pygame.Surface((800, 600))
    )
    editor.state.selected = ["zhanshi-hmg"]
    handles = _handle_boxes(editor)
    assert handles
    scenario, view = editor.editing.scenario, editor.state.view

    def under_a_handle(placed: list[Placed]) -> list[str]:
        return [p.text for p in placed if any(overlaps(p.box, h) for h in handles)]

    # as the editor places them now (no handles given): the name lies under the handle
    assert under_a_handle(table_labels(scenario, view, (800, 600))) == ["Zhanshi HMG"]
    placed = table_labels(scenario, view, (800, 600), taken=handles)
    assert under_a_handle(placed) == []
    assert "Zhanshi HMG" in [p.text for p in placed]  # moved, not left out
