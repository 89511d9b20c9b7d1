"""Rule values kept as data: assets/<system>/rules.toml.

Numbers a rule system reads from the geometry but that are not geometry, such as
the minimum visible patch of a silhouette. Each is a table with a `value`
(a number), optionally `unconfirmed = true` and a `source`. Rules code never reads
files: the scenario loader attaches these values to the `Scenario`, and the code
that applies the rules passes them in as parameters.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from game.errors import InputError, Problem
from game.paths import ASSETS_DIR

RULES_FILE = "rules.toml"


def load_rule_values(system_assets: str, assets_dir: Path = ASSETS_DIR) -> dict[str, float]:
    """The values in assets/<system_assets>/rules.toml by name ({} when there is none)."""
    path = assets_dir / system_assets / RULES_FILE
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise InputError([Problem(str(path), "rules", str(err))]) from err
    values: dict[str, float] = {}
    problems: list[Problem] = []
    for name, entry in data.items():
        value = entry.get("value") if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            problems.append(Problem(str(path), name, "needs a number `value`"))
            continue
        values[name] = float(value)
    if problems:
        raise InputError(problems)
    return values
