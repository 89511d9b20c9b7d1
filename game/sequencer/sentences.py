"""Events as sentences people read: the one place that turns the sequencer's events
into words, asked by the window's dice log, `skirmish shoot` and `skirmish replay`.

`describe(event, ruleset)` asks the rule system's own sentences first (its registry
entry's "sentences" part, in its own terms: Orders and AROs, activations and
priority, squads and bangs), then the shared wording of the events in
game.sequencer.events. An event is taken as the object or as its saved JSON form
(`event_dict`), so a save file's log reads the same as a game in progress. None
means no one knows the event (the caller shows it as it is).

The helpers here (`who`, `listed`, `dice`, `inches`) keep every system's wording in
one style: model ids as names ("escher-ganger-1" -> "Escher ganger 1"), dice as
plain numbers, no field names, no `=` and no reprs. A model's name is its id made
readable (the scenario's ids are side, profile and number: "escher-ganger-1"); a side's
is the `name` the scenario gives it ("PanOceania"), else its id made readable. With the
table's names passed (`names_of(scenario)`), ids that an engine wrote into free text (a
roll's purpose, a reason) are named too: "Cool test to target escher-champion past
escher-ganger-2" reads "... Escher champion past Escher ganger 2". `--json` output keeps
the ids.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any, NamedTuple

from game.sequencer.events import Event, event_dict
from game.words import joined as joined  # the one joiner, said here as before

# An event in its JSON form: {"event": "Hit", "attacker": ..., ...}.
EventData = Mapping[str, Any]
Sentence = Callable[[EventData], str | None]

# What each die came to, in words.
RESULT_WORDS = {
    "critical": "critical",
    "success": "success",
    "fail": "fail",
    "cancelled": "beaten",
}


def as_data(event: Event | EventData) -> EventData:
    """The event's JSON form (as a save file keeps it)."""
    if isinstance(event, Event):
        return event_dict(event)
    return event


Names = Mapping[str, str]  # id -> the name people read


class ToldNames(dict[str, str]):
    """The names a game's telling gives, and `in_phrases`: ids named only where the rules'
    cover readings name scenery ("hidden by still": `scenery_named`), not elsewhere in a
    sentence, where such an id is also a word ("fighters still in the fight"): the
    scenery whose id is a plain word (game.scenario.names.told_names)."""

    def __init__(
        self,
        names: Names,
        in_phrases: Names,
        roles: Roles | None = None,
        objectives: Names | None = None,
    ) -> None:
        super().__init__(names)
        self.in_phrases: Names = in_phrases
        self.roles: Roles = roles or {}
        self.objectives: Names = objectives or {}


class Role(NamedTuple):
    """What a system's sentences may say of a model beyond its name (`told_names`): its
    side, its role ("lieutenant" for `lieutenant = true`, "irregular" for an irregular
    profile, else ""), the state it starts in and its points."""

    side: str
    role: str
    state: str
    points: int


Roles = Mapping[str, Role]


def roles_spoken() -> Roles:
    """The models' roles of the names being spoken (`speaking` a `ToldNames`); none else."""
    return getattr(_NAMES.get(), "roles", None) or {}


def objectives_spoken() -> Names:
    """The objectives' names of the names being spoken (`speaking` a `ToldNames`)."""
    return getattr(_NAMES.get(), "objectives", None) or {}


# An end reason's objectives held: "objective points (a to blue, b to red)".
_OBJECTIVES_HELD = re.compile(r"(?<=objective points \()[^)]*(?=\))")


def objectives_named(text: str, objectives: Names) -> str:
    """An end reason with the objectives it says held (written with their ids, as the
    event keeps it) named as the window's labels name them (`objective_names`) and
    joined: "objective points (the gate between the barriers to pano and Guard console
    to pano)"; only there, so an id that is a word is never named elsewhere."""
    if not objectives:
        return text

    def held(m: re.Match[str]) -> str:
        items = [item.partition(" to ") for item in m.group(0).split(", ")]
        return joined([f"{objectives.get(o, o)}{to}{side}" for o, to, side in items])

    return _OBJECTIVES_HELD.sub(held, text)


