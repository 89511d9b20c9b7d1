"""A real install: the data travels in the wheel, bundled tables are named without a
path, and the window decides "no display" only where it can be known."""

from __future__ import annotations

import json
import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import setuptools

import game.paths
from game.cli import main
from game.display import no_display
from game.paths import bundled_scenarios, scenario_path
from tests.conftest import REPO, SCENARIOS


def test_a_checkout_finds_its_top_level_data() -> None:
    assert game.paths.ASSETS_DIR == REPO / "assets"
    assert game.paths.SCENARIOS_DIR == REPO / "scenarios"


def test_an_installed_package_finds_the_data_it_carries(tmp_path: Path) -> None:
    """The wheel's layout (game/_data/...) without a checkout around it: paths.py looks
    inside the package, not next to it."""
    site = tmp_path / "site-packages"
    (site / "game" / "_data" / "scenarios").mkdir(parents=True)
    (site / "game" / "_data" / "assets").mkdir()
    shutil.copy(REPO / "game" / "__init__.py", site / "game")
    shutil.copy(REPO / "game" / "paths.py", site / "game")
    (site / "game" / "_data" / "scenarios" / "tiny.toml").write_text("")
    code = (
        "import game.paths as p; print(p.ASSETS_DIR); print(p.SCENARIOS_DIR); "
        "print(p.scenario_path('tiny'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines() == [
        str(site / "game" / "_data" / "assets"),
        str(site / "game" / "_data" / "scenarios"),
        str(site / "game" / "_data" / "scenarios" / "tiny.toml"),
    ]


def test_the_wheel_carries_every_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """setup.py maps assets/ and scenarios/ into the package and takes the data files
    inside game/ (AI weights, py.typed): its patterns must take every file there (a
    new kind of data file would otherwise be left out of the wheel)."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.chdir(REPO)
    runpy.run_path(str(REPO / "setup.py"))
    carried = set()
    for package, patterns in seen["package_data"].items():
        assert package in seen["packages"]
        parts = package.split(".")
        mapped = ".".join(parts[:3])
        if mapped in seen["package_dir"]:
            folder = REPO / seen["package_dir"][mapped] / Path(*parts[3:])
        else:
            folder = REPO / Path(*parts)
        carried |= {p for pattern in patterns for p in folder.glob(pattern) if p.is_file()}
    skipped = {
        p for p in carried for pattern in seen["exclude_package_data"][""] if p.match(pattern)
    }
    on_disk = {
        p
        for d in ("assets", "scenarios", "game")
        for p in (REPO / d).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    assert on_disk - (carried - skipped) == set()
    assert {"game.commands", "game.ai.weights"} <= set(seen["packages"])


def test_a_bundled_table_is_found_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    demo = SCENARIOS / "necromunda-alley.toml"
    assert scenario_path("necromunda-alley") == demo
    assert scenario_path("necromunda-alley.toml") == demo
    # Not a bundled name: left as the path it is, for the reader to report.
    assert scenario_path("no-such-table") == Path("no-such-table")
    assert scenario_path("sub/necromunda-alley") == Path("sub/necromunda-alley")
    # A file that exists wins over a bundled table of the same name.
    (tmp_path / "necromunda-alley.toml").write_text("")
    assert scenario_path("necromunda-alley.toml") == Path("necromunda-alley.toml")
    assert set(bundled_scenarios()) == {p.stem for p in SCENARIOS.glob("*.toml")}


def test_every_command_taking_a_scenario_takes_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "infinity-demo", "open-rebellion-village"]) == 0
    out = capsys.readouterr().out
    # a bundled table found by its name reads as the name typed, not where it is installed
    assert "infinity-demo: ok (infinity" in out.splitlines()[0]
    assert "open-rebellion-village: ok (open-rebellion" in out.splitlines()[1]
    lof = ["lof", "necromunda-alley", "--from", "goliath-leader", "--to", "goliath-heavy"]
    assert main([*lof, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attacker"] == "goliath-leader"
    assert main(["render", "necromunda-demo", "--out", "t.png"]) == 0
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    shot = ["play", "open-rebellion-demo", "--frames", "1", "--screenshot", "p.png"]
    assert main(shot) == 0
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    assert main(["playtest", "necromunda-demo", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
    shoot = ["shoot", "infinity-demo", "--attacker", "zhanshi-hmg", "--target", "fusilier-2"]
    assert main([*shoot, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attacker"] == "zhanshi-hmg"


def test_messages_name_a_bundled_table_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input on a bundled table found by name names it so (from a wheel its path is deep
    in site-packages); given by its path, the path as given."""
    monkeypatch.chdir(tmp_path)
    shoot = ["shoot", "--attacker", "x", "--target", "orlock-leader"]
    assert main([shoot[0], "necromunda-demo.toml", *shoot[1:]]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skirmish: necromunda-demo.toml: --attacker: no model 'x'"), err
    path = SCENARIOS / "necromunda-demo.toml"
    assert main([shoot[0], str(path), *shoot[1:]]) == 2
    assert capsys.readouterr().err.startswith(f"skirmish: {path}: --attacker: no model 'x'")
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: ok")


def test_a_name_that_is_no_table_reads_as_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "no-such-table"]) == 2
    assert capsys.readouterr().err == (
        "skirmish: no-such-table: no such file or bundled table (skirmish scenarios lists them)\n"
    )


