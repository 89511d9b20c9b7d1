"""The layers of DESIGN.md: imports go one way, and only render/ imports pygame."""

from __future__ import annotations

import ast
import re
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"
ORDER = [
    "geometry",
    "dice",
    "rules",
    "sequencer",
    "scenario",
    "ai",
    "playtest",
    "render",
    "commands",
]
SHARED = {"errors", "files", "paths", "words"}  # plain helpers every layer may use


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "game" or len(parts) < 2 or parts[1] in SHARED:
        return None
    if parts[1] == "cli":
        return len(ORDER)
    return ORDER.index(parts[1]) if parts[1] in ORDER else None


def _imports(tree: ast.AST) -> list[tuple[int, str, bool]]:
    """(line, module, at module level) for every import in a module."""
    found: list[tuple[int, str, bool]] = []
    top = {id(n) for n in getattr(tree, "body", [])}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found += [(node.lineno, n, id(node) in top) for n in names]
    return found


def _modules() -> list[tuple[Path, str, ast.AST]]:
    out = []
    for path in sorted(GAME.rglob("*.py")):
        dotted = ".".join(path.relative_to(GAME.parent).with_suffix("").parts)
        out.append((path, dotted, ast.parse(path.read_text(encoding="utf-8"))))
    return out


def test_imports_go_down_the_layers() -> None:
    upward = []
    for path, dotted, tree in _modules():
        own = _layer(dotted)
        if own is None:
            continue
        for line, module, _ in _imports(tree):
            other = _layer(module)
            if other is not None and other > own:
                upward.append(f"{path.name}:{line} ({dotted}) imports {module}")
    assert upward == []


def test_only_render_imports_pygame() -> None:
    wrong = []
    for _, dotted, tree in _modules():
        layer = dotted.split(".")[1] if "." in dotted else ""
        for line, module, top in _imports(tree):
            if module.split(".")[0] != "pygame" or layer == "render":
                continue
            if layer == "commands" and not top:
                continue  # a command may open the window from inside its function
            wrong.append(f"{dotted}:{line}")
    assert wrong == []


def test_the_game_docs_and_benchmarks_never_import_the_tests() -> None:
    """What ships (game/) and what draws the README's pictures or measures it (docs/,
    benchmarks/) stand on their own: what they share with the tests lives in game/."""
    wrong = []
    for folder in ("game", "docs", "benchmarks"):
        for path in sorted((GAME.parent / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, module, _ in _imports(tree):
                if module.split(".")[0] == "tests":
                    wrong.append(f"{folder}/{path.name}:{line} imports {module}")
    assert wrong == []


# The rule systems bundled with the game. Only a system's own modules (a path with its
# name in it: game/rules/<system>/, sequencer/<system>*.py, ai/<system>*.py,
# render/<system>_play*.py, commands/_shoot_<system>.py, ...) and the registry may name
# one; everything else asks the registry (issue #10).
SYSTEM_NAMES = re.compile(r"infinity|necromunda|open[-_ ]?rebellion", re.IGNORECASE)
SYSTEM_TOKENS = ("infinity", "necromunda", "open_rebellion")
REGISTRY = GAME / "rules" / "registry.py"


def _own_module(path: Path) -> bool:
    parts = path.relative_to(GAME).with_suffix("").parts
    return path == REGISTRY or any(t in part for part in parts for t in SYSTEM_TOKENS)


def test_shared_modules_never_name_a_rule_system() -> None:
    named = []
    for path in sorted(GAME.rglob("*.py")):
        if _own_module(path):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SYSTEM_NAMES.search(line):
                named.append(f"{path.relative_to(GAME.parent)}:{n}: {line.strip()}")
    assert named == []


def _module_names() -> set[str]:
    return {dotted for _, dotted, _ in _modules()}


def _target(module: str, names: list[str], known: set[str]) -> list[str]:
    """The game modules an import statement loads: `from pkg import sub` loads pkg.sub
    when that is a module, else pkg (its __init__)."""
    found = [f"{module}.{n}" for n in names if f"{module}.{n}" in known]
    if module in known or f"{module}.__init__" in known:
        found.append(module if module in known else f"{module}.__init__")
    return found


def test_no_import_circles() -> None:
    """No module reaches itself through imports, at module level or inside functions
    (DESIGN.md: imports go one way)."""
    known = _module_names()
    graph: dict[str, set[str]] = {m: set() for m in known}
    for _, dotted, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [a.name for a in node.names]
                graph[dotted].update(_target(node.module, names, known))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    graph[dotted].update(_target(alias.name, [], known))
    for m in graph:
        graph[m].discard(m)
        # a package's __init__ and its own submodules are one unit: not a circle
        if m.endswith(".__init__"):
            package = m.removesuffix(".__init__")
            graph[m] = {t for t in graph[m] if not t.startswith(package + ".")}
    circles = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == []
