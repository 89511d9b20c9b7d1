"""Shared test setup: headless SDL, the window's settings in a folder of each test's
own (never the user's), and a helper that writes scenario files."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# The fuzz tests draw the same examples on every run (a run that passes here passes in CI:
# the same tests, the same result); `pytest --hypothesis-profile explore` draws new ones
# each run, to look for what the fixed examples miss.
settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("fixed")

REPO = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow run after all the others, each part in the order collected:
    the whole suite's count moves on from the start (the slow ones first held it at a few
    per cent for minutes) and a failure in the quick part shows in the first minutes."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is not None)


def pytest_report_header() -> str:
    return 'the tests marked slow run last; -m "not slow" leaves them out'


SCENARIOS = REPO / "scenarios"

HEADER = """
[scenario]
name = "Test table"
ruleset = "infinity"
table = [24, 24]

[[side]]
id = "blue"
player = "human"

[[side]]
id = "red"
player = "ai"
"""


@pytest.fixture(autouse=True)
def settings_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The window's settings (game.render.settings) in a fresh folder for each test (a
    subprocess inherits it): no test reads or writes the user's."""
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def write_scenario(tmp_path: Path) -> Callable[..., Path]:
    """Write a scenario file; `body` is appended to a valid Infinity header unless
    `header=False`."""

    def write(body: str, name: str = "table.toml", header: bool = True) -> Path:
        path = tmp_path / name
        text = (HEADER if header else "") + textwrap.dedent(body).lstrip("\n")
        path.write_text(text, encoding="utf-8")
        return path

    return write


def field_line(path: Path, entry_line: int, key: str) -> int:
    """The line of `key = ...` in the table entry whose header is at `entry_line` (the
    line a problem with that field names)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for number in range(entry_line, len(lines) + 1):
        text = lines[number - 1].strip()
        if number > entry_line and text.startswith("["):
            break
        if text.split("=", 1)[0].strip() == key:
            return number
    raise AssertionError(f"no {key!r} in the entry at line {entry_line} of {path}")


def infinity_known(kind: str) -> str:
    """What an unknown Infinity profile or weapon name is refused with when none is near
    it (game.scenario.load): the known ones, from the bundled rule data."""
    from game.scenario.load import rule_data

    profiles, weapons = rule_data("infinity")
    return "known: " + ", ".join(sorted(profiles if kind == "profile" else weapons))
