"""`skirmish odds RULESET ...`: exact probabilities of an attack, as a table or JSON.

`skirmish odds infinity --sv1 13 --b1 3 --sv2 12 --b2 1 [--json]` gives the
Face-to-Face outcomes as exact counts over the 20^(dice) equally likely rolls, and
with damage options (`--dam1`/`--ps1`, `--ammo1`, `--arm2`, `--cover2` and the
mirror ones) each side's distribution of wounds taken. `necromunda` and
`open-rebellion` have their own options and the same shape of output.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from game.dice.exact import Distribution
from game.errors import InputError, Problem
from game.rules.infinity.odds import (
    NO_WINNER,
    Extra,
    F2FOutcome,
    RollSide,
    Side,
    face_to_face,
)
from game.rules.infinity.saves import Ammo, Attack, Defence, SaveSystem, Weapon, wounds_taken
from game.rules.necromunda.odds import (
    AmmoState,
    Shot,
    Status,
    Target,
    TargetState,
    attack,
)
from game.rules.open_rebellion.odds import (
    CoverTier,
    Markers,
    damage,
    shifted_tier,
    small_arms_fire,
)

CLI = "<command line>"
K = TypeVar("K")

odds_app = typer.Typer(
    name="odds",
    help="Exact probabilities of an attack, for each rule system.",
    no_args_is_help=True,
    add_completion=False,
)


def _bad(place: str, problem: str) -> InputError:
    return InputError(Problem(file=CLI, place=place, problem=problem))


def _rows(dist: Distribution[K], fields: Callable[[K], dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**fields(k), "count": v, "total": dist.total, "probability": v / dist.total}
        for k, v in dist.items()
    ]


def _print_table(title: str, rows: list[dict[str, Any]], columns: Iterable[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    cols = list(columns)
    table = Table(title=title)
    for col in cols:
        table.add_column(col, justify="right" if col != "outcome" else "left")
    table.add_column("count / total", justify="right")
    table.add_column("probability", justify="right")
    for row in rows:
        cells = ["-" if row[c] is None else str(row[c]) for c in cols]
        table.add_row(*cells, f"{row['count']}/{row['total']}", f"{row['probability']:.4%}")
    Console(width=120).print(table)


Tables = list[tuple[str, list[dict[str, Any]], list[str]]]


def _emit(doc: dict[str, Any], as_json: bool, tables: Tables) -> None:
    if as_json:
        typer.echo(json.dumps(doc, indent=2))
        return
    for title, rows, columns in tables:
        _print_table(title, rows, columns)


# ---------------------------------------------------------------------------
# Infinity

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
Burst = Annotated[int, typer.Option(min=0, max=30, help="Burst (0: this side does not roll).")]


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
    if arm is not None and arm < 0:
        raise _bad(f"--arm{other}", "ARM cannot be negative")
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
    sv1: Annotated[int, typer.Option(help="Success Value of side 1 (after MODs).")],
    b1: Burst = 1,
    sv2: Annotated[int | None, typer.Option(help="Success Value of side 2.")] = None,
    b2: Burst = 1,
    sd1: Annotated[bool, typer.Option(help="Side 1 has +1 SD.")] = False,
    sd2: Annotated[bool, typer.Option(help="Side 2 has +1 SD.")] = False,
    reroll1: Annotated[bool, typer.Option(help="Side 1 may reroll one die.")] = False,
    reroll2: Annotated[bool, typer.Option(help="Side 2 may reroll one die.")] = False,
    dam1: Annotated[int | None, typer.Option(help="Side 1 weapon DAM (CodeOne).")] = None,
    ps1: Annotated[int | None, typer.Option(help="Side 1 weapon PS (N5).")] = None,
    ammo1: Annotated[str | None, typer.Option(help="Side 1 ammo: N, AP, DA, EXP.")] = None,
    arm1: Annotated[int | None, typer.Option(help="Side 1 ARM against side 2.")] = None,
    cover1: Annotated[bool, typer.Option(help="Side 1 in Partial Cover (saves).")] = False,
    dam2: Annotated[int | None, typer.Option(help="Side 2 weapon DAM (CodeOne).")] = None,
    ps2: Annotated[int | None, typer.Option(help="Side 2 weapon PS (N5).")] = None,
    ammo2: Annotated[str | None, typer.Option(help="Side 2 ammo: N, AP, DA, EXP.")] = None,
    arm2: Annotated[int | None, typer.Option(help="Side 2 ARM against side 1.")] = None,
    cover2: Annotated[bool, typer.Option(help="Side 2 in Partial Cover (saves).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Infinity Face-to-Face (or Normal roll with --b2 0), and wounds with damage options."""
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
        "outcomes": _rows(ordered, _winner),
        "total": f2f.total,
        "win": {str(int(side)): _win_probability(f2f, side) for side in Side},
    }
    tables: Tables = [("Face-to-Face", doc["outcomes"], ["winner", "successes", "crits"])]
    if attacks:
        taken = wounds_taken(f2f, attacks)
        doc["wounds"] = {}
        for target in Side:
            if target.other in attacks:
                dist = taken[target].reduced()
                dist = Distribution(dict(sorted(dist.items())), dist.total)
                rows = _rows(dist, lambda w: {"wounds": w})
                doc["wounds"][str(int(target))] = rows
                tables.append((f"Wounds taken by side {int(target)}", rows, ["wounds"]))
    _emit(doc, as_json, tables)
    if not as_json:
        typer.echo(
            f"side 1 wins {doc['win']['1']:.4%}, side 2 wins {doc['win']['2']:.4%}, "
            f"nobody {float(f2f.probability(NO_WINNER)):.4%}"
        )


