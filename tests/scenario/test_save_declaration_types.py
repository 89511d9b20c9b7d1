"""A save's declaration whose field holds a value of the wrong type (a number for a
list, text for a number, a list for text, null, a list holding the wrong type, a field
the declaration does not have) is one line naming the save, the declaration's place in
it and the field, and saying what was expected, exit 2, from `replay --check` and from
`play --load`: never Python's words ("'int' object is not iterable"). The table is made
from the declaration classes of every rule system, so a field added later is covered."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.rules.registry import RULESETS
from game.sequencer.declarations import decode, registered
from tests.scenario.test_saves import FIXTURES, run

# Every rule system's engine registers its declarations.
for _ruleset in RULESETS.values():
    _ruleset.load("engine")

# The declarations of the rule systems (not those a test makes)
KINDS = {n: c for n, c in sorted(registered().items()) if c.__module__.startswith("game.")}
# The save of each rule system (a test's own system has none) a declaration of it is put into.
SAVES = {
    r.name: FIXTURES / f"{r.name}-rules-1.json"
    for r in RULESETS.values()
    if (FIXTURES / f"{r.name}-rules-1.json").is_file()
}
# Python's words, which a person must never read for a bad save.
PYTHON = ("object is", "NoneType", "iterable", "argument", "__", "<class", "Traceback",
          "tuple", "dict", "'int'", "'str'", "'float'", "zip(")  # fmt: skip


GONE = "(left out)"  # a field a declaration needs, left out of the save


def _optional(kind: Any) -> Any | None:
    """X of `X | None`, or None when `kind` does not admit null."""
    args = typing.get_args(kind)
    if typing.get_origin(kind) in (types.UnionType, typing.Union) and type(None) in args:
        [inner] = [a for a in args if a is not type(None)]
        return inner
    return None


def _sample(kind: Any) -> Any:
    """A value of type `kind` as a save holds it (every optional field given one)."""
    inner = _optional(kind)
    if inner is not None:
        return _sample(inner)
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        if args[1:] == (Ellipsis,):
            return [_sample(args[0])]
        return [_sample(a) for a in args]
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return {f.name: _sample(hints[f.name]) for f in dataclasses.fields(kind)}
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return next(iter(kind)).value
    return {str: "x", float: 1.5, int: 1, bool: False}[kind]


def _wrong(kind: Any) -> Iterator[tuple[Any, str]]:
    """Values of the wrong type for a field of type `kind`, each with the words the
    problem is said in after the field's name: ("expected ..." or "... item 1: ...")."""
    inner = _optional(kind)
    if inner is None:
        yield None, ": expected"
    else:
        kind = inner
    origin = typing.get_origin(kind)
    if origin is tuple and typing.get_args(kind) == (float, float):
        # a point (or a move) is said whole, as scenario files say one: "[x, y], two
        # numbers" ("[dx, dy]" for a move)
        point = ": expected ["
        yield from ((3, point), ("ab", point), ({"a": 1}, point), ([1.5, "1"], point),
                    ([True, 1.5], point), ([1.5], point), ([1.5, 1.5, 1.5], point))  # fmt: skip
    elif origin is tuple:
        args = typing.get_args(kind)
        yield from ((3, ": expected a list"), ("ab", ": expected a list"),
                    ({"a": 1}, ": expected a list"))  # fmt: skip
        first = args[0]
        item = " point 1" if typing.get_args(first) == (float, float) else " item 1"
        for value, said in _wrong(first):
            if value is not None:  # a list holding the wrong type
                rest = [] if args[1:] == (Ellipsis,) else [_sample(a) for a in args[1:]]
                yield [value, *rest], f"{item}{said}"
        if args[1:] != (Ellipsis,):
            yield [_sample(a) for a in args[:-1]], f": expected a list of {len(args)}"
            yield [*_sample(kind), 1], f": expected a list of {len(args)}"
    elif dataclasses.is_dataclass(kind):
        yield from ((3, ": expected an object"), ("x", ": expected an object"),
                    ([], ": expected an object"),
                    ({**_sample(kind), "bogus": 1}, ": unknown field 'bogus'"))  # fmt: skip
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        yield from (("no-such-kind", ": expected one of "), (3, ": expected one of "))
    else:
        words = {str: "text", float: "a number", int: "a whole number", bool: "true or false"}
        wrong = {str: (3, ["x"], True), float: ("1", [1], True), int: (1.5, "1", True),
                 bool: (1, "true")}  # fmt: skip
        yield from ((v, f": expected {words[kind]}") for v in wrong[kind])


