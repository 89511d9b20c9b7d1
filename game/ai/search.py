"""A search player on the game's own forward model, shared by every rule system.

The engine's `apply(state, declaration, rng=...)` is pure and exact for a given dice
stream, so the player looks ahead by playing: each candidate declaration (a system's
module proposes a few, with a cheap prior) is applied with a sampled dice stream, the
game is played on up to a horizon the system names (the end of an Order, or the
opponent's next activation) and the position there is scored by the system's weighted
evaluation (weights as data, `game/ai/weights/`). In the lookahead the opponent's
declarations come from `reply_policy` (its likely replies: a system may name its careful
player, the window's computer opponent) and our own later ones from `own_policy`; both
are deterministic, so their answers are kept by position for the decision (`Remembered`:
a move rolls no dice and a shot has a few outcomes, so a dearer policy is asked little).

Why sampled lookahead and not full MCTS rollouts: one step of the forward model costs
about 1-5 ms (line-of-fire geometry), so half a second buys 100-200 steps; rollouts to
the end of a game (50-90 declarations) would give two or three per decision. Short
horizons with an evaluation spend the budget on the decision at hand. The chance
nodes are sampled, not enumerated: `apply` takes a dice stream, not an outcome list.
Candidates share their dice streams (common random numbers), so luck cancels out of
their comparison, and sequential halving spreads the budget over them: every survivor
gets the same samples each round, the worse half is dropped, until one is left.

Budget: `budget` counts forward-model steps (declarations applied in the lookahead).
It is the primary control because it makes a choice the same on every machine: the
same seed and position always give the same declaration. `think` (seconds) is turned
into steps at the system's calibrated rate (`steps_per_second` in its weights file,
measured on a 2-core machine): it is an upper bound on this machine, never a clock
read during the search, so a playtest with the same seeds gives the same results
anywhere. With both, the smaller wins.

A budget below `light_below` (weights file) weighs only the fast policy's choice and the
passes: candidates cost sightings too, and playtests want many quick games. A budget of
one step weighs nothing: the fast policy's choice if the engine accepts it, else a pass.

Luck: a system that knows the exact odds of a declaration's dice says how much better
the sampled result is than its expectation (`luck`), and that is taken off the sample
(a control variate: the same mean, far less spread), for the candidate and for every
declaration of the lookahead. `split_dice` (weights file) gives the candidate its own
dice stream, so the rollout after every candidate rolls the same dice.

The default choice: a system may name one (its careful player's), which stays among the
candidates to the end and is kept unless the best candidate's lead over it, on the
samples both drew with the same dice, is more than `deviate_z` (weights file) standard
errors of their difference: the search departs from the careful choice only where it
sees clearly further.

Never stalls: a candidate the engine refuses (IllegalDeclaration on `apply`) is
dropped; if none is left the fast policy's choice is tried, then the system's passes
(end the turn, end the activation); the answer returned has been applied once."""

from __future__ import annotations

import contextlib
import hashlib
import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar, Protocol

import numpy as np

from game.errors import IllegalDeclaration
from game.scenario.model import TEMPERAMENTS
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.state import GameState

# What a lookahead treats as "the engine cannot take this": its refusal, and the errors
# an engine fault would raise (declaring such a candidate would fail the real game too).
REFUSED = (IllegalDeclaration, KeyError, ValueError, AssertionError)


class Policy(Protocol):
    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration: ...