def phrase_names(names: Names | Collection[str]) -> Names:
    """The names a phrase the rules wrote takes: `names`, and its `in_phrases`."""
    mapping = as_names(names)
    inner = getattr(mapping, "in_phrases", None)
    return {**mapping, **inner} if inner else mapping


# Where the rules' cover readings name scenery by id: "hidden by a, b", "touching a",
# "blocked by a", "in area terrain a", "seen past a, b", 'within 0.1" of a, b', "a, b in
# the way", "in cover from a and b" (game.rules.*.cover).
# And where a move is cut short: "cut short by a", "stopped by a" (`who_or_piece`).
_SCENERY_AFTER = (
    "hidden by ", "touching ", "blocked by ", "in area terrain ", "seen past ", '" of ',
    "in cover from ", "cut short by ", "stopped by ",
)  # fmt: skip
_LISTED = r"[\w-]+(?:(?:, | and )[\w-]+)*"  # "a", "a and b", "a, b and c"
_SCENERY_PLACES = re.compile(
    "(?:" + "|".join(f"(?<={lead})" for lead in _SCENERY_AFTER) + f")({_LISTED})"
    f"|({_LISTED})(?= in the way)"
)
_WORD = re.compile(r"[\w-]+")


def scenery_named(text: str, inner: Names) -> str:
    """`text` with the ids of `inner` named where the rules' cover readings put scenery."""

    def listed_names(m: re.Match[str]) -> str:
        return _WORD.sub(lambda w: inner.get(w.group(0), w.group(0)), m.group(0))

    return _SCENERY_PLACES.sub(listed_names, text)


# The table's names while a sentence is being made (`speaking`): `who` asks them first.
_NAMES: ContextVar[Names] = ContextVar("names", default=MappingProxyType({}))


# A word of an id with no vowel is an abbreviation, said in capitals: "hmg" -> "HMG".
_ABBREVIATION = re.compile(r"\b[b-df-hj-np-tv-xz]{2,4}\b")


def readable(model: object) -> str:
    """An id made readable: "escher-ganger-1" -> "Escher ganger 1", "zhanshi-hmg" ->
    "Zhanshi HMG" (a word with no vowel is an abbreviation)."""
    text = str(model or "nobody").replace("_", " ").replace("-", " ").strip()
    text = _ABBREVIATION.sub(lambda m: m.group(0).upper(), text)
    return text[:1].upper() + text[1:] if text else "nobody"


def profile_called(profile: str, profiles: Mapping[str, object]) -> str:
    """A profile as people read it: the `called` its data gives ("Knight of Justice"),
    else its id made readable ("orc-trooper" -> "Orc trooper")."""
    return str(getattr(profiles.get(profile), "called", None) or readable(profile))


def who(model: object) -> str:
    """A model, unit or side id as a name: the table's name for it when one is being
    spoken (`speaking`), else the id made readable ("escher-ganger-1" -> "Escher ganger 1")."""
    return _NAMES.get().get(str(model)) or readable(model)


def who_or_piece(thing: object) -> str:
    """What stopped a move: a model or unit by its name (`who`); a piece of scenery by
    its id, for the telling to name it as the table does ("the barn": `scenery_named`
    after "cut short by " and "stopped by ", `named` elsewhere), not as a model ("Barn")."""
    return who(thing) if str(thing) in _NAMES.get() else str(thing)


