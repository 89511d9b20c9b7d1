"""What a person reads for the table's ids: the models and sides as the sentences call
them (game.sequencer.sentences.names_of) and the scenery as a player would point at it
("hidden by the crate stack", not "hidden by crate-stack").

The rules write their cover sentences with the pieces' ids (`--json` keeps them: a
contract); the words people read name the pieces here, where the text is shown."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable

from game.scenario.model import ObjectiveEntry, SceneryEntry, SceneryKind
from game.scenario.scenario import Piece, Scenario
from game.sequencer.sentences import Role, ToldNames, names_of, phrase_names, readable, told

# Ids that say no more than what the piece is (as `skirmish import` names them): the
# piece is called by its height and kind instead.
GENERIC = frozenset({"object", "piece", "scenery", "terrain", *(k.value for k in SceneryKind)})
KIND_WORDS = {SceneryKind.AREA: "area terrain"}
ARTICLES = ("the ", "a ", "an ")


def sides_listed(scenario: Scenario) -> str:
    """The scenario's sides as a refusal lists them: each id, with its name where the
    name says more than the id ("blue (PanOceania), red (Yu Jing)")."""
    return ", ".join(
        s.id if not s.name or s.name == readable(s.id) else f"{s.id} ({s.name})"
        for s in scenario.sides
    )


def table_names(scenario: Scenario) -> dict[str, str]:
    """Every id of the table a sentence may mention, as people read it: models, units
    and sides (`names_of`) and the scenery (`scenery_names`)."""
    return {**names_of(scenario), **scenery_names(scenario.scenery)}


def told_names(scenario: Scenario) -> ToldNames:
    """The names a game's telling gives (`skirmish replay`, the window's dice log: one
    `Teller` each): `table_names`, the pieces whose id is a plain word named only inside
    the rules' phrases an event carries (`ToldNames.in_phrases`: "hidden by the water
    still"). A told sentence is named whole, where such an id is also the word ("points of
    fighters still in the fight" must not read "fighters the water still in the fight");
    "stone-wall-2" is never a word."""
    scenery = scenery_names(scenario.scenery)
    words = {k: v for k, v in scenery.items() if k.isalpha()}
    ids = {k: v for k, v in scenery.items() if k not in words}
    objectives = objective_names(scenario.objectives)
    return ToldNames({**names_of(scenario), **ids}, words, roles_of(scenario), objectives)


def reason_names(scenario: Scenario) -> ToldNames:
    """The names an end reason takes where playtest writes it (games.csv, summary.json's
    `reasons` and `why`): models, units and sides (`names_of`), and the objectives it
    says held, named there alone ("objective points (the gate between the barriers to
    PanOceania)"), as the window and replay tell them; no scenery (a piece whose id is a
    word would be named inside the sentence)."""
    return ToldNames(names_of(scenario), {}, objectives=objective_names(scenario.objectives))


def roles_of(scenario: Scenario) -> dict[str, Role]:
    """What a system's sentences may say of each model (`ToldNames.roles`): its side, its
    role (the Lieutenant, `lieutenant = true`; a trooper of an irregular profile), the
    state it starts in and its points."""
    out = {}
    for m in scenario.models:
        profile = scenario.profiles.get(m.profile)
        irregular = getattr(profile, "irregular", False)
        role = "lieutenant" if m.lieutenant else "irregular" if irregular else ""
        points = int(getattr(profile, "points", 0) or 0)
        out[m.id] = Role(m.side, role, m.state or "normal", points)
    return out


def merged(first: ToldNames, then: ToldNames) -> ToldNames:
    """Both tellings' names, `then`'s where they name an id differently."""
    return ToldNames(
        {**first, **then},
        {**first.in_phrases, **then.in_phrases},
        {**first.roles, **then.roles},
        {**first.objectives, **then.objectives},
    )


# Where a check of the table names an entry by its id in quotes, as a file's problems
# do ("model 'fusilier-2': stands inside building 'building-1'", game.scenario.load).
_KINDS = "|".join(["model", "side", "scenery", "objective", *(k.value for k in SceneryKind)])
_QUOTED = re.compile(rf"\b(?:{_KINDS}) '([^']+)'")
_HELD = re.compile("\x00(\\d+)\x00")


def places_named(text: str, names: ToldNames) -> str:
    """A check's reason as the window says it: the entries it quotes by kind and id named
    ("Fusilier 2: stands inside the 3.5\" building"), and the ids standing alone in it
    (`told`: "turned Fusilier 2"); an id the names do not know stays as it is."""
    every = phrase_names(names)
    held: list[str] = []

    def hold(m: re.Match[str]) -> str:
        name = every.get(m.group(1))
        if name is None:
            return m.group(0)
        held.append(name)  # kept out of `told`, which would name an id inside a name again
        return f"\x00{len(held) - 1}\x00"

    said = told(_QUOTED.sub(hold, text), _no_articles(names))
    return _HELD.sub(lambda m: held[int(m.group(1))], said)


def _no_articles(names: ToldNames) -> ToldNames:
    """`names` less the ids that are articles: a check's reason quotes its entries
    ("model 'a'"), and standing alone "a" is the article (retest13: "(C): A side has one
    Lieutenant", model 'a' being "A")."""
    if not any(a in names for a in _ARTICLE_IDS):
        return names
    kept = {k: v for k, v in names.items() if k not in _ARTICLE_IDS}
    return ToldNames(kept, names.in_phrases, names.roles, names.objectives)


_ARTICLE_IDS = frozenset(a.strip() for a in ARTICLES)


@functools.lru_cache(maxsize=16)
def scenery_names(scenery: tuple[Piece, ...]) -> dict[str, str]:
    """Each piece as a sentence names it: its `label` ("the habitation block"); else
    its id read as words, a trailing number or letter left off ("crates-1": "the
    crates"), where they say more than its kind ("wall-3" and "w2" do not); else its
    height and kind ('the 1" wall', "the building"). Where two pieces would read the
    same, each is told apart by its id's number or letter ("crates 1", "crates 2"; "the
    habitation block" twice: "habitation block A", "habitation block B"); where those
    marks do not tell them apart ("b1" and "c1", "building-1" made a wall beside
    "wall-1"), they are numbered in the table's order ('2" wall 1', '2" wall 2'), and one
    with no mark by the words of its id its name does not say ("north ruins"), else by
    its whole id ("ruins (n2e)"). Read-only: callers copy before
    changing it."""
    said = {piece.id: _called(piece) for piece in scenery}
    twice = Counter(said.values())
    apart = {key: _told_apart(words, key) for key, words in said.items() if twice[words] > 1}
    again = Counter(apart.values())
    for words in {said[key] for key, name in apart.items() if again[name] > 1}:
        group = [key for key in apart if said[key] == words]
        for number, key in enumerate(group, 1):  # fix10b: it said '2" wall (wall-1)'
            apart[key] = f"{_bare(words)} {number}"
    return {**said, **apart}


def _bare(words: str) -> str:
    """A name without its leading article: "the crates" -> "crates"."""
    head, _, rest = words.partition(" ")
    return rest if head.lower() in ("the", "a", "an") and rest else words


def _told_apart(words: str, key: str) -> str:
    """A name two pieces share, with what tells this one apart: its id's last number or
    letter ("crates-1": "crates 1", "hab-b": "habitation block B"), else the words of its
    id the name does not say, before it ("hab-west": "west hab stack"; tester16: "hab
    stack (full height) (hab-west)" read as an id), else its id."""
    mark = _MARK.search(key)
    if mark:
        return f"{_bare(words)} {mark.group(1).upper()}"
    said = set(re.findall(r"[a-z]+", words.lower()))
    own = [w for w in re.split(r"[-_ ]+", key.lower()) if w and w not in said]
    if own and all(w.isalpha() for w in own):
        return f"{' '.join(own)} {_bare(words)}"
    return f"{_bare(words)} ({key})"


# an id's last number ("crates-1", "c12") or a letter after a separator ("hab-b")
_MARK = re.compile(r"(\d+|(?<=[-_ ])[a-z])$", re.IGNORECASE)


def labelled(label: str) -> str:
    """A label as a sentence names it: "the habitation block" for "habitation block"."""
    label = label.strip()
    return label if label.lower().startswith(ARTICLES) else f"the {label}"


def objective_names(objectives: Iterable[ObjectiveEntry]) -> dict[str, str]:
    """Each objective as a sentence names it: its `label` ("the gate between the
    barriers"), else its id made readable ("Objective 1")."""
    return {o.id: labelled(o.label) if o.label else readable(o.id) for o in objectives}


# The first letters of an abbreviation said with "an" ("an HMG team", "an SMG"): those
# whose names begin with a vowel's sound.
_AN_LETTERS = "AEFHILMNORSX"
# Words beginning with a vowel letter said with "a" ("a unit", "a one-off").
_A_BEFORE = ("uni", "use", "usu", "uti", "eu", "one", "once")


def with_article(words: str) -> str:
    """`words` after "a" or "an" as it is said: "an Orc trooper", "a Zhanshi", "an Akal
    commando", "an HMG team" (an abbreviation by its first letter's name), "a unit"."""
    first = words.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        an = first[0] in _AN_LETTERS
    else:
        low = first.lower()
        an = low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(_A_BEFORE)
    return f"{'an' if an else 'a'} {words}"


def _called(piece: Piece) -> str:
    if piece.label:
        return labelled(piece.label)
    words = readable(piece.id).lower().split()
    while len(words) > 1 and (words[-1].isdigit() or len(words[-1]) == 1):
        words.pop()
    stem = " ".join(words).rstrip("0123456789")  # "w2", "hab2": a letter and a number
    return f"the {stem}" if len(stem) > 1 and stem not in GENERIC else kind_words(piece)


def kind_words(piece: Piece | SceneryEntry) -> str:
    """A piece by its height and kind: 'the 1" wall', "the building" (full height)."""
    kind = KIND_WORDS.get(piece.kind, piece.kind.value)
    return f"the {kind}" if piece.height is None else f'the {piece.height:g}" {kind}'
