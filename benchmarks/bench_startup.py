"""Start-up: whole-process wall time of `skirmish` commands beside `python -c pass`.

Run: `python benchmarks/bench_startup.py [--runs N] [--baseline CHECKOUT] [--skirmish EXE]`.
Budgets (DESIGN.md), whole process on the 2-core machine: `skirmish --help` under
0.15 s, `skirmish odds infinity --sv1 13 --b1 3 --sv2 12 --b2 1` under 0.2 s.

Each command runs as a new process, the way a person starts it, interleaved with
`python -c pass` so that a busy machine slows both alike; the figures are medians.
`--baseline` times another checkout (say, the main branch before a change) the same
way and prints it beside this one; `--skirmish` times an installed `skirmish` script
instead of this checkout.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
# What the `skirmish` console script runs.
ENTRY = "import sys; from game.cli import main; sys.exit(main())"
CASES = [
    (["--help"], 0.15),
    (["odds", "infinity", "--sv1", "13", "--b1", "3", "--sv2", "12", "--b2", "1"], 0.2),
    (["odds", "infinity", "--help"], None),
    (["validate", str(HERE / "scenarios" / "infinity-demo.toml")], None),
]


def wall(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from starting the process to its end; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode()}")
    return seconds


def command(root: Path | None, exe: str | None) -> tuple[list[str], dict[str, str]]:
    """The argv prefix that starts skirmish from `root` (or the script `exe`), and its env."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    if exe is not None:
        return [exe], env
    assert root is not None
    env["PYTHONPATH"] = str(root)
    return [sys.executable, "-c", ENTRY], env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each (median)")
    parser.add_argument("--baseline", type=Path, help="another checkout to time beside this")
    parser.add_argument("--skirmish", help="time this installed skirmish script instead")
    args = parser.parse_args()

    subjects = {"this": command(None if args.skirmish else HERE, args.skirmish)}
    if args.baseline is not None:
        subjects = {"baseline": command(args.baseline.resolve(), None)} | subjects
    # A folder of no checkout: `python -c` puts the current folder first on sys.path.
    cwd = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    bare = [sys.executable, "-c", "pass"]
    print(f"whole-process wall time, median of {args.runs} runs ({os.cpu_count()} cores)")
    for extra, budget in CASES:
        times: dict[str, list[float]] = {"python -c pass": []} | {k: [] for k in subjects}
        for _ in range(args.runs):
            times["python -c pass"].append(wall(bare, dict(os.environ), cwd))
            for name, (prefix, env) in subjects.items():
                times[name].append(wall(prefix + extra, env, cwd))
        medians = {k: statistics.median(v) for k, v in times.items()}
        print(f"\nskirmish {' '.join(extra)}")
        base = medians["python -c pass"]
        for name, seconds in medians.items():
            line = f"  {name:>15}: {seconds:6.3f} s"
            if name in subjects:
                line += f"  ({seconds - base:+.3f} s over python -c pass)"
                if budget is not None:
                    verdict = "ok" if seconds < budget else "OVER BUDGET"
                    line += f"  budget {budget:.2f} s: {verdict}"
            print(line)


if __name__ == "__main__":
    main()