def _fields(kind: Any, where: str, place: tuple[str | int, ...]) -> Iterator[tuple[Any, ...]]:
    """(where said, place in the sample, wrong value, words) for every field of the
    dataclass `kind` and of the dataclasses within it."""
    hints = typing.get_type_hints(kind)
    for f in dataclasses.fields(kind):
        said = f"{where}: {f.name}" if where else f.name
        at = (*place, f.name)
        for value, words in _wrong(hints[f.name]):
            yield said, at, value, words
        if f.default is dataclasses.MISSING:  # a field it needs, left out
            yield said, at, GONE, ": missing: expected"
        inner = _optional(hints[f.name]) or hints[f.name]
        if dataclasses.is_dataclass(inner):
            yield from _fields(inner, said, at)


def _system(cls: type) -> str:
    """The rule system whose engine registers `cls`."""
    module = cls.__module__.rsplit(".", 1)[-1]
    return next(name for name in SAVES if module.startswith(name.replace("-", "_")))


CASES = [
    pytest.param(name, cls, said, at, value, words, id=f"{name}-{said}-{json.dumps(value)}")
    for name, cls in KINDS.items()
    for said, at, value, words in _fields(cls, "", ())
]


def _spoiled(sample: dict[str, Any], at: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """`sample` with the field at `at` given `value` (GONE: left out)."""
    spoiled = json.loads(json.dumps(sample))
    holder = spoiled
    for key in at[:-1]:
        holder = holder[key]
    if value is GONE:
        del holder[at[-1]]
    else:
        holder[at[-1]] = value
    return spoiled


def test_the_table_covers_every_declaration_of_every_system() -> None:
    kinds = {name for name, *_ in (c.values for c in CASES)}
    assert kinds == {k for k, c in KINDS.items() if dataclasses.fields(c)}
    systems = {_system(c) for c in KINDS.values()}
    assert systems == set(SAVES)
    for name, cls in KINDS.items():  # the table's right values read
        sample = {"declare": name, **_sample(cls)}
        assert decode(sample) == decode(json.loads(json.dumps(sample)))


@pytest.mark.parametrize(("name", "cls", "said", "at", "value", "words"), CASES)
def test_a_wrong_type_in_a_saved_declaration_is_one_line_naming_the_field(
    name: str, cls: type, said: str, at: tuple[str | int, ...], value: Any, words: str,
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    save = json.loads(SAVES[_system(cls)].read_text())
    bad_one = _spoiled({"declare": name, **_sample(cls)}, at, value)
    save["declarations"] = [save["declarations"][0], bad_one]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(save))
    for command in (["replay", str(bad), "--check"], ["play", "--load", str(bad), "--frames", "1"]):
        code, out, err = run(capsys, *command)
        assert code == 2, (command, out, err)
        [line] = err.splitlines()
        assert line.startswith(f"skirmish: {bad}: declaration 2: {said}{words}"), line
        assert not any(word in line for word in PYTHON), line
        assert len(line) < 300, line


def test_a_number_for_a_group_is_said_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the save that gave "'int' object is not iterable"
    save = json.loads(SAVES["necromunda"].read_text())
    save["declarations"][0]["group"] = 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(save))
    code, _, err = run(capsys, "replay", str(bad), "--check")
    assert (code, err) == (2, f"skirmish: {bad}: declaration 1: group: expected a list, not 3\n")
    save["declarations"][0]["group"] = ["goliath-leader", 7]
    save["declarations"][0]["action"]["at"] = [1, "two"]
    bad.write_text(json.dumps(save))
    code, _, err = run(capsys, "replay", str(bad), "--check")
    said = 'action: at: expected [x, y], two numbers, not [1, "two"]'
    assert err == f"skirmish: {bad}: declaration 1: {said}\n"
    del save["declarations"][0]["model"]
    bad.write_text(json.dumps(save))
    code, _, err = run(capsys, "play", "--load", str(bad), "--frames", "1")
    assert (code, err) == (2, f"skirmish: {bad}: declaration 1: model: missing: expected text\n")