def test_a_local_file_named_like_a_bundled_table_is_read_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`validate necromunda-demo` with ./necromunda-demo.toml here reads the local copy
    (a table copied to be changed is the one meant) and says so in one line; a name with
    no local file is the bundled table, silently; ./NAME.toml of no bundled name is read
    by NAME too."""
    monkeypatch.chdir(tmp_path)
    text = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
    mine = text.replace('name = "Sump-town shootout"', 'name = "My shootout"')
    assert mine != text
    (tmp_path / "necromunda-demo.toml").write_text(mine, encoding="utf-8")
    assert main(["validate", "necromunda-demo", "--json"]) == 0
    captured = capsys.readouterr()
    [entry] = json.loads(captured.out)["files"]
    assert entry["name"] == "My shootout" and entry["file"] == "necromunda-demo.toml"
    assert captured.err == (
        "skirmish: reading necromunda-demo.toml in this folder, "
        "not the bundled table of that name\n"
    )
    assert main(["validate", "necromunda-alley"]) == 0  # nothing of that name here
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out.startswith("necromunda-alley: ok")
    assert main(["validate", "necromunda-demo.toml"]) == 0  # the file as given: no note
    assert capsys.readouterr().err == ""
    (tmp_path / "mine.toml").write_text(mine, encoding="utf-8")
    assert main(["validate", "mine"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out.startswith("mine.toml: ok")


def test_the_bundled_folder_itself_needs_no_note(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(SCENARIOS)  # ./necromunda-demo.toml is the bundled table
    assert main(["validate", "necromunda-demo"]) == 0
    assert capsys.readouterr().err == ""


def test_scenarios_lists_the_bundled_tables(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(SCENARIOS.glob("*.toml"))
    assert main(["scenarios"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[: len(files)]] == [p.stem for p in files]
    alley = next(line for line in lines if line.startswith("necromunda-alley "))
    assert alley.split()[1:3] == ["necromunda", '30x16"']
    assert alley.endswith("Crowded alley")
    assert main(["scenarios", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["scenarios"]
    assert [e["name"] for e in listed] == [p.stem for p in files]
    village = next(e for e in listed if e["name"] == "open-rebellion-village")
    assert village["ruleset"] == "open-rebellion"
    assert village["file"] == str(SCENARIOS / "open-rebellion-village.toml")
    assert village["table"] == [36, 30]
    assert village["sides"] == 2


@pytest.mark.parametrize(
    ("platform", "environ", "headless"),
    [
        ("win32", {}, False),  # Windows has its own display and sets no variable
        ("darwin", {}, False),  # so has macOS
        ("cygwin", {}, False),
        ("linux", {}, True),  # X11/Wayland with neither variable: no display
        ("linux", {"DISPLAY": ":0"}, False),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, False),
        ("freebsd14", {}, True),
        ("freebsd14", {"DISPLAY": ":1"}, False),
        ("linux", {"DISPLAY": ""}, True),  # set but empty is no display
        ("win32", {"SDL_VIDEODRIVER": "dummy"}, True),  # SDL told to draw nowhere
        ("darwin", {"SDL_VIDEODRIVER": "offscreen"}, True),
        ("linux", {"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}, True),
        ("linux", {"DISPLAY": ":0", "SDL_VIDEODRIVER": "x11"}, False),
    ],
)
def test_no_display_only_where_it_can_be_known(
    platform: str, environ: dict[str, str], headless: bool
) -> None:
    assert no_display(platform, environ) is headless


def test_the_dummy_driver_with_a_display_draws_one_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SDL_VIDEODRIVER=dummy says no window can show even where DISPLAY is set: play
    draws one frame to a file instead of running an invisible window for ever."""
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)
    assert main(["play", "necromunda-alley"]) == 0
    assert "no display: drawing one frame" in capsys.readouterr().out
    assert (tmp_path / "skirmish-play.png").read_bytes()[:4] == b"\x89PNG"


