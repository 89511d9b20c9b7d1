"""Reading Necromunda's special dice faces from assets/necromunda/dice.toml, the flame
template's size from assets/necromunda/templates.toml and the Blaze and Knockback traits'
figures from assets/necromunda/traits.toml."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path
from typing import Any

from game.errors import InputError, Problem
from game.files import MEGABYTE, parse_toml, read_text
from game.paths import ASSETS_DIR
from game.rules.necromunda.dice import (
    Blaze,
    FirepowerFace,
    FlameTemplate,
    GroupActivation,
    InjuryResult,
    Knockback,
    NecromundaDice,
    ScatterFace,
    Traits,
)

NECROMUNDA_DICE = ASSETS_DIR / "necromunda" / "dice.toml"
NECROMUNDA_TEMPLATES = ASSETS_DIR / "necromunda" / "templates.toml"
NECROMUNDA_ACTIVATION = ASSETS_DIR / "necromunda" / "activation.toml"
NECROMUNDA_TRAITS = ASSETS_DIR / "necromunda" / "traits.toml"
MOST_NOMINATED = 6  # more than any gang's leader: a larger figure is a slip


def _faces(data: dict[str, Any], name: str, file: str) -> tuple[list[Any], bool]:
    table = data.get(name)
    if not isinstance(table, dict):
        raise InputError(Problem(file, f"[{name}]", "missing table"))
    faces = table.get("faces")
    if not isinstance(faces, list) or not faces:
        raise InputError(Problem(file, f"{name}.faces", "must be a non-empty list"))
    unconfirmed = table.get("unconfirmed", False)
    if not isinstance(unconfirmed, bool):
        raise InputError(Problem(file, f"{name}.unconfirmed", "must be true or false"))
    return faces, unconfirmed


def _check_keys(face: Any, allowed: set[str], place: str, file: str) -> dict[str, Any]:
    if not isinstance(face, dict):
        raise InputError(Problem(file, place, "each face must be a table"))
    extra = set(face) - allowed
    if extra:
        raise InputError(Problem(file, place, f"unknown key {sorted(extra)[0]!r}"))
    return face


def parse_necromunda_dice(data: dict[str, Any], file: str = "dice.toml") -> NecromundaDice:
    """Validate the parsed TOML; every problem names the file and the face."""
    unconfirmed: set[str] = set()

    faces, flag = _faces(data, "injury", file)
    injury: list[InjuryResult] = []
    for i, face in enumerate(faces):
        try:
            injury.append(InjuryResult(face))
        except ValueError:
            known = ", ".join(repr(r.value) for r in InjuryResult)
            raise InputError(
                Problem(file, f"injury.faces[{i}]", f"{face!r} is not one of {known}")
            ) from None
    if flag:
        unconfirmed.add("injury")

    faces, flag = _faces(data, "firepower", file)
    firepower: list[FirepowerFace] = []
    for i, face in enumerate(faces):
        place = f"firepower.faces[{i}]"
        entry = _check_keys(face, {"holes", "ammo"}, place, file)
        holes, ammo = entry.get("holes"), entry.get("ammo", False)
        if not isinstance(holes, int) or isinstance(holes, bool) or not 0 <= holes <= 6:
            raise InputError(Problem(file, place, "holes must be a whole number 0..6"))
        if not isinstance(ammo, bool):
            raise InputError(Problem(file, place, "ammo must be true or false"))
        firepower.append(FirepowerFace(holes, ammo))
    if flag:
        unconfirmed.add("firepower")

    faces, flag = _faces(data, "scatter", file)
    scatter: list[ScatterFace] = []
    for i, face in enumerate(faces):
        place = f"scatter.faces[{i}]"
        entry = _check_keys(face, {"hit"}, place, file)
        if not isinstance(entry.get("hit"), bool):
            raise InputError(Problem(file, place, "hit must be true or false"))
        scatter.append(ScatterFace(entry["hit"]))
    if flag:
        unconfirmed.add("scatter")

    return NecromundaDice(tuple(injury), tuple(firepower), tuple(scatter), frozenset(unconfirmed))


def load_necromunda_dice(path: Path = NECROMUNDA_DICE) -> NecromundaDice:
    """The special dice from `path` (the bundled assets by default)."""
    if path == NECROMUNDA_DICE:
        return _bundled()
    return _load(path)


@cache
def _bundled() -> NecromundaDice:
    return _load(NECROMUNDA_DICE)


def _load(path: Path) -> NecromundaDice:
    text = read_text(path, MEGABYTE, "dice file")
    return parse_necromunda_dice(parse_toml(text, str(path)), str(path))


def parse_flame_template(data: dict[str, Any], file: str = "templates.toml") -> FlameTemplate:
    """The [flame] table: `length` and `wide_width` in inches."""
    table = data.get("flame")
    if not isinstance(table, dict):
        raise InputError(Problem(file, "[flame]", "missing table"))
    values: dict[str, float] = {}
    for key in ("length", "wide_width"):
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise InputError(Problem(file, f"flame.{key}", "must be a positive number of inches"))
        values[key] = float(value)
    if values["wide_width"] > values["length"]:
        raise InputError(Problem(file, "flame.wide_width", "must not exceed the length"))
    unconfirmed = table.get("unconfirmed", False)
    if not isinstance(unconfirmed, bool):
        raise InputError(Problem(file, "flame.unconfirmed", "must be true or false"))
    return FlameTemplate(values["length"], values["wide_width"], unconfirmed)


@cache
def load_flame_template(path: Path = NECROMUNDA_TEMPLATES) -> FlameTemplate:
    """The flame template from `path` (the bundled assets by default)."""
    text = read_text(path, MEGABYTE, "template file")
    return parse_flame_template(parse_toml(text, str(path)), str(path))


def parse_group_activation(data: dict[str, Any], file: str = "activation.toml") -> GroupActivation:
    """The [group_activation] table: `within` (inches) and `roles`, how many fighters a
    fighter of each role may nominate (FACTS 2.8)."""
    table = data.get("group_activation")
    if not isinstance(table, dict):
        raise InputError(Problem(file, "[group_activation]", "missing table"))
    within = table.get("within")
    if isinstance(within, bool) or not isinstance(within, int | float) or within <= 0:
        raise InputError(
            Problem(file, "group_activation.within", "must be a positive number of inches")
        )
    roles = table.get("roles")
    if not isinstance(roles, dict):
        raise InputError(Problem(file, "[group_activation.roles]", "missing table"))
    counts: list[tuple[str, int]] = []
    for role, count in roles.items():
        if (
            isinstance(count, bool)
            or not isinstance(count, int)
            or not 0 <= count <= MOST_NOMINATED
        ):
            raise InputError(
                Problem(
                    file,
                    f"group_activation.roles.{role}",
                    f"must be a whole number 0..{MOST_NOMINATED}",
                )
            )
        counts.append((str(role), count))
    return GroupActivation(float(within), tuple(counts))


@cache
def load_group_activation(path: Path = NECROMUNDA_ACTIVATION) -> GroupActivation:
    """Who may group-activate, from `path` (the bundled assets by default)."""
    text = read_text(path, MEGABYTE, "activation file")
    return parse_group_activation(parse_toml(text, str(path)), str(path))


def _figures(data: dict[str, Any], name: str, kind: type, file: str) -> dict[str, Any]:
    """The [name] table's values for the dataclass `kind`'s fields, each of its field's
    type (a whole number, a number of inches or true/false); a missing one keeps the
    default, an unknown key is refused."""
    table = data.get(name)
    if not isinstance(table, dict):
        raise InputError(Problem(file, f"[{name}]", "missing table"))
    fields = {f.name: type(getattr(kind(), f.name)) for f in dataclasses.fields(kind)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        want = fields.get(key)
        if want is None:
            raise InputError(Problem(file, f"{name}.{key}", "unknown key"))
        if want is bool:
            ok = isinstance(value, bool)
            said = "must be true or false"
        elif want is int:
            ok = isinstance(value, int) and not isinstance(value, bool) and -6 <= value <= 12
            said = "must be a whole number -6..12"
        else:
            ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
            said = "must be a number of inches from 0 up"
        if not ok:
            raise InputError(Problem(file, f"{name}.{key}", said))
        values[key] = float(value) if want is float else value
    return values


def parse_traits(data: dict[str, Any], file: str = "traits.toml") -> Traits:
    """The [blaze] and [knockback] tables (FACTS 2.9's trait notes)."""
    blaze = Blaze(**_figures(data, "blaze", Blaze, file))
    if not blaze.takes_activation:
        # the engine plays the rulebook's reading only: what a burning fighter might do
        # besides the fire's part is a rules choice FACTS 2.9 leaves open, not played
        raise InputError(
            Problem(
                file,
                "blaze.takes_activation",
                "only true is played: the fire takes the burning fighter's whole activation",
            )
        )
    return Traits(blaze, Knockback(**_figures(data, "knockback", Knockback, file)))


@cache
def load_traits(path: Path = NECROMUNDA_TRAITS) -> Traits:
    """The Blaze and Knockback figures from `path` (the bundled assets by default)."""
    text = read_text(path, MEGABYTE, "traits file")
    return parse_traits(parse_toml(text, str(path)), str(path))
