"""Small changes to a scenario for a balance search, each made on the scenario file's
tables and checked like any scenario file.

`--vary` names a parameter and the values to try, each value one change:

    turns=2,3,4                 the turn limit
    shift:SIDE:x=-2,2           every model of SIDE moved along x (or :y) by that many inches
    remove=MODEL,MODEL          one model taken off the table
    profile:MODEL=NAME,NAME     one model given another profile
    points:OBJECTIVE=1,3        an objective's points"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.scenario.model import Header, ObjectiveEntry

Data = dict[str, Any]

# what a scenario file that leaves them unset holds
TURNS = Header.model_fields["turns"].default
POINTS = ObjectiveEntry.model_fields["points"].default

FORMS = (
    "turns=N,N",
    "shift:SIDE:x=INCHES,INCHES (or :y)",
    "remove=MODEL,MODEL",
    "profile:MODEL=NAME,NAME",
    "points:OBJECTIVE=N,N",
)


# Each change's label (`Change.label`, as `parse_vary` writes it), its ids in named
# groups by kind: `label_named` names them in their own places only.
LABELS = (
    re.compile(r"(?P<model>\S+) removed"),
    re.compile(r"(?P<model>\S+) as (?P<profile>\S+)"),
    re.compile(r'(?P<side>\S+) shifted \S+" along [xy]'),
    re.compile(r"(?P<objective>\S+) worth -?\d+"),
)


def label_named(label: str, names: Mapping[str, Mapping[str, str]]) -> str:
    """A change's label with each id in it named by its kind (`names`: "model",
    "profile", "side", "objective" -> id -> name), in its own place only: naming the
    label's words against every id at once named a profile by a model of the same id
    ("fusilier-2 as remote", the model `remote` called Spotbot, read "Fusilier 2 as
    Spotbot"). A label of no such shape ("turn limit 3", "as it is") is left as it is."""
    for shape in LABELS:
        found = shape.fullmatch(label)
        if found is None:
            continue
        out = label
        for kind in sorted(found.groupdict(), key=found.start, reverse=True):
            start, end = found.span(kind)
            out = out[:start] + names.get(kind, {}).get(found[kind], found[kind]) + out[end:]
        return out
    return label


class VaryError(ValueError):
    """A --vary that names nothing in the scenario or is not one of the forms."""


@dataclass(frozen=True, slots=True)
class Change:
    """One change: `label` as a person reads it, `vary` the --vary text it came from."""

    label: str
    vary: str
    edit: Callable[[Data], None]

    def apply(self, data: Data) -> Data:
        """A changed copy of the scenario's tables (`data` itself is left alone)."""
        changed = copy.deepcopy(data)
        self.edit(changed)
        return changed


def _entries(data: Data, table: str) -> list[dict[str, Any]]:
    found = data.get(table, [])
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def _ids(data: Data, table: str) -> list[str]:
    return [str(e.get("id")) for e in _entries(data, table)]


def _numbers(text: str, kind: type[int] | type[float], what: str) -> list[Any]:
    values = []
    for part in text.split(","):
        try:
            value = kind(part.strip())
        except ValueError:
            raise VaryError(f"{part.strip()!r} is not {what}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise VaryError(f"{part.strip()!r} is not {what}")
        values.append(value)
    return values


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    if not all(names):
        raise VaryError(f"{text!r} has an empty name")
    return names


def _known(name: str, known: list[str], what: str) -> None:
    if name not in known:
        if not known:
            raise VaryError(f"no {what} {name!r}: the scenario has no {what}s")
        raise VaryError(f"no {what} {name!r} in the scenario (known: {', '.join(known)})")


def _as_it_is(values: Sequence[Any], now: Any, what: str, notes: list[str] | None) -> list[Any]:
    """`values` less the table's own: that one would play every game for a row identical
    to "as it is" (retest13's finding 3: turns=4 where the file has 4). Refused where it
    is all the option asks; among others it is left out, said in `notes` (turns=2,3,4 on
    a 3-turn table, a sweep around the table as it is, plays 2 and 4)."""
    kept = [v for v in values if v != now]
    if not kept:
        raise VaryError(f"{what}, so it would change nothing")
    if len(kept) < len(values) and notes is not None:
        notes.append(f"{what}: the row 'as it is' plays it")
    return kept


def _own(data: Data, table: str, entry_id: str, key: str, default: Any) -> Any:
    """The value `key` has in the entry `entry_id` of `table` (its default if unset)."""
    entry = next((e for e in _entries(data, table) if e.get("id") == entry_id), {})
    return entry.get(key, default)


def _set_turns(turns: int) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data["scenario"]["turns"] = turns

    return edit


def _shift(side: str, dx: float, dy: float) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        for model in _entries(data, "model"):
            if model.get("side") == side:
                x, y = model["at"]
                model["at"] = [x + dx, y + dy]

    return edit


def _remove(model_id: str) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data["model"] = [m for m in _entries(data, "model") if m.get("id") != model_id]

    return edit


def _set(table: str, entry_id: str, key: str, value: Any) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        for entry in _entries(data, table):
            if entry.get("id") == entry_id:
                entry[key] = value

    return edit


def parse_vary(
    text: str,
    data: Data,
    profiles: Sequence[str] | None = None,
    unscored: str = "",
    notes: list[str] | None = None,
) -> list[Change]:
    """The changes one --vary asks for, checked against the scenario's tables and, where
    given, the profiles the scenario may name (its own and its rule system's) and the
    sentence saying its objectives decide nothing (`Ruleset.unscored`): a change that
    names no profile, or an objective's points where they decide nothing, is refused
    before any game is played; a value the table has already is left out (`notes` says
    so), or refused where it is the only one."""
    name, eq, values = (part.strip() for part in text.partition("="))
    if not eq or not values:
        raise VaryError(f"{text!r} is not PARAM=VALUES (one of: {'; '.join(FORMS)})")
    head, *rest = name.split(":")
    if head == "turns" and not rest:
        turns = _numbers(values, int, "a whole number of turns")
        if any(t < 1 for t in turns):
            raise VaryError("a turn limit is at least 1")
        scenario = data.get("scenario")
        now = scenario.get("turns", TURNS) if isinstance(scenario, dict) else TURNS
        turns = _as_it_is(turns, now, f"the scenario has {now} turns already", notes)
        return [Change(f"turn limit {t}", text, _set_turns(t)) for t in turns]
    if head == "shift" and len(rest) == 2 and rest[1] in ("x", "y"):
        side, axis = rest
        _known(side, _ids(data, "side"), "side")
        steps = _numbers(values, float, "a distance in inches")
        steps = _as_it_is(steps, 0.0, f"a shift of 0 leaves side {side!r} where it stands", notes)
        return [
            Change(
                f'{side} shifted {step:+g}" along {axis}',
                text,
                _shift(side, step if axis == "x" else 0.0, step if axis == "y" else 0.0),
            )
            for step in steps
        ]
    if head == "remove" and not rest:
        models = _names(values)
        for model in models:
            _known(model, _ids(data, "model"), "model")
        return [Change(f"{model} removed", text, _remove(model)) for model in models]
    if head == "profile" and len(rest) == 1:
        model = rest[0]
        _known(model, _ids(data, "model"), "model")
        names = _names(values)
        for profile in names if profiles is not None else ():
            _known(profile, sorted(profiles or ()), "profile")
        now = _own(data, "model", model, "profile", None)
        names = _as_it_is(names, now, f"model {model!r} has the profile {now!r} already", notes)
        return [
            Change(f"{model} as {profile}", text, _set("model", model, "profile", profile))
            for profile in names
        ]
    if head == "points" and len(rest) == 1:
        objective = rest[0]
        _known(objective, _ids(data, "objective"), "objective")
        if unscored:
            raise VaryError(f"{unscored}, so its points would change nothing")
        points = _numbers(values, int, "a whole number of points")
        now = _own(data, "objective", objective, "points", POINTS)
        points = _as_it_is(points, now, f"objective {objective!r} is worth {now} already", notes)
        return [
            Change(f"{objective} worth {p}", text, _set("objective", objective, "points", p))
            for p in points
        ]
    raise VaryError(f"{name!r} is not a parameter to vary (one of: {'; '.join(FORMS)})")