def test_frames_with_no_display_and_no_screenshot_still_draw_a_picture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --frames 5` with no display and no --screenshot ran, printed nothing and
    wrote nothing, exit 0 (second tester's finding 9, session 6): the frames go to the
    picture the one frame goes to, and it is said."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)
    assert main(["play", "necromunda-alley", "--frames", "3"]) == 0
    out = capsys.readouterr().out
    assert "no display: drawing 3 frames to a picture" in out
    assert "skirmish-play.png: 1280x800 pixels after 3 frames" in out
    assert (tmp_path / "skirmish-play.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("driver", ["", " ", "x11"])
def test_no_display_draws_one_frame_whatever_sdl_driver_is_named(
    tmp_path: Path, driver: str
) -> None:
    """With no display, SDL_VIDEODRIVER set but empty (or naming a driver that needs a
    display) gave 'no display: drawing one frame' then pygame.error: windows not
    available, exit 1 (second tester's finding 7, session 6): the frame is drawn with
    the dummy driver."""
    env = {"PYTHONPATH": str(REPO), "SDL_VIDEODRIVER": driver, "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "-m", "game.cli", "play", "necromunda-alley"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert "no display: drawing one frame" in done.stdout
    assert (tmp_path / "skirmish-play.png").read_bytes()[:4] == b"\x89PNG"


def test_scenarios_says_a_local_copy_is_read_in_place_of_a_bundled_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["scenarios"]) == 0
    assert "in its place" not in capsys.readouterr().out
    (tmp_path / "necromunda-demo.toml").write_text(
        (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        "necromunda-demo: necromunda-demo.toml in this folder is read in its place, as its "
        "row shows (rename the copy to use the bundled one)"
    ) in out
    assert main(["scenarios", "--json"]) == 0
    listed = {e["name"]: e for e in json.loads(capsys.readouterr().out)["scenarios"]}
    assert listed["necromunda-demo"]["read_instead"] == "necromunda-demo.toml"
    assert listed["infinity-demo"]["read_instead"] is None


def test_scenarios_shows_what_a_name_reads_and_the_tables_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tester's finding 15, session 6: with ./necromunda-demo.toml here the row showed the
    bundled table's title and size ('Sump-town shootout'), though the local copy ('My
    sump') is what a command reads, and does not validate; mytable.toml, which commands
    take by name too, was not listed; pyproject.toml is no scenario."""
    monkeypatch.chdir(tmp_path)
    text = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
    mine = text.replace('name = "Sump-town shootout"', 'name = "My sump"')
    mine = re.sub(r"(?m)^table = .*$", "table = [300, 24]", mine)
    (tmp_path / "necromunda-demo.toml").write_text(mine, encoding="utf-8")
    (tmp_path / "mytable.toml").write_text(
        (SCENARIOS / "infinity-corridor.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out.splitlines()
    demo = next(line for line in out if line.startswith("necromunda-demo "))
    assert demo.split()[1:3] == ["necromunda", '300x24"']
    assert "My sump (does not validate: line " in demo  # its first problem, then where all are
    assert demo.endswith("; skirmish validate necromunda-demo.toml)")
    mytable = out.index("in this folder, taken by name too:") + 1
    assert out[mytable].split()[:3] == ["mytable", "infinity", '24x24"']
    assert out[mytable].endswith("Cargo hold")
    assert not any(line.startswith("pyproject") for line in out)
    assert main(["scenarios", "--json"]) == 0
    here = {e["name"]: e["valid"] for e in json.loads(capsys.readouterr().out)["here"]}
    assert here == {"mytable": True, "necromunda-demo": False}


def test_scenarios_lists_the_files_here_that_do_not_read_with_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester9: files here that do not read (broken TOML, empty, binary) were left out
    silently while those that read but fail validation were listed: each is listed with
    its one-line problem; a TOML file of another kind (pyproject.toml) still is not."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.toml").write_text("[scenario\nname =", encoding="utf-8")
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    (tmp_path / "binary.toml").write_bytes(bytes(range(256)))
    corridor = (SCENARIOS / "infinity-corridor.toml").read_text(encoding="utf-8")
    (tmp_path / "chess.toml").write_text(corridor.replace('"infinity"', '"chess"', 1))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {
        line.split()[0]: line for line in out[out.index("in this folder, taken by name too:") :]
    }
    assert "does not read: line 1: TOML syntax: " in rows["broken"]
    assert rows["empty"].endswith("does not read: empty: no [scenario] table")
    assert "does not read: line 2: not UTF-8 text (byte 129)" in rows["binary"]
    assert (
        "(does not validate: line " in rows["chess"] and "unknown ruleset 'chess'" in rows["chess"]
    )
    assert "pyproject" not in rows
    assert main(["scenarios", "--json"]) == 0
    here = {e["name"]: e for e in json.loads(capsys.readouterr().out)["here"]}
    assert {n: (e["reads"], e["valid"]) for n, e in here.items()} == {
        "binary": (False, False), "broken": (False, False), "chess": (True, False),
        "empty": (False, False),
    }  # fmt: skip
    assert here["empty"]["problem"] == "empty: no [scenario] table"


def test_a_scenario_not_named_toml_is_read_with_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mytable").write_text(
        (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert main(["validate", "./mytable"]) == 0
    assert capsys.readouterr().err == (
        "skirmish: reading ./mytable as a scenario (TOML), though its name does not end in .toml\n"
    )
    assert main(["validate", "necromunda-demo"]) == 0
    assert capsys.readouterr().err == ""