def names_of(scenario: Any) -> dict[str, str]:
    """The names of the ids a table's sentences may mention: its models (the `name` the
    scenario gives, else the id made readable), their units (ids made readable) and its
    sides (the `name` the scenario gives, else the id)."""
    models = getattr(scenario, "models", ())
    ids = {m.id for m in models} | {m.unit for m in models if getattr(m, "unit", None)}
    names = {str(i): readable(i) for i in ids}
    profiles = getattr(scenario, "profiles", None) or {}
    for m in models:
        if getattr(m, "name", None):
            names[str(m.id)] = str(m.name)
        elif getattr(profiles.get(getattr(m, "profile", "")), "called", None):
            # a model named by its profile's id ("knight-of-justice-2") reads as the
            # profile is called ("Knight of Justice 2")
            stem, _, number = str(m.id).rpartition("-")
            called = profile_called(m.profile, profiles)
            if m.id == m.profile:
                names[str(m.id)] = called
            elif stem == m.profile and number.isdigit():
                names[str(m.id)] = f"{called} {number}"
    for side in getattr(scenario, "sides", ()):
        names[str(side.id)] = str(getattr(side, "name", None) or readable(side.id))
    return names


def as_names(names: Names | Collection[str]) -> Names:
    """A names mapping from a mapping, or from bare ids (each made readable)."""
    if isinstance(names, Mapping):
        return names
    return {str(i): readable(i) for i in names}


def spoken() -> Names:
    """The names being spoken (`speaking`); none outside it."""
    return _NAMES.get()


def spoken_with(ids: Collection[str]) -> ToldNames:
    """The names a command's telling takes: `ids` made readable, under the table's names
    where they are spoken (`speaking`: the scenery too, as `scenery_names` calls each
    piece, "barricade 2", never its id made readable, "Barricade 2")."""
    told = spoken()
    return ToldNames(
        {**as_names(ids), **told},
        getattr(told, "in_phrases", {}),
        getattr(told, "roles", None),
        getattr(told, "objectives", None),
    )


@contextmanager
def speaking(names: Names | Collection[str]) -> Iterator[None]:
    """While inside, `who` gives the table's names."""
    token = _NAMES.set(as_names(names))
    try:
        yield
    finally:
        _NAMES.reset(token)


# The fields of events (and of the declarations inside them) that hold ids.
ID_FIELDS = frozenset({
    "model", "attacker", "target", "declared", "side", "unit", "winner", "stopped_by",
    "affected", "under", "extra", "on", "models", "targets", "by", "hit_order", "allies_hit",
})  # fmt: skip


def ids_in(events: Iterable[Event | EventData]) -> frozenset[str]:
    """The ids events name in their fields (for a caller without the table at hand)."""
    found: set[str] = set()

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, Mapping):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in ID_FIELDS and value:
            found.add(value)

    for event in events:
        walk(as_data(event), None)
    return frozenset(found)


@functools.lru_cache(maxsize=32)
def _ids_pattern(ids: frozenset[str]) -> re.Pattern[str]:
    ordered = sorted(ids, key=len, reverse=True)  # the longest first: "a-10" before "a-1"
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ordered)) + r")(?![\w-])")


# Words after which an id that is a plain word ("target", "boss") is that word, not the
# model: "the target itself", "a target fighter", "may target a point".
_AS_A_WORD = re.compile(
    r"\b(?:the|a|an|any|each|every|no|one|its|their|this|that|may|must|can|cannot|will)\s+$",
    re.IGNORECASE,
)


def named(text: str, names: Names | Collection[str]) -> str:
    """`text` with every id of `names` standing alone in it replaced by its name. An id
    that is a plain word is left as it is where the sentence uses it as the word (after an
    article, a determiner or "may"/"must": "is the target itself" keeps its "target").
    The objectives of a `ToldNames` are named only where an end reason says them held
    (`objectives_named`)."""
    if not names or not text:
        return text
    mapping = as_names(names)
    text = lists_joined(objectives_named(text, getattr(mapping, "objectives", {})), mapping)

    def name(m: re.Match[str]) -> str:
        found = m.group(1)
        if found.isalpha() and _AS_A_WORD.search(text, 0, m.start()):
            return found
        return mapping[found]

    return _ids_pattern(frozenset(mapping)).sub(name, text)


