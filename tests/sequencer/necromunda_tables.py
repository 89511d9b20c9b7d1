"""Small Necromunda tables for the sequencer tests, and scripted dice that also script
the scatter direction (`uniform`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine, NecromundaState
from tests.sequencer.scripted import ScriptedDice

Write = Callable[..., Path]
R = 25 / 25.4 / 2  # a 25 mm base's radius in inches

Fighter = tuple[str, str, str, tuple[float, float], float]  # id, side, profile, at, facing


class ScriptedNecromunda(ScriptedDice):
    """Scripted D6s, and scripted angles for `uniform` (the scatter direction)."""

    def __init__(self, *faces: int, angles: Iterable[float] = ()) -> None:
        super().__init__(*faces)
        self.angles = list(angles)

    def uniform(self, low: float, high: float, size: Any = None) -> float:
        if not self.angles:
            raise AssertionError("the script ran out of scatter angles")
        angle = self.angles.pop(0)
        assert low <= angle < high
        return angle


def necromunda_table(
    write: Write,
    fighters: Iterable[Fighter],
    scenery: str = "",
    weapons: dict[str, list[str]] | None = None,
    size: tuple[int, int] = (24, 24),
    states: dict[str, str] | None = None,
) -> Path:
    text = f"""
[scenario]
name = "Necromunda test"
ruleset = "necromunda"
table = [{size[0]}, {size[1]}]
turns = 2

[[side]]
id = "goliath"

[[side]]
id = "escher"

{scenery}
"""
    for fid, side, profile, (x, y), facing in fighters:
        text += (
            f'[[model]]\nid = "{fid}"\nside = "{side}"\nprofile = "{profile}"\n'
            f"at = [{x}, {y}]\nfacing = {facing}\n"
        )
        if states and fid in states:
            text += f'state = "{states[fid]}"\n'
        if weapons and fid in weapons:
            text += "weapons = [" + ", ".join(f'"{w}"' for w in weapons[fid]) + "]\n"
        text += "\n"
    return write(text, header=False)


def wall(piece_id: str, x0: float, y0: float, x1: float, y1: float, height: float = 3.0) -> str:
    return (
        f'[[scenery]]\nid = "{piece_id}"\nkind = "wall"\nheight = {height}\n'
        f"polygon = [[{x0}, {y0}], [{x1}, {y0}], [{x1}, {y1}], [{x0}, {y1}]]\n\n"
    )


def shooting_game(path: Path, shooter: str, seed: int = 1) -> tuple[Game, NecromundaState]:
    """A game on the table with `shooter`'s side to activate and the shooter Ready."""
    game = Game(load_scenario(path), seed)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    assert isinstance(game.state, NecromundaState)
    game.state = engine.ready_to_shoot(game.state, shooter)
    return game, game.state
