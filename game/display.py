"""Whether a window can open here: decided only where it can be known.

SDL told to draw nowhere (`SDL_VIDEODRIVER=dummy` or `offscreen`) has no display, and
neither has an X11/Wayland system (Linux, the BSDs and other Unix-likes) with neither
`DISPLAY` nor `WAYLAND_DISPLAY` set. Windows and macOS have their own display and set
neither variable, so there the window opens. The window's modules choose SDL's dummy
driver by this; `skirmish play` draws one frame to a file instead of a window by it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

# The least window (width, height): the panel and the table fit from here up; the window
# is kept at least this large when resized, and --size asks no less of a window.
WINDOW_LEAST = (800, 600)
# SDL video drivers that draw into memory only.
HEADLESS_DRIVERS = ("dummy", "offscreen")
# sys.platform prefixes of systems whose display needs no environment variable.
OWN_DISPLAY = ("win32", "cygwin", "msys", "darwin", "ios", "emscripten")


def no_display(platform: str | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """True only where it is known that no window can open (by default: here, now)."""
    platform = sys.platform if platform is None else platform
    environ = os.environ if environ is None else environ
    if environ.get("SDL_VIDEODRIVER", "").strip().lower() in HEADLESS_DRIVERS:
        return True
    if platform.startswith(OWN_DISPLAY):
        return False
    return not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
