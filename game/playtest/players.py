"""Who plays each side of a batch: automatic players found by name in the rule system's
registry entry, with the options (temperament, thinking time) given on the command line.

A choice is side -> (player name, options). Options reach a player's class as keyword
arguments, and only the ones its constructor takes: a player that has no use for a
thinking time is built without one."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from game.playtest.batch import BySide, Player
from game.rules.registry import Ruleset, ruleset_of, takes
from game.sequencer.engine import Engine
from game.sequencer.sentences import readable

Options = tuple[tuple[str, Any], ...]  # sorted (name, value) pairs: hashable and picklable
Choice = dict[str, tuple[str, Options]]  # side -> (player name, options)


class PlayerError(ValueError):
    """A player choice that cannot be made; the message says why in one line."""


def parse_ai(
    text: str, sides: list[str], known: list[str], called: Mapping[str, str] | None = None
) -> dict[str, str]:
    """`--ai`: one player name for every side ("careful"), or side=name pairs
    ("blue=search,red=careful"): only the sides named (a side left out keeps the
    player its scenario gives it: see `game.playtest.plan.choose_players`). `called`:
    the sides' names, said beside the ids where a side is not known."""
    text = text.strip()
    pairs = ",".join(f"{side}={name}" for side, name in zip(sides, _examples(known), strict=False))
    if not text:
        raise PlayerError(f"expected a player name ({', '.join(known)}) or side=name pairs")
    if "=" not in text:
        if "," in text:  # "search,careful": one per side is said with the sides' ids
            raise PlayerError(
                f"{text!r}: name one player for every side ({known[-1]}), or one per side "
                f"as side=name pairs: {pairs}"
            )
        _check_name(text, known)
        return dict.fromkeys(sides, text)
    chosen: dict[str, str] = {}
    for pair in text.split(","):
        if not pair.strip():
            raise PlayerError(f"{text!r} has a comma too many (an empty pair): as in {pairs}")
        side, eq, name = (part.strip() for part in pair.partition("="))
        if not eq or not side or not name:
            raise PlayerError(f"{pair.strip()!r} is not side=name (as in {pairs})")
        if side not in sides:
            raise PlayerError(f"no side {side!r} in the scenario ({sides_taken(sides, called)})")
        if side in chosen:
            raise PlayerError(f"side {side!r} is named twice")
        _check_name(name, known)
        chosen[side] = name
    return chosen


def sides_taken(sides: list[str], called: Mapping[str, str] | None = None) -> str:
    """The ids --ai takes for the sides, each with its name where the name is not the id
    made readable: "--ai takes the sides' ids: goliath (House Goliath), cawdor (House
    Cawdor)"."""
    names = called or {}
    said = [s if names.get(s, readable(s)) == readable(s) else f"{s} ({names[s]})" for s in sides]
    return f"--ai takes the sides' ids: {', '.join(said)}"


def _examples(known: list[str]) -> list[str]:
    """Players for an example of side=name pairs: the last two known, the strongest."""
    return list(reversed(known[-2:])) or ["simple"]


def _check_name(name: str, known: list[str]) -> None:
    if name not in known:
        raise PlayerError(f"no automatic player {name!r} (one of {', '.join(known)})")


def make_choice(
    ruleset: Ruleset,
    names: Mapping[str, str],
    options: Mapping[str, Any],
    own: Mapping[str, Mapping[str, Any]] | None = None,
) -> Choice:
    """Each side's player with the options its class takes; an option given that no
    chosen player takes is refused (it would silently change nothing). `own`: a side's
    options from its scenario entry (its temperament), used where `options` gives none
    and only by a player that takes them."""
    given = {k: v for k, v in options.items() if v is not None}
    classes = {name: ruleset.player(name) for name in set(names.values())}
    for option, value in given.items():
        takers = [name for name in sorted(classes) if takes(classes[name], option)]
        if not takers:
            players = ", ".join(sorted(classes))
            raise PlayerError(f"--{option}: not an option of the chosen player ({players})")
        for name in takers:
            _check_value(option, value, classes[name])
    choice: Choice = {}
    for side, name in names.items():
        mine = {k: v for k, v in given.items() if takes(classes[name], k)}
        for k, v in (own or {}).get(side, {}).items():
            if v is not None and k not in given and takes(classes[name], k):
                mine[k] = v
        choice[side] = (name, tuple(sorted(mine.items())))
    return choice


