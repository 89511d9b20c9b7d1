"""Line-of-fire rulings on a loaded scenario, as people read them: the geometry's
answer read through the scenario's rule system (its registry entry's "ruling" part:
cover, a minimum visible patch, a unit's cover). `skirmish lof` prints them; the table
window shows them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from game.geometry import Sight, Table, sight
from game.geometry.table import MM_PER_INCH
from game.rules.cover import has_lof
from game.rules.registry import Ruleset
from game.scenario.scenario import Scenario
from game.scenario.tables import judged_table, left_out_of, table_from_scenario, with_models
from game.sequencer.sentences import named
from game.words import joined

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class LofRuling:
    """One ruling as people read it (and as the table's `Ruling` protocol asks)."""

    attacker: str
    target: str
    ruleset: str
    sight: Sight
    cover: str
    reason: str
    min_patch_mm: float = 0.0  # the smallest patch of silhouette that gives LoF (0: any)
    unit: str | None = None  # whose cover it is where the rules give it to the unit
    unit_word: str = "unit"  # what the rule system calls a unit ("squad")
    pieces: tuple[str, ...] = ()  # what gives the cover (ids; none where there is none)
    unit_unseen: bool = False  # the shooter sees no model of the unit (said out of sight)
    rules_reason: str | None = None  # --json's `reason` where the words say more (None: same)
    # why there is no shot, by ids, where the attacker or the target is off the table
    # (a fighter Out of Action: "orlock-leader is out of action"); None: none
    no_shot: str | None = None
    # the models in the way that the shot is judged without, as the game judges it, each
    # with why ("orlock-ganger-1", "pinned"): they hide nothing and give no cover
    hides_nothing: tuple[tuple[str, str], ...] = ()
    # why the engine refuses a shot line of fire allows, in its words by ids (in one system
    # a fighter prone in cover: "orlock-ganger-1 is hidden: prone and in cover"); the
    # sight and cover still ruled and said below it; None: the engine takes the shot
    refused: str | None = None
    # the attacker, outside whose arc the target is now, may still turn to face it as it
    # activates (the engine turns it as it shoots): the sight is ruled with it turned
    turns: bool = False

    @property
    def out_of_sight(self) -> bool:
        """The shooter sees none of whose cover it is: the target, or its unit where the
        rules give the unit its cover."""
        return self.unit_unseen if self.unit else not self.sight.clear

    @property
    def lof(self) -> bool:
        if self.no_shot:  # off the table: nothing there to see or be seen
            return False
        return has_lof(self.sight, self.min_patch_mm) if self.min_patch_mm else self.sight.lof

    @property
    def sliver_only(self) -> bool:
        """A clear sight line exists but less than the minimum patch is seen."""
        return self.sight.in_arc and self.sight.clear and not self.lof

    @property
    def in_arc(self) -> bool:
        return self.sight.in_arc

    @property
    def witness(self) -> tuple[Point, Point] | None:
        w = self.sight.witness
        return None if w is None else ((w.start.x, w.start.y), (w.end.x, w.end.y))

    @property
    def blockers(self) -> tuple[str, ...]:
        return self.sight.blockers

    @property
    def visible_fraction(self) -> float:
        return self.sight.visible_fraction if self.sight.clear else 0.0

    @property
    def distance(self) -> float:
        return self.sight.distance

    def to_json(self, scenario: Scenario | None = None) -> dict[str, Any]:
        """The ruling as `lof --json` prints it; with the `scenario` ruled on, also who
        is in cover and what gives it, by id and by name (`cover_of`)."""
        w = self.sight.witness
        doc = {
            "attacker": self.attacker,
            "target": self.target,
            "ruleset": self.ruleset,
            "lof": self.lof,
            "in_arc": self.in_arc,
            "clear_sight_line": self.sight.clear,
            "witness": None
            if w is None
            else {
                "from": [round(w.start.x, 6), round(w.start.y, 6), round(w.start.z, 6)],
                "to": [round(w.end.x, 6), round(w.end.y, 6), round(w.end.z, 6)],
            },
            "blockers": list(self.blockers),
            "visible_fraction": round(self.visible_fraction, 4),
            "visible_patch_mm": round(self.sight.visible_patch * MM_PER_INCH, 2),
            "hidden_by": list(self.sight.hidden_by),
            "cover": self.cover,
            "reason": self.reason if self.rules_reason is None else self.rules_reason,
            "said": self.reason,  # the reason as the words say it, by ids (may say more)
            "distance": round(self.distance, 4),
            "no_shot": self.no_shot or self.refused,
            "hides_nothing": [{"id": m, "why": why} for m, why in self.hides_nothing],
        }
        doc = doc if scenario is None else {**doc, **self.cover_of(scenario)}
        if self.no_shot:
            return self._not_applicable(doc, scenario)
        if self.refused and scenario is not None:  # why by name, the ruling kept
            from game.scenario.names import table_names

            doc["no_shot"] = named(self.refused, table_names(scenario))
        return doc

    def _not_applicable(self, doc: dict[str, Any], scenario: Scenario | None) -> dict[str, Any]:
        """Where there is no shot (one of the two off the table), the ruling of sight and
        cover does not apply: those fields are null (the lists empty), as the words leave
        them out, and `no_shot` says why by the names the words use where the `scenario`
        is at hand ("Escher ganger 2 is out of action"; tester15 finding 11: by id, beside
        a full ruling of a fighter Out of Action seen 100%)."""
        empty = {"blockers", "hidden_by", "cover_from", "hides_nothing"}
        kept = {"attacker", "target", "ruleset", "lof", "no_shot", "attacker_name", "target_name"}
        out: dict[str, Any] = {
            k: ([] if k in empty else v if k in kept else None) for k, v in doc.items()
        }
        if scenario is not None:
            from game.scenario.names import table_names

            out["no_shot"] = named(str(self.no_shot), table_names(scenario))
        return out

    def cover_of(self, scenario: Scenario) -> dict[str, Any]:
        """Whose cover it is, from whose view, and what gives it, as the words say them:
        the shooter's and the target's names, `cover_of` the model in cover (or its unit,
        where the rules give the unit its cover, `kind` what the system calls it) and
        `cover_from` each piece of scenery (or model) giving it, by id, name and kind;
        `out_of_sight` where the shooter sees none of whose cover it is (`cover` keeps
        the level the rules read, "open" for a squad seen by no one where the rules say)."""
        from game.scenario.names import table_names

        names = table_names(scenario)
        kinds = {p.id: str(p.kind) for p in scenario.scenery}
        whose = self.unit or self.target

        def named(ref: str, kind: str) -> dict[str, str]:
            return {"id": ref, "name": names.get(ref, ref), "kind": kind}

        return {
            "attacker_name": names.get(self.attacker, self.attacker),
            "target_name": names.get(self.target, self.target),
            "cover_of": named(whose, self.unit_word if self.unit else "model"),
            "cover_from": [named(p, kinds.get(p, "model")) for p in self.pieces],
            "out_of_sight": self.out_of_sight,
        }

    def _visible_share(self) -> str:
        """The share seen, never "0%" or "100%" beside a part seen or hidden."""
        s, share = self.sight, self.visible_fraction
        notes = [f"the rest hidden by {joined(s.hidden_by)}"] if s.hidden_by and s.clear else []
        if s.clear and share < 0.005:
            notes = ["a sliver", *notes]
        text = share_text(share, s.clear, hidden=bool(s.hidden_by) and s.clear)
        return f"{text} ({'; '.join(notes)})" if notes else text

    def lines(self) -> list[str]:
        """The ruling in words, one fact a line (where there is no shot, only why)."""
        if self.no_shot:
            return [
                f"{self.attacker} -> {self.target} ({self.ruleset})",
                f"no shot: {self.no_shot}",
            ]
        s = self.sight
        verdict = "yes" if self.lof else "no"
        why = ""
        if self.turns:  # ruled turned: the arc is why it must turn, not why it sees not
            verdict = "yes once it turns (outside its arc now)" if self.lof else "no, even turned"
        if not s.in_arc:
            why = " (target outside the attacker's arc)"
        elif not s.clear:
            why = f" (blocked by {joined(s.blockers, 'scenery')})"
        elif self.sliver_only:
            seen = s.visible_patch * MM_PER_INCH
            size = f"{self.min_patch_mm:g}x{self.min_patch_mm:g} mm"
            why = f" (only a sliver seen: largest patch {seen:.1f} mm, needs {size})"
        out = [f"{self.attacker} -> {self.target} ({self.ruleset})"]
        if self.refused:  # the engine refuses the shot: first, above what sight allows
            out.append(f"no shot: {self.refused}")
        out.append(f"line of fire: {verdict}{why}")
        out.append(f"in arc: {'once it turns' if self.turns else 'yes' if s.in_arc else 'no'}")
        if s.witness is not None:
            a, b = s.witness.start, s.witness.end
            start = f'({a.x:.2f}, {a.y:.2f}) at {a.z:.2f}"'
            out.append(f'witness: {start} -> ({b.x:.2f}, {b.y:.2f}) at {b.z:.2f}"')
        out.append(f"visible: {self._visible_share()}")
        out.append(f"cover: {self.reason}")
        if self.hides_nothing:  # in the way, yet the game counts them not: said why
            who = joined([f"{m} ({why})" for m, why in self.hides_nothing])
            out.append(f"{'hides' if len(self.hides_nothing) == 1 else 'hide'} nothing: {who}")
        out.append(f'distance: {self.distance:.2f}" edge to edge')
        return out


def share_text(share: float, seen: bool, hidden: bool = True) -> str:
    """A visible share in words: "under 1%" when some of it is `seen` yet rounds to
    0%, "over 99%" when some is `hidden` yet rounds to 100%, else the percentage."""
    if seen and share < 0.005:
        return "under 1%"
    if hidden and share >= 0.995:
        return "over 99%"
    return f"{share:.0%}"


def rule(scenario: Scenario, table: Table, attacker: str, target: str) -> LofRuling:
    """The ruling for one attacker and one target under the scenario's rule system."""
    rs: Ruleset = scenario.ruleset
    arc, block = rs.arc_degrees, rs.models_block
    why = no_shot(scenario, attacker, target)  # one off the table: asked all the same
    # the table as the engine judges this shot on it: the models its sight leaves out gone
    gone = left_out_of(scenario, attacker, target)
    whole = table
    table = judged_table(table, scenario, attacker, target, gone)
    s = sight(table, attacker, target, arc_degrees=arc, models_block=block)
    passed: tuple[tuple[str, str], ...] = ()
    if gone and block and not why:  # those of them that would be in the way, counted
        counted = with_models(whole, scenario, (attacker, target, *gone))
        was = sight(counted, attacker, target, arc_degrees=arc, models_block=block)
        in_way = {*was.hidden_by, *was.blockers}
        passed = tuple((m, said) for m, said in gone.items() if m in in_way)
    read = rs.load("ruling")
    if read is None:
        raise ValueError(f"{rs.title} has no line-of-fire ruling")

    def sight_of(model: str) -> Sight:
        return sight(table, attacker, model, arc_degrees=arc, models_block=block)

    found = read(table, s, dict(scenario.rule_values), sight_of)
    ruled = LofRuling(attacker, target, rs.name, s, found.level, found.reason, found.min_patch_mm,
                      found.unit, found.unit_word, found.pieces, found.unit_unseen,
                      found.rules_reason, why, passed)  # fmt: skip
    refuse, cover = rs.load("refused"), rs.load("cover")
    if why or refuse is None or cover is None or not ruled.lof:
        return ruled
    # the engine's own check, on the cover its sighting reads off this very sight
    level, _ = cover(table, s, dict(scenario.rule_values))
    return replace(ruled, refused=refuse(target, scenario.model(target).state, level))


def no_shot(scenario: Scenario, attacker: str, target: str) -> str | None:
    """Why there is no shot between the two where one is off the table, else None."""
    return off_table(scenario, attacker) or off_table(scenario, target)


def off_table(scenario: Scenario, model: str) -> str | None:
    """Where the model is off the table (a state of its rule system's `off_table`), that
    in words by its id ("orlock-leader is out of action"), else None."""
    state = scenario.model(model).state
    if state is None or state not in scenario.ruleset.off_table:
        return None
    return f"{model} is {state.replace('-', ' ')}"


class LofProvider:
    """The line-of-fire engine as a ruling provider for the interactive table."""

    name = "line of fire"
    engine_loaded = True

    def __init__(self) -> None:
        self._tables: dict[int, tuple[Scenario, Table]] = {}

    def _table(self, scenario: Scenario) -> Table:
        cached = self._tables.get(id(scenario))
        if cached is None or cached[0] is not scenario:
            cached = (scenario, table_from_scenario(scenario))
            self._tables = {id(scenario): cached}
        return cached[1]

    def rule(self, scenario: Scenario, shooter_id: str, target_id: str) -> LofRuling:
        return rule(scenario, self._table(scenario), shooter_id, target_id)

    def describe(self, scenario: Scenario, ruling: Any) -> list[str]:
        if isinstance(ruling, LofRuling):
            return ruling.lines()[1:]
        return [str(ruling.reason)]
