"""`skirmish odds infinity --sv1 13 --b1 3 --sv2 12 --b2 1 [--json]`: the Face-to-Face
outcomes as exact counts over the 20^(dice) equally likely rolls, and with damage
options (`--dam1`/`--ps1`, `--ammo1`, `--arm2`, `--cover2` and the mirror ones) each
side's distribution of wounds taken. The registry's "odds" part for Infinity."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import typer

from game.commands.odds import JsonOpt, Tables, bad, emit
from game.commands.odds import rows as outcome_rows
from game.dice.exact import Distribution
from game.errors import InputError
from game.rules.infinity.odds import (
    NO_WINNER,
    Extra,
    F2FOutcome,
    RollSide,
    Side,
    face_to_face,
)
from game.rules.infinity.saves import Ammo, Attack, Defence, SaveSystem, Weapon, wounds_taken

Burst = Annotated[int, typer.Option(min=0, max=30, help="Burst (0: this side does not roll).")]
# Generous bounds: a Success Value after every MOD, a weapon's DAM or PS, a trooper's ARM.
SV = {"min": -30, "max": 50}
STAT = {"min": 0, "max": 30}


def _bad(place: str, problem: str) -> InputError:
    return bad("infinity", place, problem)


def _extra(sd: bool, reroll: bool, n: int) -> Extra:
    if sd and reroll:
        raise _bad(f"--sd{n}", f"give --sd{n} or --reroll{n}, not both")
    if sd:
        return Extra.SPECIAL_DIE
    return Extra.REROLL if reroll else Extra.NONE


def _attack(
    n: int,
    dam: int | None,
    ps: int | None,
    ammo: str | None,
    arm: int | None,
    cover: bool,
) -> Attack | None:
    """Side n's attack: its --dam/--ps and --ammo, the other side's --arm and --cover."""
    other = 3 - n
    if dam is not None and ps is not None:
        raise _bad(f"--dam{n}", f"give --dam{n} (CodeOne) or --ps{n} (N5), not both")
    if dam is None and ps is None:
        for given, name in ((ammo is not None, f"--ammo{n}"), (arm is not None, f"--arm{other}")):
            if given:
                raise _bad(name, f"needs --dam{n} or --ps{n}")
        if cover:
            raise _bad(f"--cover{other}", f"needs --dam{n} or --ps{n}")
        return None
    try:
        ammo_kind = Ammo((ammo or "N").upper())
    except ValueError:
        known = ", ".join(a.value for a in Ammo)
        raise _bad(f"--ammo{n}", f"{ammo!r} is not one of {known}") from None
    weapon = (
        Weapon(SaveSystem.CODEONE, dam, ammo_kind)
        if dam is not None
        else Weapon(SaveSystem.N5, ps if ps is not None else 0, ammo_kind)
    )
    return Attack(weapon, Defence(arm or 0, cover))


def _winner(o: F2FOutcome) -> dict[str, Any]:
    return {
        "winner": None if o.winner is None else int(o.winner),
        "successes": o.successes,
        "crits": o.crits,
    }


def _f2f_order(o: F2FOutcome) -> tuple[int, int, int]:
    return (3 if o.winner is None else int(o.winner), o.crits, o.successes)


def infinity(
    sv1: Annotated[int, typer.Option(**SV, help="Success Value of side 1 (after MODs).")],
    b1: Burst = 1,
    sv2: Annotated[int | None, typer.Option(**SV, help="Success Value of side 2.")] = None,
    b2: Burst = 1,
    sd1: Annotated[bool, typer.Option(help="Side 1 has +1 SD.")] = False,
    sd2: Annotated[bool, typer.Option(help="Side 2 has +1 SD.")] = False,
    reroll1: Annotated[bool, typer.Option(help="Side 1 may reroll one die.")] = False,
    reroll2: Annotated[bool, typer.Option(help="Side 2 may reroll one die.")] = False,
    dam1: Annotated[int | None, typer.Option(**STAT, help="Side 1 weapon DAM (CodeOne).")] = None,
    ps1: Annotated[int | None, typer.Option(**STAT, help="Side 1 weapon PS (N5).")] = None,
    ammo1: Annotated[str | None, typer.Option(help="Side 1 ammo: N, AP, DA, EXP.")] = None,
    arm1: Annotated[int | None, typer.Option(**STAT, help="Side 1 ARM against side 2.")] = None,
    cover1: Annotated[bool, typer.Option(help="Side 1 in Partial Cover (saves).")] = False,
    dam2: Annotated[int | None, typer.Option(**STAT, help="Side 2 weapon DAM (CodeOne).")] = None,
    ps2: Annotated[int | None, typer.Option(**STAT, help="Side 2 weapon PS (N5).")] = None,
    ammo2: Annotated[str | None, typer.Option(help="Side 2 ammo: N, AP, DA, EXP.")] = None,
    arm2: Annotated[int | None, typer.Option(**STAT, help="Side 2 ARM against side 1.")] = None,
    cover2: Annotated[bool, typer.Option(help="Side 2 in Partial Cover (saves).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Infinity Face-to-Face (or Normal roll with --b2 0), and wounds with damage options."""
    if b1 == 0 and b2 == 0:
        raise _bad("--b1", "neither side rolls: give side 1 or side 2 a Burst above 0")
    if sv2 is None:
        if b2 > 0:
            raise _bad("--sv2", "side 2 rolls (--b2 > 0) and needs a Success Value")
        sv2 = 0
    one = RollSide(sv1, b1, _extra(sd1, reroll1, 1))
    two = RollSide(sv2, b2, _extra(sd2, reroll2, 2))
    attacks = {
        side: a
        for side, a in (
            (Side.ONE, _attack(1, dam1, ps1, ammo1, arm2, cover2)),
            (Side.TWO, _attack(2, dam2, ps2, ammo2, arm1, cover1)),
        )
        if a is not None
    }
    f2f = face_to_face(one, two)
    ordered = Distribution(dict(sorted(f2f.items(), key=lambda kv: _f2f_order(kv[0]))), f2f.total)
    doc: dict[str, Any] = {
        "ruleset": "infinity",
        "sides": [
            {"side": n, "sv": s.sv, "burst": s.burst, "extra": s.extra.value, "dice": s.dice}
            for n, s in ((1, one), (2, two))
        ],
        "outcomes": outcome_rows(ordered, _winner),
        "total": f2f.total,
        "win": {str(int(side)): _win_probability(f2f, side) for side in Side},
    }
    # Infinity: a roll no one opposes is a Normal roll (seeds 002/003, FACTS 3.1)
    roll = "Face-to-Face" if b1 and b2 else f"Normal roll of side {1 if b1 else 2}"
    tables: Tables = [(roll, doc["outcomes"], ["winner", "successes", "crits"])]
    if attacks:
        taken = wounds_taken(f2f, attacks)
        doc["wounds"] = {}
        for target in Side:
            if target.other in attacks:
                dist = taken[target].reduced()
                dist = Distribution(dict(sorted(dist.items())), dist.total)
                rows = outcome_rows(dist, lambda w: {"wounds": w})
                doc["wounds"][str(int(target))] = rows
                tables.append((f"Wounds taken by side {int(target)}", rows, ["wounds"]))
    emit(doc, as_json, tables)
    if not as_json and not (b1 and b2):
        roller = "1" if b1 else "2"
        succeeds = doc["win"][roller]
        typer.echo(f"side {roller} succeeds {succeeds:.4%}, fails {1 - succeeds:.4%}")
    elif not as_json:
        typer.echo(
            f"side 1 wins {doc['win']['1']:.4%}, side 2 wins {doc['win']['2']:.4%}, "
            f"nobody {float(f2f.probability(NO_WINNER)):.4%}"
        )


def _win_probability(dist: Distribution[F2FOutcome], side: Side) -> float:
    wins = (Fraction(v, dist.total) for o, v in dist.items() if o.winner is side)
    return float(sum(wins, Fraction(0)))


command = infinity
