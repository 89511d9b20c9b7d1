"""Everything that draws: the table pictures, the interactive window and its parts.

Before any module here imports pygame: where it is known there is no display (see
game/display.py) the drawing goes to SDL's dummy video driver (tests, pictures on a
server), and pygame stays quiet. A driver named then (set but empty, or one that needs a
display) would fail at the first frame, so the dummy driver takes its place.
"""

import os

from game.display import HEADLESS_DRIVERS, no_display

if no_display() and os.environ.get("SDL_VIDEODRIVER", "").strip().lower() not in HEADLESS_DRIVERS:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
