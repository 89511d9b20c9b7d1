"""Build-time layout: a wheel carries the rule data (assets/) and the bundled tables
(scenarios/) inside the package, as game/_data/assets and game/_data/scenarios, where
game/paths.py finds them; the source checkout keeps both folders at the top. Data
files that live inside game/ (the AI weights, py.typed) travel as package data. An
editable install (`pip install -e .`) maps nothing: it runs from the checkout, where
game/paths.py finds the top-level folders. Everything else is in pyproject.toml."""

import sys
from pathlib import Path

from setuptools import find_namespace_packages, setup

EDITABLE = "editable_wheel" in sys.argv  # the command setuptools runs for `pip install -e`
DATA = {} if EDITABLE else {"game._data.assets": "assets", "game._data.scenarios": "scenarios"}
FILES = ["*"]  # every file: rule data, tables, the maps they were drawn from, weights
SKIP = ["*.pyc", "*.pyo", "*~"]


def data_packages() -> dict[str, list[str]]:
    """Each data folder and its subfolders (one per rule system) as a package of files."""
    found = {}
    for package, folder in DATA.items():
        for path in [Path(folder), *sorted(p for p in Path(folder).rglob("*") if p.is_dir())]:
            found[".".join([package, *path.relative_to(folder).parts])] = FILES
    return found


CODE = find_namespace_packages(include=["game", "game.*"], exclude=["*__pycache__"])
DATA_PACKAGES = data_packages()

setup(
    packages=[*CODE, *DATA_PACKAGES],
    package_dir=DATA,
    package_data={**dict.fromkeys(CODE, FILES), **DATA_PACKAGES},
    exclude_package_data={"": SKIP},
)