def lists_joined(text: str, ids: Collection[str]) -> str:
    """`text` with the lists of ids the rules' readings write with commas ("hidden by a,
    b", "a, b in the way": the reasons events and `--json` keep as they were) joined as
    people write them (`joined`: "hidden by a and b"). Only the ids of `ids` are joined:
    those a list begins with after its lead ("hidden by a, b, not in contact" reads "hidden
    by a and b, not in contact"), those it ends with before "in the way" ("out of sight,
    a, b in the way" reads "out of sight, a and b in the way")."""

    if ", " not in text:  # no list of two or more (most sentences): nothing to join
        return text

    def join(m: re.Match[str]) -> str:
        if " and " in m.group(0):  # joined already
            return m.group(0)
        items = m.group(0).split(", ")
        run = 0
        if m.group(1) is not None:  # after a lead: the ids it begins with
            while run < len(items) and items[run] in ids:
                run += 1
            return ", ".join([joined(items[:run]), *items[run:]]) if run > 1 else m.group(0)
        while run < len(items) and items[-1 - run] in ids:  # before "in the way": its end
            run += 1
        return ", ".join([*items[:-run], joined(items[-run:])]) if run > 1 else m.group(0)

    return _SCENERY_PLACES.sub(join, text)


def listed(items: Iterable[object], empty: str = "nobody") -> str:
    """Ids named (`who`) and joined as people write them: "A", "A and B", "A, B and C"."""
    return joined([who(i) for i in items], empty)


def dice(faces: Iterable[object]) -> str:
    """Dice faces as "3, 5 and 6"."""
    return joined([str(f) for f in faces], "no dice")


def inches(value: object) -> str:
    """A distance as 4.5"."""
    return f'{float(str(value)):.1f}"'


def centred(e: EventData) -> str:
    """Where a blast or template's centre is: "on Delaque leader" where it is centred on a
    model's place (the event's `on`), else "at (19.0, 12.0)"."""
    if e.get("on"):
        return f"on {who(e['on'])}"
    x, y = e["centre"]
    return f"at ({float(x):.1f}, {float(y):.1f})"


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def signed(value: int) -> str:
    return f"{value:+d}"


def modifiers(mods: Iterable[Mapping[str, Any]]) -> str:
    """Roll modifiers as "range 26.7" -3, cover -1" ("" without any)."""
    return ", ".join(f"{m.get('source', '?')} {signed(int(m.get('value', 0)))}" for m in mods)


def faces_with_results(faces: Iterable[object], results: Iterable[object]) -> str:
    """Each die with what it came to: "3 (success), 17 (fail)"."""
    return ", ".join(
        f"{face} ({RESULT_WORDS.get(str(result), str(result))})"
        for face, result in zip(faces, results, strict=False)
    )


_ID_AT_END = re.compile(r"\b(at|on) ([a-z0-9]+(?:-[a-z0-9]+)+)$")


# a point on the table in a roll's purpose, as the engine wrote it ("(12.19, 11.87)")
_POINT = re.compile(r"\((-?\d+\.\d+), (-?\d+\.\d+)\)")


def purpose(text: object) -> str:
    """A roll's purpose with the model it is aimed at named: "... at zhanshi-hmg" ->
    "... at Zhanshi hmg"; a point in it written to a tenth of an inch, as `centred`
    and the other sentences write one ("at (12.19, 11.87)" -> "at (12.2, 11.9)")."""
    text = _POINT.sub(lambda m: f"({float(m[1]):.1f}, {float(m[2]):.1f})", str(text))
    return _ID_AT_END.sub(lambda m: f"{m.group(1)} {who(m.group(2))}", text)


def sums(e: EventData) -> str:
    """A roll's attribute and its modifiers: "BS 12, range 26.7" -3"."""
    mods = modifiers(e.get("modifiers", ()))
    return f"{e['attribute']} {e['base']}" + (f", {mods}" if mods else "")


def rolled(e: EventData, reckoning: str, goal: str) -> str:
    """A roll as a sentence: who rolls for what, the reckoning, what it needs, the dice."""
    head = f"{who(e['model'])}, {purpose(e['purpose'])}: "
    done = ", ".join(p for p in (reckoning, goal) if p)
    return head + done + "; rolled " + faces_with_results(e["faces"], e["results"])


