"""The table editor's own state (game.render.editor): the tool, the selection, a drag
in progress, what the panel says."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.render.state import Size, ui_scale
from game.render.view import View
from game.scenario.model import SceneryKind

Point = tuple[float, float]
PANEL = 360  # pixels at the right for the panel, at 1280x800 (`panel_width`)
HANDLE = 6  # pixels: half the side of a handle


@dataclass
class Drag:
    """A drag in progress: what it does, from where, and the edit it would make now."""

    kind: (
        str  # move-model | move-piece | move-objective | turn | rotate | resize | rect | wall | pan
    )
    target: str | None
    start: Point  # table point where it began
    at: Point  # table point now
    anchor: Point = (0.0, 0.0)  # resize: the corner that stays; rotate: the centre
    corner: Point = (0.0, 0.0)  # resize: the corner being dragged
    screen: tuple[int, int] = (0, 0)  # pan: the pixel where it began
    view: View | None = None  # pan: the view when it began


@dataclass
class EditorState:
    """What the editor shows besides the table itself."""

    view: View
    size: Size
    tool: str = "select"
    selected: list[str] = field(default_factory=list)
    profile: int = 0
    side: int = 0
    kind: SceneryKind = SceneryKind.BUILDING
    height: float | None = 2.0
    snap: bool = True
    corners: list[Point] = field(default_factory=list)  # a polygon being drawn
    drag: Drag | None = None
    pointer: Point = (0.0, 0.0)
    message: str = ""
    refused: str = ""  # the reason the last edit (or the drag now) is refused
    form: tuple[str, str] | None = None  # a field being typed (name, height, table) and its text
    form_fresh: bool = False  # the form shows the value it had: the first key replaces it
    running: bool = True


def panel_width(size: Size) -> int:
    """The editor's panel: PANEL wide at 1280x800, growing with the window as the play
    window's panel does (`ui_scale`, its words too), never over two fifths of it."""
    return min(round(PANEL * ui_scale(size)), size[0] * 2 // 5)
