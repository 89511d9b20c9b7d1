"""A save made before a correction of the rules (DESIGN.md: saves already written keep
replaying). The fixture is a Necromunda game saved by main at 52bb0ee, before session
7's corrections of the End phase's order and of Recovery's chosen die (5fdd89b, 778feb6):
playtest necromunda-demo --seed 7 --save-games, game 6, its first 17 declarations (the
events they gave then). Under the rules now its first round's End phase goes otherwise
(the save's event 60) and its 17th declaration is refused. It still loads and replays,
as far as the rules now allow, and says so in one sentence; the save is never written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.rules.registry import RULESETS
from game.scenario.saves import read_save
from tests.scenario.test_saves import FIXTURES, played, run

OLD = FIXTURES / "necromunda-before-session-7.json"
SAID = (
    "this game was saved before saves recorded their rules' version, and the Necromunda "
    "(pre-2023) rules as they are now play it otherwise: it goes differently from round 1 "
    "(the save's event 60), and the rules now refuse its "
    "declaration 17 of 17 (Orlock leader is a fighter of House Orlock, not of House Escher, "
    "whose turn it is to activate), so "
    "the replay stops after declaration 16; the save keeps all 17"
)


def _notes(err: str) -> str:
    """stderr without the line a cold line-of-fire cache adds before a replay (said
    when the kernels compile first, whichever test runs first)."""
    return "\n".join(x for x in err.strip().splitlines() if not x.startswith("Preparing"))


@pytest.fixture
def old(tmp_path: Path) -> Path:
    return Path(shutil.copy(OLD, tmp_path / "old.json"))


def test_the_fixture_is_a_save_from_before_the_corrections() -> None:
    data = json.loads(OLD.read_text())
    assert "rules_version" not in data and len(data["declarations"]) == 17
    saved = read_save(OLD)
    assert saved.rules_version == 0 and saved.rules_corrected


def test_replay_tells_it_as_far_as_the_rules_allow_and_says_why(
    old: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = old.read_bytes()
    code, out, err = run(capsys, "replay", str(old))
    # it was "declaration 17: the rules refuse it: ..." and exit 2, nothing told
    assert code == 0
    assert _notes(err) == f"note: {SAID}"
    # 10 fighters less Escher ganger 2 and the 2 Orlocks who fled (it read 8: Escher
    # ganger 2, taken Out of Action before it activated, kept its Ready flag; retest14)
    assert out.splitlines()[-1] == "Round 2: House Escher has priority; 7 fighters ready"
    code, out, err = run(capsys, "replay", str(old), "--check")
    # and the first event told otherwise, in sentences, after the sentence why
    failed = _notes(err)
    assert code == 1 and failed.startswith(f"skirmish: {old}: check failed: {SAID}; "), err
    assert "differs: the replay tells" in failed and len(failed.splitlines()) == 1
    code, out, _ = run(capsys, "replay", str(old), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["rules_corrected"] == SAID and doc["declarations_played"] == 16
    assert old.read_bytes() == before  # the save keeps every declaration


def test_all_declarations_may_still_play_and_go_differently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the same game saved after its 16th declaration (the events up to the 17th's)
    data = json.loads(OLD.read_text())
    declared = [i for i, e in enumerate(data["events"]) if e["event"] == "Declared"]
    data["declarations"] = data["declarations"][:16]
    data["events"] = data["events"][: declared[16]]
    save = tmp_path / "sixteen.json"
    save.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(save))
    assert code == 0 and _notes(err) == (
        "note: this game was saved before saves recorded their rules' version, and the "
        "Necromunda (pre-2023) rules as they are now play it otherwise: it goes "
        "differently from round 1 (the save's event 60); all 16 of its "
        "declarations still play"
    )


def test_a_save_of_the_rules_as_they_are_is_still_held_to_them(
    old: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the version recorded is the rules': the same save claiming today's rules is refused
    data = json.loads(old.read_text())
    data["rules_version"] = RULESETS["necromunda"].rules_version
    old.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(old))
    assert code == 2
    assert _notes(err) == (
        f"skirmish: {old}: declaration 17: the rules refuse it: Orlock leader is a fighter of "
        "House Orlock, not of House Escher, whose turn it is to activate"
    )


def test_a_new_save_records_its_rules_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.conftest import SCENARIOS

    save = tmp_path / "new.json"
    played(SCENARIOS / "necromunda-demo.toml", save)
    assert json.loads(save.read_text())["rules_version"] == RULESETS["necromunda"].rules_version
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert (code, err) == (0, "") and out.endswith("check: the event log matches\n")


def test_play_load_and_the_replay_window_open_it_and_keep_the_save(
    old: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from game.render.replay import Replay, kept_apart
    from game.render.session import Session

    monkeypatch.chdir(tmp_path)
    picture = tmp_path / "load.png"
    code, out, err = run(
        capsys, "play", "--load", str(old), "--frames", "1", "--screenshot", str(picture)
    )
    # on stderr, as replay says it (it was on stdout): a note is not output
    assert code == 0 and _notes(err) == f"note: {SAID}" and "note" not in out
    session = Session.load(old)
    assert session.diverged is not None and len(session.game.declarations) == 16
    replay = Replay.open(old)  # Ctrl+O and replay --window
    assert replay.last == 16 and replay.diverged is not None
    assert replay.diverged.sentence() == SAID
    # playing on and saving goes beside the save, which keeps its 17 declarations
    assert kept_apart(replay) == tmp_path / "old-from-16.json"


def test_a_save_of_newer_rules_says_so_in_one_sentence(
    old: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it was "declaration 17: the rules refuse it: ...", as if the save were wrong
    data = json.loads(old.read_text())
    data["rules_version"] = 99
    old.write_text(json.dumps(data))
    known = RULESETS["necromunda"].rules_version
    said = (
        f"{old}: rules_version: made with newer Necromunda (pre-2023) rules (version 99) "
        f"than this skirmish knows ({known}): update skirmish"
    )
    for command in (["replay", str(old)], ["replay", str(old), "--check"]):
        code, _, err = run(capsys, *command)
        assert code == 2 and err.strip().endswith(said), err
        assert len(err.strip().splitlines()) == 1


def test_a_save_the_rules_now_play_otherwise_to_the_end_is_saved_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review, session 9: a save of older rules whose declarations all still play but
    whose events go otherwise now, opened at its last declaration (Ctrl+O, replay
    --window), was saved over itself by Ctrl+S, its record of the old rules' game lost;
    play --load saves it beside it. Both keep the save."""
    from game.render.replay import Replay, kept_apart
    from game.render.session import Session

    data = json.loads((FIXTURES / "infinity-rules-1.json").read_text())
    del data["rules_version"]  # saved before saves recorded it
    rolled = next(e for e in reversed(data["events"]) if e["event"] == "Rolled")
    rolled["faces"] = [2 if face == 1 else 1 for face in rolled["faces"]]  # other dice then
    save = tmp_path / "older.json"
    save.write_text(json.dumps(data))
    replay = Replay.open(save)
    assert replay.diverged is not None and replay.diverged.refused is None
    assert replay.last == len(data["declarations"])  # every declaration still plays
    assert kept_apart(replay) == tmp_path / f"older-from-{replay.last}.json"
    assert Session.load(save).diverged is not None  # play --load branches it too (play.py)


