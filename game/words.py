"""Lists in words, as people write them: the one joiner every layer uses (the rules'
cover readings, the sequencer's sentences, the window's prompts), and a measure past a
limit said so that it never reads as within it (`over`). A plain helper like `errors` and
`paths`: it imports nothing of the game."""

from __future__ import annotations

from collections.abc import Sequence


def joined(names: Sequence[str], empty: str = "") -> str:
    """Names joined as people write them: "A", "A and B", "A, B and C"."""
    if not names:
        return empty
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def over(value: float, limit: float, unit: str = '"') -> str:
    """A measure refused (or put in a band) for being past `limit`, said so that it never
    reads as within it: with two decimals, as lof and the rulers give distances ("3.05\""),
    or "just over 3\"" where two decimals would read 3.00" (a limit of 0: "under 0.01\"")."""
    said = f"{value:.2f}"
    if float(said) > limit:
        return f"{said}{unit}"
    if limit == 0:
        return f"under 0.01{unit}"
    return f"just over {limit:g}{unit}"