class Remembered:
    """A deterministic policy whose answers are kept by position for one decision: the
    lookahead meets the same position again and again (a move rolls no dice; a shot has
    a few outcomes), so a dearer policy (the careful player) costs little more than a
    look-up after its first answer there. `forget()` empties it (each decision)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.known: dict[tuple[GameState, Awaiting], Declaration] = {}

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        key = (state, awaiting)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self.policy.choose(state, awaiting)
        return found

    def forget(self) -> None:
        self.known.clear()


@dataclass(frozen=True, slots=True)
class Weights:
    """One temperament's weights for a system: `values` by name (from its TOML file)
    and the search settings (`search`: default budget, steps per second, ...)."""

    system: str
    temperament: str
    values: dict[str, float]
    search: dict[str, float]

    def __getitem__(self, name: str) -> float:
        return self.values[name]


def load_weights(system: str, temperament: str = "balanced") -> Weights:
    """The weights in game/ai/weights/<system>.toml: its [balanced] table, with the
    temperament's table laid over it, and its [search] settings."""
    if temperament not in TEMPERAMENTS:
        raise IllegalDeclaration(
            f"no temperament {temperament!r} (one of {', '.join(TEMPERAMENTS)})"
        )
    text = resources.files("game.ai").joinpath("weights", f"{system}.toml").read_text("utf-8")
    raw: dict[str, Any] = tomllib.loads(text)
    values = {k: float(v) for k, v in raw.get("balanced", {}).items()}
    values.update({k: float(v) for k, v in raw.get(temperament, {}).items()})
    search = {k: float(v) for k, v in raw.get("search", {}).items()}
    return Weights(system, temperament, values, search)


# The most a decision may be given: an hour of thinking, ten million forward-model steps
# (the commands refuse less already; this is the guard below them for every caller).
MAX_THINK = 3600.0
MAX_BUDGET = 10_000_000


def step_budget(weights: Weights, budget: int | None, think: float | None) -> int:
    """Forward-model steps per decision: `budget`, `think` seconds at the calibrated
    rate, the smaller of the two, or the weights' default; at least 1. A `think` or
    `budget` that is not a number, negative, infinite or absurdly large is refused."""
    limits = []
    if budget is not None:
        if not (isinstance(budget, int | float) and math.isfinite(budget)):
            raise IllegalDeclaration(
                f"the search budget must be a whole number of steps, not {budget}"
            )
        if not 0 <= budget <= MAX_BUDGET:
            raise IllegalDeclaration(
                f"the search budget must be from 0 to {MAX_BUDGET:,} steps, not {budget:g}"
            )
        limits.append(int(budget))
    if think is not None:
        if not (isinstance(think, int | float) and math.isfinite(think)):
            raise IllegalDeclaration(f"think must be a number of seconds, not {think}")
        if not 0 <= think <= MAX_THINK:
            raise IllegalDeclaration(
                f"think must be from 0 to {MAX_THINK:g} seconds, not {think:g}"
            )
        limits.append(int(think * weights.search["steps_per_second"]))
    if not limits:
        limits.append(int(weights.search["budget"]))
    return max(1, min(limits))


