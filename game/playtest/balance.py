"""A balance search: the scenario as it is and each change asked for, played with the
same seeds, and which changes bring a side's share of the decided games within the
target.

A change is "within" the target when its share is; "surely" within when the whole 95%
interval is. Changes whose scenario does not validate (a side shifted off the table,
into a building) are listed as refused with the reason, not played."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from game.errors import InputError
from game.playtest.batch import Share
from game.playtest.record import GameRecord
from game.playtest.runner import Source
from game.playtest.summary import side_shares
from game.playtest.variants import Change, Data


@dataclass(frozen=True, slots=True)
class Candidate:
    """A change and the scenario it makes, or why that scenario is refused."""

    label: str
    vary: str
    source: Source | None
    refused: str | None = None


def candidates(path: Path, data: Data, changes: Sequence[Change]) -> list[Candidate]:
    """The unchanged scenario first, then one candidate per change, each checked like a
    scenario file (written to a temporary folder beside nothing else)."""
    from game.scenario import load_scenario

    out = [Candidate("as it is", "", Source.of(path))]
    with tempfile.TemporaryDirectory(prefix="skirmish-balance-") as folder:
        for i, change in enumerate(changes):
            text = tomli_w.dumps(change.apply(data))
            variant = Path(folder) / f"{i}-{path.name}"
            variant.write_text(text, encoding="utf-8")
            try:
                load_scenario(variant)
            except InputError as err:
                problem = err.problems[0]
                reason = f"{problem.place}: {problem.problem}" if problem.place else problem.problem
                out.append(Candidate(change.label, change.vary, None, reason))
                continue
            out.append(Candidate(change.label, change.vary, Source(path.name, text)))
    return out


def judge(
    candidate: Candidate,
    records: Sequence[GameRecord],
    sides: Sequence[str],
    side: str,
    target: float,
    tolerance: float,
) -> dict[str, Any]:
    """One row of the search: the side's share of decided games with its interval, and
    whether it is within the target."""
    if candidate.source is None:
        return {"change": candidate.label, "vary": candidate.vary, "refused": candidate.refused}
    share: Share = side_shares(records, sides)[side]
    low, high = target - tolerance, target + tolerance
    return {
        "change": candidate.label,
        "vary": candidate.vary,
        "refused": None,
        "games": len(records),
        "decided": share.total,
        "wins": share.count,
        "share": share.share,
        "interval95": [share.low, share.high],
        "draws": len(records) - share.total,
        "within": share.total > 0 and low <= share.share <= high,
        "surely_within": share.total > 0 and low <= share.low and share.high <= high,
        "off_by": abs(share.share - target) if share.total else None,
    }
