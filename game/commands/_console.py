"""The console the commands print to for people (rich)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

# Wide enough that nothing a command prints is wrapped or a table squeezed.
UNWRAPPED = 10_000


def for_people() -> Console:
    """Standard output as rich writes it: in a terminal, to its width; piped or redirected,
    each line whole (no wrapping, tables at their natural width), for a file or another
    program to read, unless COLUMNS says how wide to be."""
    from rich.console import Console

    out = Console()
    if out.is_terminal or os.environ.get("COLUMNS"):
        return out
    return Console(soft_wrap=True, width=UNWRAPPED)