STRANDED = FIXTURES / "infinity-stranded-rules-2.json"


def _corrected(capsys: pytest.CaptureFixture[str], save: Path, version: int, said: str) -> str:
    """A save of rules `version`, corrected since: replay opens it and says `said` in a
    note; --check fails, exit 1, in one line, which is returned."""
    assert read_save(save).rules_version == version
    code, _, err = run(capsys, "replay", str(save))
    assert code == 0 and _notes(err) == f"note: {said}"
    code, _, err = run(capsys, "replay", str(save), "--check")
    failed = _notes(err)
    assert code == 1 and len(failed.splitlines()) == 1
    return failed


def test_an_infinity_turn_left_waiting_for_an_order_nobody_can_spend(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Infinity's rules version 3 (FACTS 3.4: the Lieutenant Order is the Lieutenant's
    alone): the fixture, saved by main at e7989ea (version 2) from the STRANDED table of
    tests/sequencer/test_infinity_fidelity.py with turns = 1, seed 1, is a turn whose
    Lieutenant went down to its side's failed dice into close combat with the pool
    spent: the turn waited, and the save's 7th declaration is the EndTurn that ended it.
    Now the turn ends by itself, so that EndTurn ends the other side's turn and the game,
    and the 8th is refused: it opens, replays that far and says so in one sentence."""
    said = (
        "the Infinity (N5 / CodeOne) rules have been corrected since this game was saved "
        "(rules version 2, now 3): it goes differently from turn 1 (the save's event 19), "
        "and the rules now refuse its declaration 8 of 10 (the game is over), so the "
        "replay stops after declaration 7; the save keeps all 10"
    )
    failed = _corrected(capsys, STRANDED, 2, said)
    assert failed == (
        f"skirmish: {STRANDED}: check failed: {said}; turn 1, event 19 differs: the replay "
        "tells 'Pano's Active Turn 1 ends: the Lieutenant Order is left, and no trooper able "
        "to act may spend it', the save 'Pano ends its Active Turn 1, 1 Order unspent'"
    )


def test_an_open_rebellion_save_from_before_the_cover_reach(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Open Rebellion's rules version 2 (seed 001, FACTS 1.4: cover is a place the unit is
    in; `cover_reach`): the version-1 fixture's Gov squad b was "2 of its 4 models in
    cover" from the haystacks 6" from it, and is now in the open. It opens, replays as far
    as the rules now allow and says so in one sentence; --check fails with it, exit 1."""
    save = FIXTURES / "open-rebellion-rules-1.json"
    said = (
        "the Open Rebellion rules have been corrected since this game was saved (rules "
        "version 1, now 2): it goes differently from turn 1 (the save's event 9), and the "
        "rules now refuse its declaration 30 of 68 (Gov squad b must answer the fire first: "
        "fall back or not), so the replay stops after declaration 29; the save keeps all 68"
    )
    failed = _corrected(capsys, save, 1, said)
    assert failed.startswith(f"skirmish: {save}: check failed: {said}; turn 1, event 9 differs")
    assert failed.endswith(
        "in the open (only 2 of its 4 models are in cover); 0 damage gets through'"
    )
    assert "in the open (none of its 4 models is in cover)" in failed


