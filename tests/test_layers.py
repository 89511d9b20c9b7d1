"""The layers of DESIGN.md: imports go one way, and only render/ imports pygame."""

from __future__ import annotations

import ast
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
SHARED = {"errors", "paths"}  # plain helpers every layer may use


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