def _win_probability(dist: Distribution[F2FOutcome], side: Side) -> float:
    wins = (Fraction(v, dist.total) for o, v in dist.items() if o.winner is side)
    return float(sum(wins, Fraction(0)))


# ---------------------------------------------------------------------------
# Necromunda


def necromunda(
    bs: Annotated[int, typer.Option(min=2, max=6, help="Shooter's BS as N for N+.")],
    strength: Annotated[int, typer.Option(min=1, max=10, help="Weapon Strength.")],
    toughness: Annotated[int, typer.Option(min=1, max=10, help="Target Toughness.")],
    mod: Annotated[int, typer.Option(help="Sum of hit modifiers (+1 improves 4+ to 3+).")] = 0,
    ap: Annotated[int, typer.Option(max=0, help="Weapon AP (0 or negative).")] = 0,
    damage_: Annotated[int, typer.Option("--damage", min=0, max=6, help="Weapon D.")] = 1,
    wounds: Annotated[int, typer.Option(min=1, max=6, help="Target Wounds.")] = 1,
    save: Annotated[int | None, typer.Option(min=2, max=6, help="Armour save N+.")] = None,
    save_bonus: Annotated[int, typer.Option(min=0, max=2, help="Cover bonus to the save.")] = 0,
    rapid_fire: Annotated[int, typer.Option(min=0, max=6, help="X of Rapid Fire (X).")] = 0,
    ammo: Annotated[int | None, typer.Option(min=2, max=7, help="Ammo test N+.")] = None,
    dice_file: Annotated[
        Path | None, typer.Option("--dice", help="Dice faces TOML (default: bundled).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Necromunda shooting: hits, the ammo check and the target's condition."""
    from game.scenario.dice_assets import NECROMUNDA_DICE, load_necromunda_dice

    dice = load_necromunda_dice(dice_file or NECROMUNDA_DICE)
    shot = Shot(bs, strength, mod, ap, damage_, rapid_fire, ammo)
    target = Target(toughness, wounds, save, save_bonus)
    dist = attack(shot, target, dice)
    status_order = list(Status)

    def state_key(s: TargetState) -> tuple[int, int, int]:
        return (status_order.index(s.status), -s.wounds, s.flesh_wounds)

    states = dist.map(lambda o: o.target)
    states = Distribution(
        dict(sorted(states.items(), key=lambda kv: state_key(kv[0]))), states.total
    )
    hits = dist.map(lambda o: o.hits)
    hits = Distribution(dict(sorted(hits.items())), hits.total)
    ammo_states = dist.map(lambda o: o.ammo)
    ammo_states = Distribution(
        {a: ammo_states.counts[a] for a in AmmoState if a in ammo_states.counts}, ammo_states.total
    )
    doc: dict[str, Any] = {
        "ruleset": "necromunda",
        "outcomes": _rows(
            states,
            lambda s: {
                "outcome": s.status.value,
                "wounds_left": s.wounds,
                "flesh_wounds": s.flesh_wounds,
            },
        ),
        "hits": _rows(hits, lambda h: {"hits": h}),
        "ammo": _rows(ammo_states, lambda a: {"ammo": a.value}),
        "unconfirmed_dice": sorted(dice.unconfirmed),
    }
    _emit(
        doc,
        as_json,
        [
            (
                "Target after the attack",
                doc["outcomes"],
                ["outcome", "wounds_left", "flesh_wounds"],
            ),
            ("Hits", doc["hits"], ["hits"]),
            ("Ammo", doc["ammo"], ["ammo"]),
        ],
    )
    if not as_json and dice.unconfirmed:
        typer.echo(f"note: unconfirmed dice faces (data): {', '.join(sorted(dice.unconfirmed))}")


# ---------------------------------------------------------------------------
# Open Rebellion

TIERS = {"open": CoverTier.OPEN, "light": CoverTier.LIGHT, "hard": CoverTier.HARD}
TIERS["beyond-hard"] = CoverTier.BEYOND_HARD


def open_rebellion(
    attack_dice: Annotated[
        int, typer.Option("--attack", min=0, max=60, help="Attacker's bang dice.")
    ],
    defence_dice: Annotated[
        int, typer.Option("--defence", min=0, max=60, help="Defender's bang dice.")
    ],
    cover: Annotated[str, typer.Option(help="open, light, hard or beyond-hard.")] = "open",
    in_position: Annotated[bool, typer.Option(help="Defender in position (+1 tier).")] = False,
    hidden: Annotated[bool, typer.Option(help="Defender hidden as a card (+1 tier).")] = False,
    blast: Annotated[bool, typer.Option(help="Blast or bad-ass gun (-1 tier).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Open Rebellion small arms fire: damage and wound / pinned markers."""
    if cover not in TIERS:
        raise _bad("--cover", f"{cover!r} is not one of {', '.join(TIERS)}")
    tier = shifted_tier(TIERS[cover], in_position=in_position, hidden=hidden, blast=blast)
    markers = small_arms_fire(attack_dice, defence_dice, tier)
    markers = Distribution(dict(sorted(markers.items())), markers.total)
    dmg = damage(attack_dice, defence_dice).reduced()
    dmg = Distribution(dict(sorted(dmg.items())), dmg.total)

    def fields(m: Markers) -> dict[str, Any]:
        return {"wounds": m.wounds, "pinned": m.pinned}

    doc: dict[str, Any] = {
        "ruleset": "open-rebellion",
        "tier": tier.name.lower().replace("_", "-"),
        "outcomes": _rows(markers, fields),
        "damage": _rows(dmg, lambda d: {"damage": d}),
    }
    _emit(
        doc,
        as_json,
        [("Markers", doc["outcomes"], ["wounds", "pinned"]), ("Damage", doc["damage"], ["damage"])],
    )


odds_app.command("infinity")(infinity)
odds_app.command("necromunda")(necromunda)
odds_app.command("open-rebellion")(open_rebellion)


def register(app: typer.Typer) -> None:
    app.add_typer(odds_app, name="odds")