NECROMUNDA_1 = FIXTURES / "necromunda-rules-1.json"
NECROMUNDA_2 = FIXTURES / "necromunda-rules-2.json"


def test_a_necromunda_save_from_before_blaze_and_knockback_says_where_it_goes_otherwise(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Necromunda's rules version 2 (FACTS 2.9: Blaze and Knockback played). The fixture,
    a version-1 game of careful players on the demo, has the Orlock grenadier's frag hit
    Escher leader in round 3: the Knockback roll (5 against S3) now pushes it 1" before
    the wound roll, so its dice go otherwise, and its 40th declaration (an Aim by a
    fighter now pinned) is refused: it opens, replays that far and says so in one
    sentence. Since version 3 its round 2 already goes otherwise (event 77, the fighters
    ready: one taken Out of Action before it activated in round 1 is not counted; it
    went otherwise from round 3, event 160, under version 2), and --check names it."""
    said = (
        "the Necromunda (pre-2023) rules have been corrected since this game was saved "
        "(rules version 1, now 3): it goes differently from round 2 (the save's event 77), "
        "and the rules now refuse its declaration 40 of 61 (Orlock ganger 1 is pinned and "
        "cannot Aim), so the replay stops after declaration 39; the save keeps all 61"
    )
    failed = _corrected(capsys, NECROMUNDA_1, 1, said)
    # the sentences agree (the window and replay counted the fighters in the fight from
    # the log); the event's count is told beside them
    assert failed == (
        f"skirmish: {NECROMUNDA_1}: check failed: {said}; round 2, event 77 differs: the "
        "replay tells 'Round 2: House Escher has priority; 8 fighters ready' (orders 8), "
        "the save 'Round 2: House Escher has priority; 8 fighters ready' (orders 9)"
    )


def test_a_necromunda_save_of_rules_2_plays_all_its_declarations_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Necromunda's rules version 3 (FACTS 2.8, 2.4: a fighter Out of Action is not Ready):
    the version-2 fixture (careful against careful, seed 9; its Orlock leader catches fire
    and burns twice) counted in round 2's TurnStarted event a fighter taken Out of Action
    in round 1 before it activated (10, now 9). Every declaration still plays and every
    event but the three rounds' counts is the same; replay says where it goes otherwise."""
    said = (
        "the Necromunda (pre-2023) rules have been corrected since this game was saved "
        "(rules version 2, now 3): it goes differently from round 2 (the save's event 74); "
        "all 51 of its declarations still play"
    )
    failed = _corrected(capsys, NECROMUNDA_2, 2, said)
    assert failed.endswith(
        "the replay tells 'Round 2: House Orlock has priority; 9 fighters ready' (orders 9), "
        "the save 'Round 2: House Orlock has priority; 9 fighters ready' (orders 10)"
    )
    replayed = read_save(NECROMUNDA_2).replay().log()
    saved = json.loads(NECROMUNDA_2.read_text())["events"]
    # a field an event has gained since (ForcedMove's damage) is no difference: the
    # save has no word on it (saves.first_difference)
    differ = [
        (a, b) for a, b in zip(replayed, saved, strict=True)
        if {k: v for k, v in a.items() if k in b} != b
    ]  # fmt: skip
    assert [(a["turn"], a["orders"], b["orders"]) for a, b in differ] == [
        (2, 9, 10), (3, 6, 7), (4, 4, 5)
    ]  # fmt: skip


def test_a_necromunda_save_of_rules_3_plays_blaze_and_checks() -> None:
    """tests/scenario/saves/necromunda-rules-3.json: the version-2 fixture's declarations
    (seed 9) replayed under version 3, every one played (its Orlock leader catches fire
    from the Flamer and burns twice): replay --check matches (test_necromunda_groups,
    test_saves_of_the_rules_now)."""
    data = json.loads((FIXTURES / "necromunda-rules-3.json").read_text())
    assert data["rules_version"] == 3 == RULESETS["necromunda"].rules_version
    kinds = [e["event"] for e in data["events"]]
    assert kinds.count("Burned") == 2 and "BlazeRolled" in kinds
