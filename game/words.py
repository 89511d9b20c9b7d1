"""Lists in words, as people write them: the one joiner every layer uses (the rules'
cover readings, the sequencer's sentences, the window's prompts). A plain helper like
`errors` and `paths`: it imports nothing of the game."""

from __future__ import annotations

from collections.abc import Sequence


def joined(names: Sequence[str], empty: str = "") -> str:
    """Names joined as people write them: "A", "A and B", "A, B and C"."""
    if not names:
        return empty
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
