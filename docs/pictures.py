"""The README's pictures of the window, drawn again from the current code:

    SDL_VIDEODRIVER=dummy python docs/pictures.py [NAME ...]

(no NAME: every one this knows). Each is a scene set up as a person would: a bundled
table, a seed, declarations made by the simple player, a model selected and another
pointed at; or the editor's table laid out by keys and clicks, a pair selected. One
frame is drawn and saved over docs/NAME.png. Look at each before committing it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.render.app import App

DOCS = Path(__file__).resolve().parent


def play_window(out: Path) -> None:
    """The Infinity demo at 1280x800: the simple players from seed 4 for three
    declarations (the third, a Zhanshi HMG shot, still animated), Orc 1 pointing at the
    Zhanshi Lieutenant: its ruling, MODs, SV and exact odds, shot lines, the dice log."""
    _scene(out, "infinity-demo", (1280, 800), 4, 3, "orc-1", "zhanshi-lt", animate_last=True)


def play_window_800x600(out: Path) -> None:
    """The Necromunda demo at 800x600 after 20 declarations of the simple players from
    seed 5, Escher ganger 1 pointing at the Orlock leader: the labels placed around the
    bases, the fighters' states, the hover's ruling and odds, the dice log."""
    _scene(out, "necromunda-demo", (800, 600), 5, 20, "escher-ganger-1", "orlock-leader")


def _scene(out: Path, table: str, size: tuple[int, int], seed: int, declarations: int,
           selected: str, pointed: str, *, animate_last: bool = False) -> None:  # fmt: skip
    """`table` in a window of `size`, `declarations` made by the simple players from
    `seed` (the last one's shots drawn if `animate_last`), `selected` clicked and
    `pointed` at, drawn to `out`."""
    from game.paths import scenario_path
    from game.render.app import App
    from game.render.session import Session
    from game.scenario import load_scenario

    scenario = load_scenario(scenario_path(table))
    session = Session.start(scenario, seed)
    app = App.window(scenario, size=size, session=session)
    app.prepare_line_of_fire()
    game = session.game
    player = scenario.ruleset.player("simple")(game.engine)
    for _ in range(declarations - 1):
        session.declare(player.choose(game.state, game.awaiting()))
    app.restart_view()  # the log told afresh, nothing animated
    last = player.choose(game.state, game.awaiting())
    if animate_last:  # its shots drawn as they are fired
        app.declare(last)
    else:
        session.declare(last)
        app.restart_view()
    _click(app, selected)
    _point(app, pointed)
    app.draw()
    app.save_screenshot(out)


def _point(app: App, model: str, *buttons: int) -> None:
    """The pointer moved onto `model`'s base (and `buttons` clicked there), a frame on."""
    import pygame

    x, y = app.state.view.to_screen(*app.scenario.model(model).at)
    pos = (round(x), round(y))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    for button in buttons:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.frame()


def _click(app: App, model: str) -> None:
    _point(app, model)
    _point(app, model, 1)


def edit_window(out: Path) -> None:
    """`skirmish edit` at 1280x800: the Dispute table laid out from nothing by the editor
    tests' keys and clicks (game/render/editor_script.py `lay_out`: Fusilier 1 of Blue at
    (3, 12), Zhanshi 1 of Red at (20, 12), a 3" building, a 0.5" wall), not saved yet;
    Fusilier 1 clicked and Zhanshi 1 Shift+clicked: their line of fire and the
    shooter's-eye view."""
    import pygame

    from game.render.editor import Editor
    from game.render.editor_script import click, lay_out, press
    from game.scenario.editing import Editing, new_document

    pygame.display.init()
    editing = Editing.start(new_document("infinity", "Dispute"))
    editor = Editor(editing, surface=pygame.Surface((1280, 800)), save_to=Path("dispute.toml"))
    lay_out(editor)
    press(editor, pygame.K_v)
    click(editor, (3, 12))
    click(editor, (20, 12), mod=pygame.KMOD_SHIFT)
    pygame.image.save(editor.draw(), str(out))


PICTURES: dict[str, Callable[[Path], None]] = {
    "play-window": play_window,
    "play-window-800x600": play_window_800x600,
    "edit-window": edit_window,
}


def main(names: list[str]) -> int:
    for name in names or list(PICTURES):
        if name not in PICTURES:
            print(f"no picture {name!r}: one of {', '.join(PICTURES)}", file=sys.stderr)
            return 2
        out = DOCS / f"{name}.png"
        PICTURES[name](out)
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
