"""Files we write: atomically, through temporary files made safely (a planted symbolic
link is never followed), and the temporary files a killed writer left behind are
removed by the next write beside them (game.files)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.cli import main
from game.files import STALE_AFTER, clean_stale, write_json_atomic
from tests.conftest import REPO, SCENARIOS

KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from game.files import atomic_output
with atomic_output(Path(sys.argv[1])) as handle:
    handle.write(b"half a save")
    handle.flush()
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(done.stdout)


def test_a_killed_save_leaves_a_temporary_file_the_next_save_removes(tmp_path: Path) -> None:
    target = tmp_path / "skirmish-save.json"
    write_json_atomic(target, {"old": True})
    env = dict(os.environ, PYTHONPATH=str(REPO))
    seen = set()
    for _ in range(3):
        subprocess.run([sys.executable, "-c", KILLED_WRITER, str(target)], env=env, timeout=60)
        # Each killed writer leaves its own, having removed the one killed before it.
        [left] = tmp_path.glob(".skirmish-save.json.*.tmp")
        assert left.read_bytes() == b"half a save" and left not in seen
        seen.add(left)
    assert target.read_text() == '{\n "old": true\n}\n'  # never half written
    write_json_atomic(target, {"new": True})
    assert sorted(tmp_path.iterdir()) == [target]
    assert target.read_text() == '{\n "new": true\n}\n'
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # an ordinary file


@pytest.mark.skipif(os.name != "posix", reason="process ids are asked only on POSIX")
def test_only_stale_temporary_files_of_our_own_pattern_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    dead = tmp_path / f".game.json.{_dead_pid()}-abc123.tmp"
    live = tmp_path / f".game.json.{os.getppid()}-def456.tmp"  # our parent is running
    mine = tmp_path / f".game.json.{os.getpid()}-ghi789.tmp"
    old = tmp_path / ".game.json.zzzzzz.tmp"  # an older writer's name: no process id
    young = tmp_path / ".game.json.yyyyyy.tmp"
    other = tmp_path / f".other.json.{_dead_pid()}-abc.tmp"
    unrelated = tmp_path / ".game.json.bak"
    for path in (dead, live, mine, old, young, other, unrelated):
        path.write_text("x")
    long_ago = time.time() - STALE_AFTER - 60
    os.utime(old, (long_ago, long_ago))
    assert sorted(clean_stale(target)) == sorted([dead, old])
    assert sorted(tmp_path.iterdir()) == sorted([live, mine, young, other, unrelated])


def test_render_never_follows_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "table.png"
    # The temporary names an earlier version used, and ours with any process id.
    for name in (f".{out.name}.tmp.png", f".{out.name}.tmp", f".{out.name}.1-x.tmp"):
        (tmp_path / name).symlink_to(victim)
    assert main(["render", str(SCENARIOS / "infinity-demo.toml"), "--out", str(out)]) == 0
    assert victim.read_text() == "precious"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and not out.is_symlink()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


@pytest.mark.parametrize("suffix", [".toml", ".tmj"])
def test_a_byte_order_mark_at_the_start_is_read_past(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # tester13's finding 13: a scenario saved by Windows Notepad (UTF-8 with a BOM) was
    # refused as "line 1: TOML syntax: expected key = value or a [table] header"
    source = SCENARIOS / ("infinity-demo.toml" if suffix == ".toml" else "maps/outpost.tmj")
    marked = tmp_path / f"marked{suffix}"
    marked.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    if suffix == ".toml":
        assert main(["validate", str(marked)]) == 0, capsys.readouterr().err
    else:
        out = tmp_path / "out.toml"
        args = ["import", str(marked), "--ruleset", "infinity", "--out", str(out)]
        assert main(args) == 0, capsys.readouterr().err
