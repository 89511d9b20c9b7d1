"""Where the project's data lives: rule data (assets) and ready tables (scenarios).

A source checkout (run in place or installed with `pip install -e .`) keeps them at
the top, in `assets/` and `scenarios/`; a built wheel carries the same folders inside
the package, as `game/_data/assets` and `game/_data/scenarios` (see setup.py), found
here with importlib.resources. A bundled table can be named without its path:
`scenario_path("NAME")` for scenarios/NAME.toml.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
PACKAGED = "_data"  # the folder inside the package that a wheel carries the data in
SUFFIX = ".toml"


def _data_dir(name: str) -> Path:
    """The folder `name` of an installed wheel, else the checkout's."""
    packaged = resources.files("game").joinpath(PACKAGED, name)
    # An installed wheel is unpacked on disk, so its resources are real files.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return CHECKOUT / name


ASSETS_DIR = _data_dir("assets")
SCENARIOS_DIR = _data_dir("scenarios")


def bundled_scenarios() -> dict[str, Path]:
    """The bundled tables by name (the file name without `.toml`), sorted by name."""
    return {p.stem: p for p in sorted(SCENARIOS_DIR.glob(f"*{SUFFIX}"))}


def scenario_path(text: str | Path) -> Path:
    """The scenario file a person means by `text`: a file that exists, else the bundled
    table of that name (`NAME` or `NAME.toml` for scenarios/NAME.toml), else `text` as
    a path, for the reader to report as missing. Every command taking a scenario asks
    this, so each takes a bundled table by its name."""
    path = Path(text)
    _TYPED.pop(path, None)  # a bundled table given by its path is named by it
    if path.exists() or len(path.parts) != 1:
        return path
    name = path.name.removesuffix(SUFFIX)
    bundled = SCENARIOS_DIR / f"{name}{SUFFIX}"
    if name and bundled.is_file():
        _TYPED[bundled] = str(text)
        return bundled
    return path


def no_such_scenario(path: Path) -> str | None:
    """Why a bare NAME (or NAME.toml) names no scenario, with the bundled table whose
    name is nearest it ("no such file or bundled table; did you mean NAME? ..."); None
    when `path` exists or has a folder in it (the reader says it is missing)."""
    return _no_such(path, path.name.removesuffix(SUFFIX), bundled_scenarios(), "table")


def no_such_map(path: Path) -> str | None:
    """As `no_such_scenario`, for a bundled map's file name (`outpst.tmx`)."""
    return _no_such(path, path.name, bundled_maps(), "map")


def _no_such(path: Path, name: str, bundled: Mapping[str, Path], what: str) -> str | None:
    if path.exists() or len(path.parts) != 1:
        return None
    from difflib import get_close_matches

    close = get_close_matches(name, bundled, n=1)
    alike = f"; did you mean {close[0]}?" if close else ""
    return f"no such file or bundled {what}{alike} (skirmish scenarios lists them)"


# The bundled tables found by a name (`scenario_path`), with the name as it was typed.
_TYPED: dict[Path, str] = {}


MAPS_DIR = SCENARIOS_DIR / "maps"  # example maps for `skirmish import`


def bundled_maps() -> dict[str, Path]:
    """The bundled example maps by file name (`outpost.tmx`), sorted by name."""
    found = sorted(MAPS_DIR.iterdir()) if MAPS_DIR.is_dir() else []
    return {p.name: p for p in found if p.is_file() and not p.name.startswith((".", "_"))}


def map_path(text: str | Path) -> Path:
    """The map file a person means by `text`: a file that exists, else the bundled map
    of that file name (`skirmish import outpost.tmx`), else `text` as a path."""
    path = Path(text)
    _TYPED.pop(path, None)
    if path.exists() or len(path.parts) != 1:
        return path
    found = bundled_maps().get(path.name)
    if found is None:
        return path
    _TYPED[found] = str(text)
    return found


def is_bundled(path: Path) -> bool:
    """Whether `path` is one of the project's own files (a bundled table, map or rule
    data), which is never written over: in an installed wheel it lives in site-packages."""
    where = path.resolve()
    return any(where.is_relative_to(folder.resolve()) for folder in (SCENARIOS_DIR, ASSETS_DIR))


def save_path(path: Path) -> Path:
    """Where a changed `path` is saved: itself, or for a bundled file, a file of the same
    name in the current folder (shown as ./NAME)."""
    return Path(path.name) if is_bundled(path) else path


def shown(path: Path) -> str:
    """`path` as a person reads it: a file in the current folder as ./NAME."""
    return f"./{path}" if not path.is_absolute() and len(path.parts) == 1 else str(path)


def as_typed(file: str | Path) -> str:
    """A file as a person named it: a bundled table found by its name (`scenario_path`)
    reads as that name, not the path it is installed at; any other
    file (a bundled one given by its path too) as given."""
    return _TYPED.get(Path(file), str(file))
