"""The whole suite runs its slow tests last (tests/conftest.py; tester14 finding 5: with
them first, README's test command sat at 4% for ten minutes and looked hung)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

# a module whose two slow tests come before its quick ones as written
MODULE = "tests/sequencer/test_necromunda_stats.py"


def _collected(*options: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *options, MODULE],
        cwd=REPO, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_slow_tests_run_after_all_the_others_each_part_in_file_order() -> None:
    every = _collected()
    quick = _collected("-m", "not slow")
    written = (REPO / MODULE).read_text(encoding="utf-8")
    first_quick = written.index("def " + quick[0].rsplit("::", 1)[1].split("[")[0])
    assert written.index("@pytest.mark.slow") < first_quick  # slow first as written
    # the quick ones first, in the order the file holds them, then the slow ones
    assert len(quick) < len(every) and every[: len(quick)] == quick
