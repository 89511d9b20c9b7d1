"""A piece of scenery whose id is a plain word ("still", "cover", "move", "a", "the")
changes no word of what the window says: its prompts, keys and refusals are made naming
the table's models and sides where the sentence is made, not by a pass over the finished
sentence replacing every word that is an id (tester11: necromunda-demo's piece `still`
made "Orlock ganger 1 the water still to activate ...", a piece `cover` made "C the
cover"). Each bundled demo is played twice, by the same keys and clicks: its pieces
renamed to ids that are no word ("piece-1") and to plain words; the panel (but the dice
log, which names the scenery where the rules' cover readings do), the banner and every
message read the same."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pygame

from game.render import frame
from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from game.scenario.names import scenery_names
from tests.render.driving import base, click, point_at, press

ROOT = Path(__file__).resolve().parents[2]
WORDS = ("still", "cover", "move", "a", "the", "fire", "turn", "activate", "ready", "shoot")

Step = Callable[[App], None]


def _table(tmp_path: Path, demo: str, words: bool) -> Path:
    """`demo` with every piece of scenery renamed: plain words, or ids no word."""
    text = (ROOT / "scenarios" / f"{demo}.toml").read_text(encoding="utf-8")
    text = text.replace('player = "ai"', 'player = "human"')
    pieces = iter(range(100))

    def renamed(m: re.Match[str]) -> str:
        n = next(pieces)
        new = WORDS[n] if words and n < len(WORDS) else f"piece-{n + 1}"
        return f'[[scenery]]\nid = "{new}"'

    text, count = re.subn(r'\[\[scenery\]\]\s*\nid = "[^"]+"', renamed, text)
    assert count >= 5
    text = re.sub(r'\nlabel = "[^"]*"', "", text)  # named from its id, as a piece may be
    path = tmp_path / f"{demo}-{'words' if words else 'ids'}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _said(app: App) -> list[str]:
    """What the window says now: the panel above the dice log, the message, the keys."""
    lines = [line.text for line in frame.panel_lines(app.scenario, app.state)]
    prompt = app.state.prompt
    said = [*lines[: lines.index("Dice log")], app.state.message, *app.state.keys_help,
            *(prompt.choices if prompt else ())]  # fmt: skip
    # where the rules' readings name a piece ("blocked by the move", "the move in the way"),
    # each its own name: the same token in both plays
    order = [piece.id for piece in app.scenario.scenery]
    for key, name in sorted(
        scenery_names(app.scenario.scenery).items(), key=lambda kv: -len(kv[1])
    ):
        place = re.compile(
            rf"(?:(?<=by |st |ng |of )|(?<=, )){re.escape(name)}|{re.escape(name)}(?=,| in the way)"
        )
        said = [place.sub(f"<piece {order.index(key)}>", line) for line in said]
    return said


def _played(tmp_path: Path, demo: str, seed: int, steps: list[Step], words: bool) -> list[str]:
    scenario = load_scenario(_table(tmp_path, demo, words))
    app = App(scenario, session=Session.start(scenario, seed=seed), size=(1280, 800))
    app.frame()
    said = _said(app)
    for step in steps:
        step(app)
        said += _said(app)
    return said


def _same_words(tmp_path: Path, demo: str, seed: int, steps: list[Step]) -> list[str]:
    plain = _played(tmp_path, demo, seed, steps, words=False)
    worded = _played(tmp_path, demo, seed, steps, words=True)
    for before, after in zip(plain, worded, strict=True):
        assert after == before
    return plain


def _clicked(model: str) -> Step:
    return lambda app: click(app, base(app, model))


def _pointed(model: str) -> Step:
    return lambda app: point_at(app, base(app, model))


def _pressed(key: int) -> Step:
    return lambda app: press(app, key)


def test_necromunda_prompts_and_refusals_keep_their_words(tmp_path: Path) -> None:
    steps = [
        _clicked("orlock-leader"),
        _pointed("orlock-ganger-1"),
        _pressed(pygame.K_g),  # the ganger joins the leader's group (FACTS 2.8)
        _pointed("orlock-heavy"),
        _pressed(pygame.K_g),  # 3.05" off: refused
        _pressed(pygame.K_m),
        _pressed(pygame.K_ESCAPE),
        _pressed(pygame.K_a),  # the leader aims, the group with it
        _pressed(pygame.K_e),
        _clicked("orlock-grenadier"),
        _pressed(pygame.K_a),  # not in the group: refused
        _clicked("orlock-ganger-1"),
        _pressed(pygame.K_s),
        _clicked("escher-leader"),
    ]
    said = " | ".join(_same_words(tmp_path, "necromunda-demo", 2, steps))
    assert "C cover" in said and "E ends the activation" in said
    assert "Orlock ganger 1 still to activate in Orlock leader's group activation" in said
    assert "Orlock ganger 1 is still to activate in it" in said


def test_infinity_prompts_and_refusals_keep_their_words(tmp_path: Path) -> None:
    steps = [
        _clicked("fusilier-1"),
        _pressed(pygame.K_m),
        _pressed(pygame.K_ESCAPE),
        _pressed(pygame.K_s),
        _clicked("fusilier-2"),  # a friend: refused
        _pressed(pygame.K_ESCAPE),
        _pressed(pygame.K_i),  # idle: the second skill
    ]
    said = " | ".join(_same_words(tmp_path, "infinity-demo", 1, steps))
    assert "select a trooper: M/S/D/I, E ends the turn" in said
    assert "ARO to Fusilier 1 from" in said and "pick one, then S/D/I" in said


def test_open_rebellion_prompts_and_refusals_keep_their_words(tmp_path: Path) -> None:
    steps = [
        _clicked("reb-a1"),
        _pressed(pygame.K_e),  # each side names a unit for initiative
        _clicked("gov-a1"),
        _pressed(pygame.K_e),
        _clicked("reb-a1"),
        _pressed(pygame.K_m),
        _pressed(pygame.K_ESCAPE),
        _clicked("gov-a1"),
        _pressed(pygame.K_a),
        _clicked("reb-a1"),
        _pressed(pygame.K_a),  # takes position: its activation goes on
        _clicked("reb-b1"),
        _pressed(pygame.K_m),
        _pressed(pygame.K_a),  # refused: squad a is activating
    ]
    said = " | ".join(_same_words(tmp_path, "open-rebellion-demo", 1, steps))
    assert "select a unit and press E to roll for initiative" in said
    assert "M move, S fire, I initiative action, A take position, E pass" in said
    assert "Rebel squad a is activating: E ends its activation" in said
    assert "E ends the activation" in said