def _check_value(option: str, value: Any, cls: Any) -> None:
    """A value outside the ones a player class lists for an option (its
    `OPTION_VALUES`, e.g. the temperaments) is refused before any game starts."""
    allowed = getattr(cls, "OPTION_VALUES", {}).get(option)
    if allowed is not None and value not in allowed:
        raise PlayerError(f"--{option}: no {option} {value!r} (one of {', '.join(allowed)})")


def swapped(choice: Choice, sides: list[str]) -> Choice:
    """The same players with the sides exchanged: the first side gets the second's
    player and so on round the list."""
    return {side: choice[sides[(i + 1) % len(sides)]] for i, side in enumerate(sides)}


def players_differ(choice: Choice) -> bool:
    return len(set(choice.values())) > 1


def recorded(ruleset: Ruleset, player: Any) -> dict[str, Any]:
    """What a save records of an automatic player: its name in the rule system's
    registry, and its temperament and thinking time (about how many seconds a
    declaration) where it has them: {"player": "search", "temperament": "balanced",
    "think": 0.5}."""
    kind = type(player)
    name = next((n for n in ruleset.players if ruleset.player(n) is kind), kind.__name__)
    out: dict[str, Any] = {"player": name}
    temperament = getattr(player, "temperament", None)
    if isinstance(temperament, str):
        out["temperament"] = temperament
    given = getattr(player, "think", None)
    seconds = getattr(player, "expected_seconds", None)
    if isinstance(given, int | float) and not isinstance(given, bool):
        out["think"] = float(given)  # as given, so the save's player thinks the same
    elif isinstance(seconds, int | float):
        # the budget's seconds, a millionth over, so they give the same steps back (to the
        # nearest thousandth, 8 steps at 600 a second came back as 7; exactly, 29 at 800
        # as 28.999999999999996)
        out["think"] = (math.ceil(float(seconds) * 1e6) + 1) / 1e6
    return out


def recorded_sides(ruleset: Ruleset, player: Player, sides: list[str]) -> dict[str, Any]:
    """`recorded` for each side `player` (one player, or one per side) plays."""
    by_side = player.players if isinstance(player, BySide) else {}
    return {side: recorded(ruleset, by_side.get(side, player)) for side in sides}


def said(record: Mapping[str, Any]) -> str:
    """A recorded player as a person reads it: "search, balanced, 0.5 s a declaration"."""
    words = [str(record.get("player"))]
    if record.get("temperament"):
        words.append(str(record["temperament"]))
    if isinstance(record.get("think"), int | float):
        words.append(f"{round(record['think'], 3):g} s a declaration")
    return ", ".join(words)


def build_player(engine: Engine, choice: Choice) -> Player:
    """The player for a game: one instance per distinct (name, options), so a player
    that plays both sides is one object, as it is in the window."""
    ruleset = ruleset_of(engine)
    if ruleset is None:
        raise PlayerError(f"no rule system for {type(engine).__name__}")
    made: dict[tuple[str, Options], Player] = {}
    for spec in choice.values():
        if spec not in made:
            name, options = spec
            cls = ruleset.player(name)
            if cls is None:
                raise PlayerError(f"{ruleset.name} has no automatic player {name!r}")
            made[spec] = cls(engine, **dict(options))
    if len(made) == 1:
        return next(iter(made.values()))
    return BySide({side: made[spec] for side, spec in choice.items()})


def describe(choice: Choice) -> dict[str, str]:
    """side -> the player as a person reads it: "search (temperament cautious)"."""
    out = {}
    for side, (name, options) in choice.items():
        extra = ", ".join(f"{k} {v}" for k, v in options)
        out[side] = f"{name} ({extra})" if extra else name
    return out
