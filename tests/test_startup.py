"""Fast start: commands are imported when called, heavy libraries where needed.

What each run imports is checked in a fresh process (timings belong to
benchmarks/bench_startup.py, not here)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from game.cli import COMMANDS, LazyCommands, command_modules, main, registered
from tests.conftest import REPO

HEAVY = ("shapely", "numpy", "pygame", "matplotlib", "game.scenario", "game.geometry", "numba")


def imported_by(argv: list[str]) -> set[str]:
    """The modules a fresh `skirmish ARGV` process has imported when it ends."""
    code = (
        "import contextlib, io, json, sys\n"
        "from game.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({argv!r})\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(REPO), "SDL_VIDEODRIVER": "dummy"},
        capture_output=True,
        text=True,
        check=True,
    )
    status, modules = json.loads(done.stdout)
    assert status == 0, done.stderr
    return set(modules)


def _heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}


def test_help_imports_no_command_and_no_heavy_library() -> None:
    modules = imported_by(["--help"])
    assert {m for m in modules if m.startswith("game.commands")} == set()
    assert _heavy(modules) == set()
    assert "pydantic" not in modules
    assert "rich" not in modules  # plain help


def test_exact_odds_import_only_their_own_system() -> None:
    modules = imported_by(["odds", "infinity", "--sv1", "13", "--b1", "3", "--sv2", "12"])
    assert _heavy(modules) == set()
    commands = {m for m in modules if m.startswith("game.commands.")}
    assert commands == {"game.commands.odds", "game.commands._odds_infinity"}
    rules = {m.split(".")[2] for m in modules if m.startswith("game.rules.") and m.count(".") > 2}
    assert rules == {"infinity"}
    assert "game.rules.infinity.data" not in modules  # no rule data models for odds
    assert "pydantic" not in modules  # (typer 0.29 checks every option through it)


def test_the_registry_loads_data_models_when_asked() -> None:
    code = (
        "import sys\n"
        "from game.rules.registry import find_ruleset\n"
        "before = 'game.rules.necromunda.data' in sys.modules\n"
        "rs = find_ruleset('necromunda')\n"
        "print(before, rs.profile_model.__name__, rs.weapon_model.__name__, rs.states[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["False", "NecromundaProfile", "NecromundaWeapon", "standing"]


def test_every_command_module_is_listed_with_the_commands_it_registers() -> None:
    """COMMANDS lets --help list the commands without importing them: each module in
    game/commands must be in it (add a line there for a new command)."""
    listed = {entry.module for entry in COMMANDS.values()}
    assert set(command_modules()) == listed
    for name, entry in COMMANDS.items():
        assert name in registered(entry.module), f"{entry.module} does not register {name}"
    every = {n for module in listed for n in registered(module)}
    assert every == set(COMMANDS)


def test_help_lists_every_command_with_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name, entry in COMMANDS.items():
        line = next(row for row in out.splitlines() if row.strip().startswith(f"{name} "))
        assert " ".join(line.split()[1:]) == entry.summary


def test_a_command_module_missing_from_the_list_still_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(COMMANDS, "scenarios")
    group = LazyCommands()
    assert "scenarios" in group.list_commands(None)
    assert main(["scenarios", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scenarios"]
    assert main(["--help"]) == 0
    assert "List the bundled tables" in capsys.readouterr().out


# (`odds --help` imports each system's odds subcommand to show its help line.)
@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"odds"}))
def test_a_command_help_reads_no_scenario_library(name: str) -> None:
    """`skirmish NAME --help` imports only the command's own module: the scenario
    reader, geometry, numpy and the window come when the command runs."""
    assert _heavy(imported_by([name, "--help"])) == set()


def test_commands_that_draw_no_sight_line_load_no_compiler() -> None:
    """numba (the compiled sight-line loops, `game.geometry.kernels`) costs about 0.3 s
    of start-up: only commands that draw sight lines load it."""
    scenario = str(REPO / "scenarios" / "infinity-demo.toml")
    for argv in (["validate", scenario], ["scenarios"]):
        modules = imported_by(argv)
        assert {m for m in modules if m.split(".")[0] in ("numba", "llvmlite")} == set(), argv
        assert "game.geometry.kernels" not in modules, argv
    assert "game.geometry.kernels" in imported_by(["lof", scenario, "--all"])
