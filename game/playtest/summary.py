"""What a batch of recorded games adds up to, as one JSON-ready document, and what it
says in words: whether the table favours a side, and with the sides' players exchanged
per seed, whether one player is the better.

Shares of decided games (draws left out) carry the 95% Wilson interval; a side or a
player is said to have the edge only when the whole interval lies above an even share."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from game.playtest.batch import Share, summarize
from game.playtest.record import GameRecord
from game.sequencer.sentences import joined, limit_said, named, plural


def side_called(side: str, names: Mapping[str, str] | None) -> str:
    """A side in a table people read: its name, once ("House Orlock"; the id `orlock`,
    which --ai takes, is said where --ai is refused: players.sides_taken)."""
    return (names or {}).get(side, side)


def pct(share: Share) -> str:
    return f"{share.share:.0%} [{share.low:.0%}, {share.high:.0%}]"


def side_shares(records: Sequence[GameRecord], sides: Sequence[str]) -> dict[str, Share]:
    """Each side's share of the decided games."""
    decided = [r for r in records if r.winner is not None]
    won = Counter(r.winner for r in decided)
    return {s: Share(won.get(s, 0), len(decided)) for s in sides}


def player_shares(records: Sequence[GameRecord]) -> dict[str, Share]:
    """Each player's share of the decided games it played in (games between two copies
    of the same player are left out: they say nothing of skill)."""
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r in records:
        names = set(r.players.values())
        if r.winner is None or len(names) < 2:
            continue
        played.update(names)
        won[r.players[r.winner]] += 1
    return {name: Share(won[name], played[name]) for name in sorted(played)}


