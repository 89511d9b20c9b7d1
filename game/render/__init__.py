"""Everything that draws: the table pictures, the interactive window and its parts.

Before any module here imports pygame: without a display the drawing goes to SDL's
dummy video driver (tests, pictures on a server), and pygame stays quiet.
"""

import os

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