def digest(state: GameState, awaiting: Awaiting) -> int:
    """A stable number for a position (the same in every process: no hash())."""
    parts = [str(state.turn), state.active, awaiting.kind, ",".join(awaiting.models)]
    for m in state.models:
        parts.append(
            f"{m.id}:{m.at[0]:.4f}:{m.at[1]:.4f}:{m.facing:.2f}:{m.status}:{m.wounds}:"
            f"{m.markers}:{sorted(m.flags)}"
        )
    h = hashlib.blake2b("|".join(parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "little")


@dataclass(slots=True)
class Candidate:
    declaration: Declaration
    prior: float
    total: float = 0.0
    samples: int = 0
    values: dict[int, float] = field(default_factory=dict)  # by dice sample
    default: bool = False  # the system's default choice (kept unless clearly beaten)

    @property
    def mean(self) -> float:
        return self.total / self.samples if self.samples else -math.inf

    def score(self, prior_weight: float) -> float:
        """The sampled mean, plus the prior (an exact expectation where the system has
        one) at `prior_weight`: few samples of a high-variance exchange are noisy."""
        return self.mean + prior_weight * self.prior


class SearchPlayer:
    """Sampled lookahead over a system's candidates (see the module's note).

    A system's subclass sets `SYSTEM` (its weights file) and gives `candidates`,
    `evaluate`, `horizon`, `rollout_policy` and `passes`."""

    SYSTEM = ""
    OPTION_VALUES: ClassVar[dict[str, tuple[str, ...]]] = {"temperament": TEMPERAMENTS}

    def __init__(
        self,
        engine: Engine,
        *,
        temperament: str = "balanced",
        think: float | None = None,
        budget: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.engine = engine
        self.weights = load_weights(self.SYSTEM, temperament)
        self.temperament = temperament
        self.budget = step_budget(self.weights, budget, think)
        self.think = think  # as given: a save records it, and it gives the same budget back
        self.seed = 0 if seed is None else int(seed)
        self.rollout = self.rollout_policy()
        # the opponent's replies in a lookahead: the system's likely opponent (at least
        # as good as the rollout), remembered by position for the decision
        self.replies = Remembered(self.reply_policy())
        self.mine = Remembered(self.own_policy())  # our own declarations in a lookahead
        self.steps = 0  # forward-model steps spent on the last choice (for benchmarks)

    @property
    def expected_seconds(self) -> float:
        """About how long a choice takes on a 2-core machine (the budget at the rate)."""
        return self.budget / self.weights.search["steps_per_second"]

    # -- what a system gives ---------------------------------------------------------

    def rollout_policy(self) -> Policy:
        raise NotImplementedError

    def reply_policy(self) -> Policy:
        """The policy that plays the opponent's declarations in a lookahead (its likely
        replies); the rollout policy unless a system names a stronger one."""
        return self.rollout

    def own_policy(self) -> Policy:
        """The policy that plays our own declarations after the candidate in a lookahead
        (the rest of the Order or activation); the rollout policy unless a system names
        another."""
        return self.rollout

    def candidates(self, state: GameState, awaiting: Awaiting) -> list[tuple[Declaration, float]]:
        """Declarations worth weighing, each with a cheap prior (higher: looks better)."""
        raise NotImplementedError

    def horizon(self, root: GameState, root_awaiting: Awaiting, state: GameState) -> bool:
        """True when the lookahead from `root` should stop at `state` and evaluate it."""
        raise NotImplementedError

    def evaluate(self, state: GameState, side: str) -> float:
        """How good `state` is for `side` (the weights' units: points of models)."""
        raise NotImplementedError

    def passes(self, state: GameState, awaiting: Awaiting) -> list[Declaration]:
        """Declarations that give up the step (end the turn or activation, no ARO)."""
        raise NotImplementedError

    def luck(
        self, state: GameState, declaration: Declaration, after: GameState, side: str
    ) -> float:
        """How much better `after` (a declaration of the lookahead applied with sampled
        dice) is for `side` than that declaration's exact expectation: taken off the
        sample's value (a control variate), so that the dice of the shots themselves do
        not decide between candidates. Zero where a system has no exact expectation."""
        return 0.0

    def won(self, state: GameState, side: str) -> float:
        """A finished game's worth to `side` beyond its models: the weights' `win` for a
        win, less for a loss, nothing for a draw or a game still on."""
        if not state.finished or state.winner is None:
            return 0.0
        return self.weights["win"] if state.winner == side else -self.weights["win"]

    # -- the search ------------------------------------------------------------------

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        side = awaiting.side
        assert side is not None, "nothing to choose: the game is over"
        self.steps = 0
        self.forget()
        if self.budget < self.weights.search.get("light_below", 8):
            found = self._dedupe(self._light(state, awaiting))
        else:
            found = self._dedupe(self.candidates(state, awaiting))
        rng = np.random.default_rng([self.seed, digest(state, awaiting)])
        keep = int(self.weights.search.get("candidates", 12))
        found.sort(key=lambda c: -c.prior)
        if self.weights.search.get("deviate_z", 0) > 0 and self.budget > 1:
            found = self._with_default(state, awaiting, found)
        found = found[:keep]
        if len(found) == 1 or self.budget <= 1:
            # nothing to weigh, or no budget to weigh it with: the first the engine accepts
            for c in found:
                self.steps += 1
                if self._legal(state, c.declaration):
                    return c.declaration
            return self._fallback(state, awaiting)
        best = self._halving(state, awaiting, side, found, rng) if found else None
        if best is not None:
            return best
        return self._fallback(state, awaiting)

    def forget(self) -> None:
        """Drop what was kept for the last decision (a system may keep more)."""
        self.replies.forget()
        self.mine.forget()

    def default_choice(self, state: GameState, awaiting: Awaiting) -> Declaration | None:
        """The choice the search keeps unless another candidate is clearly better (by
        more than the noise of their difference): a system's careful player, or None."""
        return None

    def _with_default(
        self, state: GameState, awaiting: Awaiting, found: list[Candidate]
    ) -> list[Candidate]:
        """`found` with the default choice marked and first (added if missing)."""
        try:
            choice = self.default_choice(state, awaiting)
        except (IllegalDeclaration, ValueError, AssertionError):
            choice = None
        if choice is None:
            return found
        key = repr(choice.to_dict())
        for c in found:
            if repr(c.declaration.to_dict()) == key:
                c.default = True
                return [c, *(o for o in found if o is not c)]
        return [Candidate(choice, max((c.prior for c in found), default=0.0), default=True), *found]

    def _pick(self, survivors: list[Candidate], lean: float) -> Candidate:
        """The best survivor by score, unless the default is among them and the best's
        lead over it (on the samples both drew, common dice) is within `deviate_z`
        standard errors of that difference: then the default."""
        survivors.sort(key=lambda c: (-c.score(lean), -c.prior))
        best = survivors[0]
        z = self.weights.search.get("deviate_z", 0)
        base = next((c for c in survivors if c.default), None)
        if base is None or best is base or z <= 0:
            return best
        common = sorted(set(best.values) & set(base.values))
        if len(common) < 2:
            return base
        diffs = np.array([best.values[k] - base.values[k] for k in common])
        lead = float(diffs.mean()) + lean * (best.prior - base.prior)
        noise = float(diffs.std(ddof=1)) / math.sqrt(len(diffs))
        return best if lead > z * noise else base

    def _light(self, state: GameState, awaiting: Awaiting) -> list[tuple[Declaration, float]]:
        """With a budget too small to weigh the full candidates: the fast policy's choice
        and the passes, weighed by the same lookahead."""
        out: list[tuple[Declaration, float]] = []
        with contextlib.suppress(IllegalDeclaration, ValueError, AssertionError):
            out.append((self.rollout.choose(state, awaiting), 1.0))
        out.extend((p, 0.0) for p in self.passes(state, awaiting))
        return out

    @staticmethod
    def _dedupe(pairs: Sequence[tuple[Declaration, float]]) -> list[Candidate]:
        seen: dict[str, Candidate] = {}
        for declaration, prior in pairs:
            key = repr(declaration.to_dict())
            if key not in seen or prior > seen[key].prior:
                seen[key] = Candidate(declaration, prior)
        return list(seen.values())

    def _legal(self, state: GameState, declaration: Declaration) -> bool:
        try:
            self.engine.apply(state, declaration, rng=np.random.default_rng(0))
        except REFUSED:
            return False
        return True

    def _fallback(self, state: GameState, awaiting: Awaiting) -> Declaration:
        options: list[Declaration] = []
        with contextlib.suppress(IllegalDeclaration, ValueError, AssertionError):
            options.append(self.rollout.choose(state, awaiting))
        options.extend(self.passes(state, awaiting))
        for declaration in options:
            if self._legal(state, declaration):
                return declaration
        raise IllegalDeclaration(f"no legal declaration for {awaiting.side} ({awaiting.kind})")

    def _halving(
        self,
        state: GameState,
        awaiting: Awaiting,
        side: str,
        found: list[Candidate],
        rng: np.random.Generator,
    ) -> Declaration | None:
        """Sequential halving with common dice streams; None if every candidate is refused.
        Never more than the budget: a lookahead stops (and is scored) when the steps run
        out, and candidates left unsampled then drop out."""
        # as many candidates (best priors first) as the budget can sample about once each
        fit = max(2, int(self.budget // self.weights.search.get("sample_steps", 4)))
        survivors = list(found[:fit])
        lean = self.weights.search.get("prior_weight", 0.0)
        rounds = max(1, math.ceil(math.log2(len(survivors)))) if len(survivors) > 1 else 1
        seeds = rng.integers(0, 2**63 - 1, size=4096)
        used = 0  # samples drawn so far: the same dice seeds for every survivor
        for r in range(rounds):
            share = (self.budget - self.steps) / (rounds - r)
            spent = 0
            while True:
                before = self.steps
                k = used
                dice = int(seeds[used % len(seeds)])
                used += 1
                for c in list(survivors):
                    if self.steps >= self.budget:
                        break
                    value = self._sample(state, awaiting, side, c.declaration, dice)
                    if value is None:
                        survivors.remove(c)
                        continue
                    c.total += value
                    c.samples += 1
                    c.values[k] = value
                survivors = [c for c in survivors if c.samples]
                if not survivors:
                    return None  # every one refused (a refusal costs no step)
                cost = self.steps - before
                spent += cost
                # another sweep only if it fits in this round's share
                if spent + cost > share or self.steps + cost > self.budget:
                    break
            if len(survivors) == 1 or self.steps >= self.budget:
                break
            survivors.sort(key=lambda c: (-c.score(lean), -c.prior))
            half = survivors[: max(1, math.ceil(len(survivors) / 2))]
            # the default choice stays to the end (the final pick weighs it)
            survivors = half + [c for c in survivors if c.default and c not in half]
        return self._pick(survivors, lean).declaration

    def _sample(
        self, state: GameState, awaiting: Awaiting, side: str, declaration: Declaration, dice: int
    ) -> float | None:
        """One lookahead: the candidate, then the fast policy to the horizon; its value
        for `side`, or None if the engine refuses the candidate."""
        rng = np.random.default_rng(dice)
        if self.weights.search.get("split_dice", 0):
            # the candidate's own dice apart from the rollout's: whatever dice a candidate
            # rolls, the replies after it roll the same ones as after the other candidates
            first = np.random.default_rng([dice, 1])
        else:
            first = rng
        try:
            now, _ = self.engine.apply(state, declaration, rng=first)
        except REFUSED:
            return None
        self.steps += 1
        luck = self.luck(state, declaration, now, side)
        limit = int(self.weights.search.get("depth", 40))
        for _ in range(limit):
            if self.steps >= self.budget or now.finished or self.horizon(state, awaiting, now):
                break
            try:
                waiting = self.engine.awaiting(now)
                policy = self.mine if waiting.side == side else self.replies
                step = policy.choose(now, waiting)
                before, (now, _) = now, self.engine.apply(now, step, rng=rng)
            except REFUSED:
                break
            self.steps += 1
            luck += self.luck(before, step, now, side)
        return self.evaluate(now, side) - luck


def cover_spots(
    setup: Any,
    at: tuple[float, float],
    reach: float,
    radius: float,
    *,
    every: float = 1.0,
    gap: float = 0.05,
) -> list[tuple[float, float]]:
    """Points a base of `radius` could stand on in contact with a scenery piece (its
    edge `gap` inches from the piece), within `reach` of `at` as the crow flies, about
    `every` inches apart along each piece and inside the table: where cover is to be had."""
    import shapely

    width, depth = setup.header.table
    out: list[tuple[float, float]] = []
    for piece in setup.scenery:
        ring = shapely.Polygon(piece.footprint).buffer(radius + gap, quad_segs=2).exterior
        n = max(4, int(ring.length / every))
        pts = shapely.get_coordinates(ring.interpolate(np.linspace(0, ring.length, n, False)))
        for x, y in pts:
            if math.dist((x, y), at) > reach:
                continue
            if radius <= x <= width - radius and radius <= y <= depth - radius:
                out.append((round(float(x), 3), round(float(y), 3)))
    return out


def reply_done(
    root: GameState,
    state: GameState,
    side: str,
    ready: Callable[[GameState, str], int],
    busy: Callable[[GameState], bool],
) -> bool:
    """A horizon for systems of alternating activations: stop once the opponent has
    finished one activation after ours (its likely reply), at the end of the round, or
    when ours is done and the opponent has nothing left to activate."""
    if state.turn != root.turn:
        return True
    if busy(state):
        return False
    other = root.other_side(side)
    if ready(state, other) < ready(root, other):
        return True
    mine_done = busy(root) or ready(state, side) < ready(root, side)
    return mine_done and ready(state, other) == 0


class Detours:
    """Routes for a base around the solid scenery, for moves toward a point that a
    straight line cannot reach (an objective behind a building): the shortest path
    through the corners of the pieces, each grown by the base's radius and a little more
    (a visibility graph; the corner-to-corner legs are found once per radius, the
    scenery never moves). The corners are mitred, so a leg from one to the next runs
    along the piece's side a GAP clear of the base's reach. Models are not avoided
    here: the engine's own path check refuses a route through one, and the caller
    drops it."""

    GAP = 0.1  # how far the corners stand off the pieces, beyond the radius

    def __init__(self, setup: Any) -> None:
        self.setup = setup
        self._graphs: dict[float, tuple[Any, list[tuple[float, float]], list[list[int]]]] = {}

    def _graph(self, radius: float) -> tuple[Any, list[tuple[float, float]], list[list[int]]]:
        import shapely

        if radius in self._graphs:
            return self._graphs[radius]
        width, depth = self.setup.header.table
        pieces = [shapely.Polygon(p.footprint) for p in self.setup.scenery if p.kind.solid]
        # a leg is blocked where it passes within the radius of a piece (less a hair, so
        # that the corners, a GAP out, are reached); the corners stand a GAP further out
        block = shapely.union_all([p.buffer(radius - 0.01, quad_segs=2) for p in pieces])
        shapely.prepare(block)
        corners: list[tuple[float, float]] = []
        for p in pieces:
            grown = p.buffer(radius + self.GAP, join_style="mitre", mitre_limit=3.0)
            for x, y in grown.exterior.coords[:-1]:
                inside = radius <= x <= width - radius and radius <= y <= depth - radius
                if inside and not block.contains(shapely.Point(x, y)):
                    corners.append((round(float(x), 3), round(float(y), 3)))
        n = len(corners)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        legs = shapely.linestrings([[corners[i], corners[j]] for i, j in pairs]) if pairs else []
        clear = ~shapely.intersects(block, legs) if pairs else []
        near: list[list[int]] = [[] for _ in range(n)]
        for (i, j), ok in zip(pairs, clear, strict=True):
            if ok:
                near[i].append(j)
                near[j].append(i)
        self._graphs[radius] = (block, corners, near)
        return self._graphs[radius]

    def route(
        self, start: tuple[float, float], goal: tuple[float, float], radius: float
    ) -> list[tuple[float, float]] | None:
        """The shortest route's points after `start`, `goal` last (one point when the
        straight line is clear), or None when no route reaches it."""
        import heapq

        import shapely

        block, corners, near = self._graph(radius)

        def clear(a: tuple[float, float], b: tuple[float, float]) -> bool:
            return not block.intersects(shapely.LineString([a, b]))

        if clear(start, goal):
            return [goal]
        n = len(corners)
        if not n:
            return None
        to_start = shapely.linestrings([[start, c] for c in corners])
        to_goal = shapely.linestrings([[c, goal] for c in corners])
        from_start = ~shapely.intersects(block, to_start)
        into_goal = ~shapely.intersects(block, to_goal)
        best = [math.inf] * n
        back = [-1] * n
        heap: list[tuple[float, int]] = []
        for i in range(n):
            if from_start[i]:
                best[i] = math.dist(start, corners[i])
                heapq.heappush(heap, (best[i], i))
        found, end = math.inf, -1
        while heap:
            d, i = heapq.heappop(heap)
            if d > best[i] or d >= found:
                continue
            if into_goal[i] and d + math.dist(corners[i], goal) < found:
                found, end = d + math.dist(corners[i], goal), i
            for j in near[i]:
                dj = d + math.dist(corners[i], corners[j])
                if dj < best[j]:
                    best[j], back[j] = dj, i
                    heapq.heappush(heap, (dj, j))
        if end < 0:
            return None
        path = [goal]
        i = end
        while i >= 0:
            path.append(corners[i])
            i = back[i]
        return path[::-1]


def along(
    start: tuple[float, float], path: list[tuple[float, float]], length: float
) -> list[tuple[float, float]]:
    """The first `length` inches of the route from `start` through `path`: its points
    up to there, the last one cut short where the length runs out."""
    out: list[tuple[float, float]] = []
    here, left = start, length
    for p in path:
        step = math.dist(here, p)
        if step >= left:
            f = left / step if step > 0 else 0.0
            out.append((here[0] + (p[0] - here[0]) * f, here[1] + (p[1] - here[1]) * f))
            return out
        out.append(p)
        left -= step
        here = p
    return out
