"""Start-up: whole-process wall time of `skirmish` commands beside `python -c pass`.

Run: `python benchmarks/bench_startup.py [--runs N] [--baseline CHECKOUT] [--skirmish EXE]`.
Budgets (DESIGN.md), whole process on the 2-core machine: `skirmish --help` under
0.15 s, `skirmish odds infinity --sv1 13 --b1 3 --sv2 12 --b2 1` under 0.2 s.

Each command runs as a new process, the way a person starts it, interleaved with
`python -c pass` so that a busy machine slows both alike; the figures are medians of
the wall time, and of the CPU time (user + system) beside it, which a machine busy
with other work inflates less.
`--baseline` times another checkout (say, the main branch before a change) the same
way and prints it beside this one; `--skirmish` times an installed `skirmish` script
instead of this checkout.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds from starting the process to its end; it must succeed."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode()}")
    return seconds, _cpu() - cpu


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
        times: dict[str, list[tuple[float, float]]] = {"python -c pass": []}
        times |= {k: [] for k in subjects}
        for _ in range(args.runs):
            times["python -c pass"].append(run(bare, dict(os.environ), cwd))
            for name, (prefix, env) in subjects.items():
                times[name].append(run(prefix + extra, env, cwd))
        print(f"\nskirmish {' '.join(extra)}")
        base = statistics.median(w for w, _ in times["python -c pass"])
        for name, runs in times.items():
            seconds = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            line = f"  {name:>15}: {seconds:6.3f} s wall, {cpu:6.3f} s CPU"
            if name in subjects:
                line += f"  ({seconds - base:+.3f} s over python -c pass)"
                if budget is not None:
                    verdict = "ok" if seconds < budget else "OVER BUDGET"
                    line += f"  budget {budget:.2f} s: {verdict}"
            print(line)


if __name__ == "__main__":
    main()
