"""Where the project's data lives: rule data in assets/, ready tables in scenarios/."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS_DIR = ROOT / "assets"
SCENARIOS_DIR = ROOT / "scenarios"
