"""What the tester of issue 16 found: the JSON on standard output must parse, bad
output paths are refused before playing, and the progress bar's rate is sane."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_json_with_out_is_the_whole_standard_output(tmp_path: Path) -> None:
    # The table's picture imports pygame; its support banner must not reach stdout.
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env["PYTHONPATH"] = str(REPO)
    argv = [sys.executable, "-m", "game.cli", "playtest", "infinity-demo", "--games", "2"]
    argv += ["--json", "--out", str(tmp_path / "out")]
    done = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["games"] == 2
    assert "pygame" not in done.stdout
