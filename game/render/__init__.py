"""Everything that draws: the table pictures, the interactive window and its parts.

Before any module here imports pygame: where it is known there is no display (see
game/display.py) the drawing goes to SDL's dummy video driver (tests, pictures on a
server), and pygame stays quiet.
"""

import os

from game.display import no_display

if no_display():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
