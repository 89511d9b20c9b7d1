"""Whatever a person writes, the loader answers with problems, never a traceback; and
what it accepts, everything that reads a table can use."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.scenario import check_scenario
from tests.conftest import SCENARIOS

DEMO = tomllib.loads((SCENARIOS / "infinity-demo.toml").read_text())

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _toml(value: Any) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return {float("inf"): "inf", float("-inf"): "-inf"}.get(
            value, "nan" if value != value else repr(value)
        )
    if isinstance(value, str):
        return '"' + value.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f'"{k}" = {_toml(v)}' for k, v in value.items()) + "}"


def write(data: dict[str, Any], path: Path) -> None:
    lines = []
    for table, body in data.items():
        if isinstance(body, list):
            for entry in body:
                lines.append(f"[[{table}]]")
                lines.extend(f'"{k}" = {_toml(v)}' for k, v in entry.items())
        else:
            lines.append(f"[{table}]")
            lines.extend(f'"{k}" = {_toml(v)}' for k, v in body.items())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@st.composite
def mangled(draw: st.DrawFn) -> dict[str, Any]:
    """The demo with some fields of some entries replaced by anything at all."""
    data = {k: ([dict(e) for e in v] if isinstance(v, list) else dict(v)) for k, v in DEMO.items()}
    for _ in range(draw(st.integers(1, 4))):
        table = draw(st.sampled_from(sorted(data)))
        body = data[table]
        entry = draw(st.sampled_from(body)) if isinstance(body, list) and body else body
        if isinstance(entry, dict) and entry:
            key = draw(st.sampled_from(sorted(entry)) | st.text(min_size=1, max_size=6))
            entry[key] = draw(values)
    return data


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=mangled())
def test_any_mangled_scenario_gives_problems_not_a_traceback(
    data: dict[str, Any], tmp_path_factory: Any
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "table.toml"
    write(data, path)
    scenario, problems = check_scenario(path)  # must not raise
    assert (scenario is None) == bool(problems)
    for p in problems:
        assert p.file == str(path) and p.problem and "\n" not in str(p)


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=200))
def test_any_text_gives_problems_not_a_traceback(text: str, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "table.toml"
    path.write_text(text, encoding="utf-8")
    scenario, problems = check_scenario(path)
    assert scenario is None and problems


# -- what validates must play ------------------------------------------------------

DEMOS = {
    path.stem: tomllib.loads(path.read_text(encoding="utf-8"))
    for path in sorted(SCENARIOS.glob("*-demo.toml"))
}
ODD_NUMBERS = st.one_of(
    st.floats(-3, 60), st.sampled_from([0.0, 1e-9, 0.3, 1e4, -1e4, 1e300, -0.0])
)


@st.composite
def nudged(draw: st.DrawFn) -> dict[str, Any]:
    """A bundled demo with a few plausible but odd changes: models moved anywhere,
    turned, given other bases or heights, removed; scenery raised or lowered; the table
    resized; sides recoloured; objectives moved. Many still validate."""
    name = draw(st.sampled_from(sorted(DEMOS)))
    data = {
        k: ([dict(e) for e in v] if isinstance(v, list) else dict(v))
        for k, v in DEMOS[name].items()
    }
    for _ in range(draw(st.integers(1, 5))):
        change = draw(st.sampled_from(["at", "facing", "base", "height", "drop", "scenery",
                                       "table", "turns", "colour", "objective"]))  # fmt: skip
        if change in ("at", "facing", "base", "height", "drop") and data.get("model"):
            index = draw(st.integers(0, len(data["model"]) - 1))
            model = data["model"][index]
            if change == "at":
                model["at"] = [draw(ODD_NUMBERS), draw(ODD_NUMBERS)]
            elif change == "facing":
                model["facing"] = draw(st.floats(-3600, 3600))
            elif change == "base":
                model["base"] = draw(st.floats(0.01, 200))
            elif change == "height":
                model["height"] = draw(st.floats(0.01, 20))
            else:
                data["model"].pop(index)
        elif change == "scenery" and data.get("scenery"):
            piece = draw(st.sampled_from(data["scenery"]))
            piece["height"] = draw(st.floats(0.01, 100))
        elif change == "table":
            data["scenario"]["table"] = [draw(st.floats(1, 240)), draw(st.floats(1, 240))]
        elif change == "turns":
            data["scenario"]["turns"] = draw(st.integers(1, 50))
        elif change == "colour":
            side = draw(st.sampled_from(data["side"]))
            side["colour"] = [draw(st.integers(0, 255)) for _ in range(3)]
        elif change == "objective":
            data.setdefault("objective", []).append(
                {"id": "obj-x", "at": [draw(ODD_NUMBERS), draw(ODD_NUMBERS)],
                 "radius": draw(st.floats(0.01, 24))}
            )  # fmt: skip
    return data


def plays(path: Path, folder: Path) -> None:
    """Everything that reads a table, on a checked one: every ordered pair's ruling, the
    picture, the window's loader (a frame drawn) and a two-game playtest."""
    import pygame

    from game.cli import main
    from game.render.app import App
    from game.render.session import Session, SessionError
    from game.scenario import load_scenario

    assert main(["lof", str(path), "--all", "--json"]) == 0
    assert main(["render", str(path), "--out", str(folder / "table.png")]) == 0
    scenario = load_scenario(path)
    try:
        session: Session | None = Session.start(scenario)
    except SessionError:
        session = None  # a table laid out before its models: a viewer
    app = App.window(scenario, size=(640, 480), session=session)
    app.run(2)
    pygame.display.quit()
    code = main(["playtest", str(path), "--games", "2", "--json"])
    assert code == (2 if session is None else 0)


def _plays_if_valid(data: dict[str, Any], folder: Path) -> bool:
    path = folder / "table.toml"
    write(data, path)
    scenario, problems = check_scenario(path)
    if scenario is None:
        assert problems
        return False
    plays(path, folder)
    return True


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=nudged())
def test_a_nudged_table_that_validates_plays(data: dict[str, Any], tmp_path_factory: Any) -> None:
    _plays_if_valid(data, tmp_path_factory.mktemp("plays"))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=nudged() | mangled())
def test_any_table_that_validates_plays(data: dict[str, Any], tmp_path_factory: Any) -> None:
    _plays_if_valid(data, tmp_path_factory.mktemp("plays"))
