"""What `skirmish import` refuses of a map's own values (retest13's findings 2, 4, 5, 6):
a scenario `validate` would refuse, a profile that names none, a door's `closed` not
true or false, a Tiled number in quotes, and the words it says them in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.errors import InputError
from game.scenario.maps import import_map

from ..conftest import SCENARIOS

MAPS = SCENARIOS / "maps"


def _outpost_with(tmp_path: Path, *objects: dict[str, object], layer: str = "misc") -> Path:
    """The outpost map with one more object layer, `layer`, holding `objects`."""
    path = tmp_path / "odd.tmj"
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    data["layers"].append({"id": 8, "name": layer, "type": "objectgroup", "objects": objects})
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _point(name: str, x: float, profile: object, **props: object) -> dict[str, object]:
    own = [{"name": "profile", "type": "string", "value": profile}]
    own += [{"name": k, "type": "bool", "value": v} for k, v in props.items()]
    return {"id": 40 + int(x), "name": name, "x": 32 * x, "y": 32 * 20, "point": True,
            "properties": own}  # fmt: skip


def _refused(path: Path, ruleset: str = "infinity") -> str:
    with pytest.raises(InputError) as err:
        import_map(path, ruleset)
    [problem] = err.value.problems
    return f"{problem.place}: {problem.problem}"


def test_a_second_lieutenant_is_refused_as_validate_refuses_it(tmp_path: Path) -> None:
    """retest13's finding 2: two `lieutenant = true` points of one side were written,
    exit 0, and `validate` refused the file (one side, one Lieutenant: FACTS 3.4)."""
    c = _point("c", 4, "fusilier", lieutenant=True)
    d = _point("d", 8, "fusilier", lieutenant=True)
    path = _outpost_with(tmp_path, c, d, layer="green")
    assert _refused(path) == (
        "model 'd': lieutenant = true, but side 'green' has its Lieutenant already "
        "(model 'c'): a side has one Lieutenant"
    )
    one = _outpost_with(tmp_path, c, _point("d", 8, "fusilier"), layer="green")
    doc, _ = import_map(one, "infinity")
    assert [m.id for m in doc.models if m.lieutenant] == ["c"]


def test_a_gangs_second_leader_is_refused(tmp_path: Path) -> None:
    """retest13's finding 2: two Necromunda Leaders of one gang (d1ae2d2: a gang has
    one Leader) were written without a word."""
    first = _point("l1", 4, "leader")
    second = _point("l2", 8, "leader")
    said = _refused(_outpost_with(tmp_path, first, second, layer="orlock"), "necromunda")
    assert said.startswith("model 'l2': a second Leader of side 'orlock'")


def test_a_profile_that_names_none_is_refused_and_another_systems_listed(
    tmp_path: Path,
) -> None:
    """retest13's finding 4: `profile = "dragon"` was "skipped: a point that names no
    infinity profile", where `kind = "lava"` is refused. A point with no profile, or
    the bundled maps' Infinity troopers imported into another system, stay skipped."""
    said = _refused(_outpost_with(tmp_path, _point("z", 4, "dragon")))
    assert said.startswith("object z: unknown profile 'dragon' (")
    said = _refused(_outpost_with(tmp_path, _point("z", 4, 5)))
    assert said.startswith("object z: profile is a number, not a profile's name (known: ")
    doc, found = import_map(MAPS / "outpost.tmj", "necromunda")
    assert not doc.models
    assert found.skipped[0] == (
        "object fusilier-1: a point that names no necromunda profile "
        "(its profile 'fusilier' is one of infinity's)"
    )
    assert found.skipped[-1] == "object marker: a point that names no necromunda profile"


@pytest.mark.parametrize("closed", ["yes", "false", 1])
def test_a_doors_closed_is_json_true_or_false_only(tmp_path: Path, closed: object) -> None:
    """retest13's finding 5: `"closed": "yes"` became a wall without a word, and
    `"false"` left the door open."""
    data = json.loads((MAPS / "crypt.uvtt").read_text(encoding="utf-8"))
    data["portals"] = [{"bounds": [{"x": 3, "y": 3}, {"x": 3, "y": 5}], "closed": closed}]
    path = tmp_path / "door.uvtt"
    path.write_text(json.dumps(data), encoding="utf-8")
    shown = repr(closed) if isinstance(closed, str) else str(closed)
    assert (
        _refused(path) == f"Universal VTT map: portal 1 closed: expected true or false, not {shown}"
    )
    data["portals"][0]["closed"] = True
    path.write_text(json.dumps(data), encoding="utf-8")
    doc, _ = import_map(path, "infinity")
    assert any(p.id == "door" for p in doc.scenery)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("x", "280", "expected a number, not '280'"),
        ("width", "64", "expected a number, not '64'"),
        ("rotation", None, "expected a number, not null"),
        ("visible", "true", "expected true or false, not 'true'"),
    ],
)
def test_a_tiled_value_tiled_never_writes_is_refused_in_words(
    tmp_path: Path, field: str, value: object, said: str
) -> None:
    """retest13's findings 5 and 6: a number in quotes was read as the number (scenario
    files refuse one); a JSON null rotation read "not None"."""
    box = {"id": 30, "name": "pit", "x": 32, "y": 32, "width": 64, "height": 64}
    path = _outpost_with(tmp_path, box | {field: value})
    assert _refused(path) == f"Tiled map: layer 6 object 1 {field}: {said}"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({"a": 1.0}, "kind is a class-type value, not a kind of scenery"),
        (3, "kind is a number, not a kind of scenery"),
        ("lava", "kind 'lava' is not a kind of scenery"),
    ],
)
def test_a_kind_not_in_words_is_said_in_words(tmp_path: Path, value: object, said: str) -> None:
    """retest13's finding 6: a class-type kind read "kind {'a': 1.0} is not ...", a
    Python dict."""
    kind = {"name": "kind", "type": "class", "value": value}
    box = {"id": 30, "name": "pit", "x": 32, "y": 32, "width": 64, "height": 64}
    assert _refused(_outpost_with(tmp_path, box | {"properties": [kind]})).startswith(
        f"object pit: {said} (building, wall, obstacle or area)"
    )