def declared_words(declaration: Mapping[str, Any]) -> str:
    """A declaration nobody words better: its kind and the model it is for."""
    name = str(declaration.get("declare", "a declaration"))
    model = declaration.get("model") or declaration.get("unit")
    words = [_split_camel(name).lower()]
    if model:
        words.append(f"with {who(model)}")
    return " ".join(words)


def _split_camel(name: str) -> str:
    out = ""
    for index, char in enumerate(name):
        if char.isupper() and index:
            out += " "
        out += char
    return out


def shared(e: EventData) -> str | None:
    """The events of game.sequencer.events in plain wargamer's words (the shared
    wording a system's sentences fall back on or add to)."""
    kind = e.get("event")
    if kind == "Declared":
        return f"{who(e['side'])}: {declared_words(e['declaration'])}"
    if kind == "TurnStarted":
        return f"Turn {e['turn']}: {who(e['side'])} to play"
    if kind == "TurnEnded":
        return f"{who(e['side'])}'s turn {e['turn']} ends"
    if kind == "OrderSpent":
        left = plural(int(e["remaining"]), "Order")
        return f"{who(e['side'])} spends an Order on {who(e['model'])} ({left} left)"
    if kind == "Moved":
        if float(e["distance"]) < 0.05:  # "moves 0.0"" reads as a fault: it spent the move
            return f"{who(e['model'])} moves, but stays where it stands"
        return f"{who(e['model'])} moves {inches(e['distance'])}"
    if kind == "Rolled":
        return rolled(e, sums(e), f"needs {e['target']}")
    if kind == "Hit":
        crit = " (a critical)" if e.get("critical") else ""
        return f"{who(e['attacker'])} hits {who(e['target'])} with the {e['weapon']}{crit}"
    if kind == "Missed":
        return (
            f"{who(e['attacker'])} misses {who(e['target'])} with the {e['weapon']}: {e['reason']}"
        )
    if kind == "SaveRolled":
        wounds = int(e["wounds"])
        goal = "wound on" if e.get("wound_on_low") else "are saved on"
        outcome = "no wound" if wounds == 0 else plural(wounds, "wound")
        return (
            f"{who(e['model'])} rolls to save (dice {goal} {e['target']} or less): "
            f"{dice(e['faces'])}, {outcome}"
        )
    if kind == "TemplatePlaced":
        return (
            f"{who(e['model'])} lays the {e['weapon']} template: it covers "
            f"{listed(e.get('affected', ()))}"
        )
    if kind == "Wounded":
        return f"{who(e['model'])} takes {plural(int(e['wounds']), 'wound')} ({e['total']} in all)"
    if kind == "StateChanged":
        return f"{who(e['model'])} is now {_state(e['after'])} (was {_state(e['before'])})"
    if kind == "GameEnded":
        return game_over(e)
    return None


def won_by(winner: str | None) -> str:
    """Who won, in one pattern for every rule system: "won by House Escher", "won by
    Rebels", "a draw". No verb is made to agree with the winner's name, which may be
    singular or plural ("Government", "Rebels"; "Rebels wins" read wrong)."""
    return f"won by {who(winner)}" if winner else "a draw"


def game_over(e: EventData, counted: str = "") -> str:
    """A GameEnded event. Its scores are said as what they count (`counted`, the rule
    system's words: "points of fighters still in the fight"), after the reason where it
    names them ("Game over: won by Orlock; round limit (4): points of fighters still in
    the fight: Orlock 465, Escher 50"), else beside it ("Game over: won by House Goliath;
    House Orlock has no fighter left standing or pinned (points of fighters still in the
    fight: House Orlock 0, House Goliath 465)"): tester15 finding 14, the numbers had no
    unit. Without `counted`: "Game over: won by Blue (Blue 54, Red 0); ..."."""
    scores = ", ".join(f"{who(s)} {n}" for s, n in dict(e.get("scores") or {}).items())
    reason, won = str(e["reason"]), won_by(e.get("winner"))
    if counted and scores:
        if reason.endswith(counted):
            return f"Game over: {won}; {reason}: {scores}"
        return f"Game over: {won}; {reason} ({counted}: {scores})"
    points = f" ({scores})" if scores else ""
    return f"Game over: {won}{points}; {reason}"


