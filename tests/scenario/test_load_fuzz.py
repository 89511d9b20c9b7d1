"""Whatever a person writes, the loader answers with problems, never a traceback."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

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