def verdict(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    swap: bool,
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """Sentences a designer reads: the side's edge, and the players' when they differ
    (`names`: each side's name, as the scenario gives it; else its id)."""
    out: list[str] = []
    decided = sum(1 for r in records if r.winner is not None)
    if not decided:
        return ["No game was decided: every one was a draw."]
    even = 1 / len(sides)
    shares = side_shares(records, sides)
    best = max(sides, key=lambda s: shares[s].share)
    called = (names or {}).get(best, best)
    whichever = " whichever player it has" if swap else ""
    of = "the one decided game" if decided == 1 else f"the {decided} decided games"
    if shares[best].low > even:
        out.append(f"The table favours {called}: it won {pct(shares[best])} of {of}{whichever}.")
    else:
        out.append(
            f"No side is shown to have the edge: {called} won {pct(shares[best])} of "
            f"{of}{whichever}."
        )
    players = player_shares(records)
    if len(players) >= 2:
        top = max(players, key=lambda p: players[p].share)
        if not swap:
            out.append(
                "The sides had different players and were not swapped, so a side's win "
                "rate mixes the table's edge with the players' skill (--swap separates them)."
            )
        elif players[top].low > 1 / len(players):
            out.append(
                f"{top} is the better player: it won {pct(players[top])} of the decided "
                "games it plays, whichever side it plays."
            )
        else:
            out.append(
                f"Neither player is shown to be better: {top} won {pct(players[top])} of "
                "the decided games it plays."
            )
    return out


# A model taken out within this many inches of a piece fell "near" it (else in the open).
NEAR = 2.0
OPEN = "in the open"  # where a model taken out stood with no piece within NEAR inches
Place = tuple[str, Sequence[tuple[float, float]]]  # a piece's name and its footprint


def why(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    names: Mapping[str, str] | None = None,
    places: Sequence[Place] = (),
    turn_word: str = "turn",
    model_word: str = "model",
) -> list[str]:
    """Where a designer looks for the cause of an edge, in sentences: how each side won
    (by which end), and for each side when its models were taken out (by turn: an edge
    from moving first shows in the first turn) and where (the piece each stood nearest,
    within NEAR inches, `places`; else in the open)."""
    from game.geometry.measures import footprint_gap

    called = names or {}
    out: list[str] = []
    for side in sides:
        won = [named(r.reason, called) if called else r.reason for r in records if r.winner == side]
        if won:
            ends = dict(Counter(won).most_common())
            out.append(f"How {side_called(side, called)} won: {how_games_ended(ends, turn_word)}.")
    for side in sides:
        fell = [c for r in records for c in r.casualties if c.side == side]
        if not fell:
            continue
        turns = Counter(c.turn for c in fell)
        when = ", ".join(f"{n} in {turn_word} {t}" for t, n in sorted(turns.items()))

        def near(at: tuple[float, float]) -> str:
            gaps = [(footprint_gap(corners, at), name) for name, corners in places]
            gap, name = min(gaps, default=(math.inf, ""))
            return f"near {name}" if gap <= NEAR else OPEN

        said = _where_said(Counter(near(c.at) for c in fell))
        lost = plural(len(fell), model_word)
        games = plural(len(records), "game")
        out.append(f"{side_called(side, called)} had {lost} taken out in {games}: {when}; {said}.")
    return out


def _where_said(where: Counter[str]) -> str:
    """Where a side's models were taken out, most first: those in the open, saying what
    that means (no piece within NEAR inches), and near each of the three pieces most
    taken out near; the rest as near the other pieces, counted ("733 near 5 other
    pieces": it said "733 elsewhere", which read as neither near a piece nor in the
    open)."""
    pieces = [(place, n) for place, n in where.most_common() if place != OPEN]
    parts = [(n, place) for place, n in pieces[:3]]
    if where[OPEN]:
        parts.append((where[OPEN], f'{OPEN} (no piece within {NEAR:g}")'))
    parts.sort(key=lambda part: -part[0])  # stable: the pieces' order where counts tie
    rest = pieces[3:]
    if rest:
        others = plural(len(rest), "other piece")
        parts.append((sum(n for _, n in rest), f"near {others}"))
    return joined([f"{n} {place}" for n, place in parts])


def summary_document(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    swap: bool,
    names: Mapping[str, str] | None = None,
    **run: Any,
) -> dict[str, Any]:
    """The batch as one JSON document: `run` (scenario, seed, workers...) first, then
    each side's name (`names`, as the scenario gives it), wins, win rate and interval,
    models lost and points, draws, length, how games ended (sentences calling sides and
    models by name, as the console does), each player's share when the players differ,
    and the verdict. The keys stay the sides' ids."""
    summary = summarize(records, sides)
    called = dict(names or {})
    decided = side_shares(records, sides)
    n = len(records)
    document: dict[str, Any] = dict(run)
    document.update(
        {
            "games": summary.games,
            "swap": swap,
            "seeds": len({r.seed for r in records}),
            "sides": {
                s: {
                    "name": called.get(s, s),
                    "wins": summary.wins[s].count,
                    "win_rate": summary.wins[s].share,
                    "interval95": [summary.wins[s].low, summary.wins[s].high],
                    "decided_share": decided[s].share,
                    "decided_interval95": [decided[s].low, decided[s].high],
                    "mean_down": summary.mean_down[s],
                    "mean_points": sum(r.points.get(s, 0) for r in records) / n if n else 0.0,
                    "objectives_held": sum(len(r.objectives.get(s, ())) for r in records),
                }
                for s in sides
            },
            "draws": {"count": summary.draws.count, "rate": summary.draws.share},
            "mean_turn": summary.mean_turn,
            # `names` itself: a dict of it loses the objectives held (ToldNames)
            "reasons": _named_counts(summary.reasons, names or {}),
            "players": {
                name: {
                    "decided_games": share.total,
                    "wins": share.count,
                    "share": share.share,
                    "interval95": [share.low, share.high],
                }
                for name, share in player_shares(records).items()
            },
            "verdict": verdict(records, sides, swap, names),
        }
    )
    return document


def how_games_ended(reasons: Mapping[str, int], turn_word: str = "turn") -> str:
    """The document's `reasons` as one phrase in the rule system's word for a turn
    (`turn_word`), each with its count of games: "round limit (4), decided by points of
    fighters still in the fight (3 games); House Escher has no fighter left standing or
    pinned (1 game)" (retest14: "...: points of ...: 3 games" chained colons)."""
    return "; ".join(f"{_end_said(r, turn_word)} ({plural(n, 'game')})" for r, n in reasons.items())


def _end_said(reason: str, turn_word: str) -> str:
    """An end reason as `how_games_ended` says it: at the limit, what decided it after a
    comma, not a colon ("turn limit (3), decided by points of troopers still able to
    act"); any other reason as the engine wrote it."""
    said = limit_said(reason, turn_word)
    limit, colon, decided = said.partition("): ")
    if colon and said.startswith(f"{turn_word} limit ("):
        return f"{limit}), decided by {decided}"
    return said


def speed_sentence(document: Mapping[str, Any]) -> str:
    """How long the batch took, said as what it is: the wall-clock time from the first
    game to the last (not CPU time) with the workers or the cluster that played it, and
    its pace: games a second, or, under one game a second, seconds a game ("4 games in
    99.2 s ...: 24.8 seconds a game", not "0.0 games a second")."""
    seconds = float(document["seconds"])
    games = int(document["games"])
    if document.get("scheduler"):
        on = f"on the cluster at {document['scheduler']}"
    else:
        on = f"with {plural(int(document.get('workers') or 1), 'worker')}"
    if seconds <= 0 or games <= 0:
        rate = ""
    elif games >= seconds:
        rate = f": {games / seconds:.1f} games a second"
    else:
        rate = f": {seconds / games:.1f} seconds a game"
    return f"{plural(games, 'game')} in {seconds:.1f} s of wall-clock time {on}{rate}."


def _named_counts(counts: Mapping[str, int], names: Mapping[str, str]) -> dict[str, int]:
    """Counts keyed by sentences, the sentences calling sides and models by name (two
    that read the same once named are one)."""
    out: Counter[str] = Counter()
    for text, n in counts.items():
        out[named(text, names) if names else text] += n
    return dict(out)