def limit_said(reason: str, turn_word: str) -> str:
    """An engine's "turn limit (4): ..." (the reason its GameEnded keeps, in every save
    and playtest's `reasons`) in the rule system's word: "round limit (4): ..."."""
    return turn_word + reason.removeprefix("turn") if reason.startswith("turn limit") else reason


def _state(name: object) -> str:
    return str(name).replace("-", " ")


def describe(
    event: Event | EventData, ruleset: Any = None, names: Names | Collection[str] = ()
) -> str | None:
    """The event as a sentence in the rule system's words (None: no one knows it);
    `names` (the table's, `names_of`; or bare ids) name the models and sides wherever
    the sentence mentions them."""
    data = as_data(event)
    own = sentences_of(ruleset)
    with speaking(names):
        said = own(data) if own is not None else None
        if said is None:
            said = shared(data)
    return None if said is None else told(said, names)


def told(text: str, names: Names | Collection[str]) -> str:
    """A sentence the rules or an engine wrote with ids, named as the telling names them:
    every id of `names` (`named`), and the scenery of its `in_phrases` where the rules'
    cover readings put scenery (`scenery_named`: "still, pipes in the way" reads "the water
    still, the pipes in the way")."""
    inner = getattr(names, "in_phrases", None)
    if inner:
        text = scenery_named(lists_joined(text, phrase_names(names)), inner)
    return named(text, names)


def sentences_of(ruleset: Any) -> Sentence | None:
    """The rule system's own sentences (its "sentences" part), or None."""
    if ruleset is None:
        return None
    part: Sentence | None = ruleset.load("sentences")
    return part


def say(event: Event | EventData, ruleset: Any = None, names: Names | Collection[str] = ()) -> str:
    """`describe`, or the event's kind in words when no one knows it."""
    said = describe(event, ruleset, names)
    if said is not None:
        return said
    data = as_data(event)
    return _split_camel(str(data.get("event", "something happened")))


# The key under which a `Teller` hands the sentences its notebook (no event has a field
# of that name).
TOLD = "told"


def notebook(e: EventData) -> dict[str, Any] | None:
    """The notebook of the game's telling so far (`Teller`), or None for an event told on
    its own: a system's sentences write in it what later sentences need (the unit an
    activation is for, the cover a volley was rolled in) under their own keys."""
    told = e.get(TOLD)
    return told if isinstance(told, dict) else None


class Teller:
    """Says one game's events in order (`say`), remembering what the log has told: each
    model's state and the Wounds it has lost. An event is passed on to the sentences with
    what it means after the ones before it: a hit's `target_was` (the target's state, once
    it has one) and a Wounded event's `lost_before`, and every event with the game's
    `notebook`, where a system's own sentences keep what they need from earlier events. A
    sentence without them (one event on its own) keeps its plain words."""

    def __init__(self, ruleset: Any = None, names: Names | Collection[str] = ()) -> None:
        self.ruleset = ruleset
        self.names = names
        self.state: dict[str, str] = {}
        self.lost: dict[str, int] = {}
        self.told: dict[str, Any] = {}

    def say(self, event: Event | EventData) -> str:
        data = {**as_data(event), TOLD: self.told}
        kind = data.get("event")
        if kind == "Hit" and data.get("target") in self.state:
            data = {**data, "target_was": self.state[data["target"]]}
        elif kind == "Wounded":
            model = str(data["model"])
            data = {**data, "lost_before": self.lost.get(model, 0)}
            self.lost[model] = int(data["total"])
        elif kind == "StateChanged":
            self.state[str(data["model"])] = str(data["after"])
        return say(data, self.ruleset, self.names)


COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def heading(degrees: object) -> str:
    """A facing in degrees as a compass point of the table as drawn (north is the top
    edge): 86 -> "south"."""
    angle = float(str(degrees)) % 360.0
    return COMPASS[round(angle / 45.0) % 8]
