"""Who plays the computer's side: the window says it once, at the top of the dice log,
and its saves record every side's player with its temperament and thinking time (a
playtest's saves too); a save without them reads as before (tester8: the window never
said who played Yu Jing)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.render.app import AI_FRAMES, App
from game.render.game_actions import Undo
from game.render.replay import Replay
from game.render.session import Session, SessionError
from game.scenario import load_scenario
from game.scenario.saves import read_save
from tests.conftest import SCENARIOS
from tests.render.driving import base, click, press

DEMO = SCENARIOS / "infinity-demo.toml"


def test_the_window_says_once_who_plays_the_computer_side() -> None:
    scenario = load_scenario(DEMO)
    app = App(scenario, session=Session.start(scenario))
    app.frame()
    said = [line.text for line in app.state.log]
    assert said[0] == "the computer plays Yu Jing (search, balanced, 0.5 s a declaration)"
    assert sum("the computer plays" in s for s in said) == 1


def test_a_window_save_records_the_players_and_loads_with_them(tmp_path: Path) -> None:
    scenario = load_scenario(DEMO)
    session = Session.start(scenario)
    session.use_players({"red": ("search", (("temperament", "cautious"), ("think", 0.25)))})
    save = tmp_path / "game.json"
    session.save(save)
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["players"] == {
        "blue": {"player": "human"},
        "red": {"player": "search", "temperament": "cautious", "think": 0.25},
    }
    loaded = Session.load(save)
    assert loaded.recorded_players() == data["players"]
    assert loaded.who_plays() == [
        "the computer plays Yu Jing (search, cautious, 0.25 s a declaration)"
    ]
    # an old save, without them: the scenario's players, as before
    del data["players"]
    save.write_text(json.dumps(data), encoding="utf-8")
    assert read_save(save).players == {}
    assert Session.load(save).recorded_players()["red"]["temperament"] == "balanced"
    # a player the rules do not have is named, with the place in the save
    data["players"] = {"red": {"player": "clever"}}
    save.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionError) as refused:
        Session.load(save)
    assert refused.value.problems[0].place == "players 'red'"
    assert "no automatic player 'clever'" in str(refused.value)


def test_playtest_saves_record_temperament_and_think(tmp_path: Path) -> None:
    args = ["playtest", "infinity-demo", "--games", "1", "--workers", "1", "--ai", "search"]
    args += ["--temperament", "aggressive", "--think", "0.01", "--out", str(tmp_path)]
    assert main([*args, "--save-games", "1"]) == 0
    [save] = (tmp_path / "saves").glob("*.json")
    players = json.loads(save.read_text(encoding="utf-8"))["players"]
    for side in ("blue", "red"):
        assert players[side]["player"] == "search"
        assert players[side]["temperament"] == "aggressive"
        assert players[side]["think"] == pytest.approx(0.01, abs=0.002)
    # and a playtest save of before, its players in words, reads as it did
    data = json.loads(save.read_text(encoding="utf-8"))
    data["players"] = {"blue": "search (temperament aggressive)", "red": "careful"}
    save.write_text(json.dumps(data), encoding="utf-8")
    assert read_save(save).players == {}
    assert main(["replay", str(save), "--check"]) == 0


def _saved(tmp_path: Path, players: dict[str, object]) -> Path:
    """A window save of the Infinity demo whose `players` say `players`."""
    scenario = load_scenario(DEMO)
    save = tmp_path / "game.json"
    Session.start(scenario).save(save)
    data = json.loads(save.read_text(encoding="utf-8"))
    data["players"] = players
    save.write_text(json.dumps(data), encoding="utf-8")
    return save


def test_a_save_plays_on_with_its_own_players_in_play_and_in_replay(tmp_path: Path) -> None:
    # README: "play --load and Ctrl+O play on with those players": a playtest's save
    # has the computer play blue, which the scenario gives a person
    search = {"player": "search", "temperament": "cautious", "think": 0.25}
    save = _saved(tmp_path, {"blue": search, "red": {"player": "human"}})
    loaded = Session.load(save)
    assert loaded.recorded_players() == {"blue": search, "red": {"player": "human"}}
    assert loaded.is_ai("blue") and not loaded.is_ai("red")
    # replay --window and Ctrl+O say and play the save's players, as play --load does
    replay = Replay.open(save)
    stepped = replay.session_at(0, loaded.rules)
    assert stepped.recorded_players() == loaded.recorded_players()
    assert stepped.who_plays() == [
        "the computer plays PanOceania (search, cautious, 0.25 s a declaration)"
    ]


# Every command that reads a save (review, session 8: replay --check accepted a careful
# player with a temperament that play --load refused)
READERS = [
    ["play", "--load", "SAVE", "--frames", "1"],
    ["replay", "SAVE"],
    ["replay", "SAVE", "--check"],
    ["replay", "SAVE", "--json"],
    ["replay", "SAVE", "--window", "--frames", "1"],
]


@pytest.mark.parametrize("command", READERS, ids=lambda c: " ".join(c[:3]))
@pytest.mark.parametrize(
    ("players", "said"),
    [
        (
            {"green": {"player": "search"}},
            "the scenario has no side 'green' (its sides: blue (PanOceania), red (Yu Jing))",
        ),
        (
            {"red": {"player": "careful", "temperament": "cautious"}},
            "careful takes no temperament (it was given 'cautious')",
        ),
        (
            {"red": {"player": "careful", "think": 0.5}},
            "careful takes no think (it was given 0.5)",
        ),
        (
            {"red": {"player": "clever"}},
            "Infinity (N5 / CodeOne) has no automatic player 'clever' (one of simple, careful, "
            "search)",
        ),
        (
            {"red": {"player": "search", "temperament": "bold"}},
            "no temperament 'bold' (one of cautious, balanced, aggressive)",
        ),
        (
            {"red": {"player": "search", "think": 99}},
            "think: expected seconds from 0 to 60, not 99",
        ),
        (  # a text given for a number is quoted, as the save's other fields say it
            {"red": {"player": "search", "think": "fast"}},
            'think: expected seconds from 0 to 60, not "fast"',
        ),
        (  # a text that could break the line is quoted
            {"red": {"player": "search", "think": "1\n2"}},
            'think: expected seconds from 0 to 60, not "1\\n2"',
        ),
    ],
)
def test_a_save_whose_players_are_wrong_is_refused_in_one_line_by_every_command(
    tmp_path: Path,
    players: dict[str, object],
    said: str,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    save = _saved(tmp_path, players)
    args = [str(save) if a == "SAVE" else a for a in command]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    side = next(iter(players))
    assert err == f"skirmish: {save}: players '{side}': {said}", err


def test_a_save_whose_players_are_a_text_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = _saved(tmp_path, "red\nsearch")  # type: ignore[arg-type]
    assert main(["replay", str(save), "--check"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.endswith('players: expected an object of side: player, not "red\\nsearch"'), err


@pytest.mark.parametrize("system", ["infinity", "necromunda", "open-rebellion"])
def test_a_saved_think_gives_the_player_the_same_budget_back(system: str) -> None:
    # review, session 8: the save wrote the budget's seconds rounded to the nearest
    # thousandth, so Necromunda's think 0.014 (8 steps) came back as 0.013 (7 steps),
    # below the judgement's threshold: the loaded player chose otherwise
    from game.playtest.players import recorded
    from game.rules.registry import RULESETS
    from game.sequencer.game import Game

    name = {"infinity": "infinity-demo", "necromunda": "necromunda-demo"}.get(
        system, "open-rebellion-demo"
    )
    setup = load_scenario(SCENARIOS / f"{name}.toml")
    ruleset = RULESETS[system]
    search = ruleset.player("search")
    engine = Game(setup, 1).engine
    for think in (0.014, 0.109, 0.5, 0.0733, 2.0):
        player = search(engine, think=think)
        again = search(engine, think=recorded(ruleset, player)["think"])
        assert again.budget == player.budget, think
    for budget in range(1, 400):  # a budget given in steps, its seconds recorded
        player = search(engine, budget=budget)
        again = search(engine, think=recorded(ruleset, player)["think"])
        assert again.budget == budget, budget
    # and a person reads the seconds to a thousandth, not the millionth they are saved to
    from game.playtest.players import said

    record = recorded(ruleset, search(engine, budget=120))
    assert said(record).endswith(f", {round(record['think'], 3):g} s a declaration")
    assert len(f"{round(record['think'], 3):g}") <= 5


def _computer_both(tmp_path: Path, steps: int = 6) -> Path:
    """A save of the Infinity demo under way with the computer playing both sides (the
    careful player), as a playtest's saves are."""
    from dataclasses import replace

    scenario = load_scenario(DEMO)
    sides = tuple(s.model_copy(update={"player": "careful"}) for s in scenario.sides)
    session = Session.start(replace(scenario, sides=sides))
    for _ in range(steps):
        session.step_ai()
    save = tmp_path / "both.json"
    session.save(save)
    return save


WATCHING = (
    "the computer plays PanOceania and Yu Jing, you watch: T takes one over, as skirmish "
    "play --side blue (PanOceania) or --side red (Yu Jing) does"
)


def test_a_save_the_computer_plays_both_sides_of_says_how_to_take_one(tmp_path: Path) -> None:
    # session 8 left it: a playtest's save opened with play --load played itself, and
    # nothing said how a person takes a side
    save = _computer_both(tmp_path)
    loaded = Session.load(save)
    assert loaded.watching() == WATCHING
    app = App(loaded.scenario, session=loaded)
    app.frame()
    assert app.state.watching == WATCHING
    # --side: a person plays blue, the computer red as the save has it (careful)
    mine = Session.load(save, "blue")
    assert not mine.is_ai("blue") and mine.is_ai("red")
    assert mine.recorded_players() == {"blue": {"player": "human"}, "red": {"player": "careful"}}
    assert mine.watching() == ""
    # replay --window --side: the person plays blue at the last step and when T takes over
    replay = Replay.open(save, "blue")
    stepped = replay.session_at(replay.last, mine.rules)
    assert not stepped.is_ai("blue") and stepped.is_ai("red")


def test_play_side_seats_a_person_and_the_computer_at_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.render.session import seated

    scenario = load_scenario(DEMO)  # blue a person's, red the computer's
    players = {s.id: s.player for s in seated(scenario, "red").sides}
    assert players == {"blue": "ai", "red": "human"}
    save = _computer_both(tmp_path)
    for args in (["play", "infinity-demo"], ["play", "--load", str(save)]):
        assert main([*args, "--side", "green", "--frames", "1"]) == 2
        err = capsys.readouterr().err.strip()
        assert err == (
            "skirmish: <command line>: play --side: no side 'green' in the scenario (its "
            "sides: blue (PanOceania), red (Yu Jing)); see skirmish play --help"
        )
    # replay's --side is for the window, as its --frames is
    assert main(["replay", str(save), "--side", "blue"]) == 2
    assert capsys.readouterr().err.strip() == (
        "skirmish: <command line>: replay --side: goes with --window; see skirmish replay --help"
    )


def test_play_load_of_a_finished_game_says_where_to_watch_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["playtest", "infinity-demo", "--games", "1", "--workers", "1", "--ai", "careful"]
    assert main([*args, "--out", str(tmp_path), "--save-games", "1"]) == 0
    [save] = (tmp_path / "saves").glob("*.json")
    capsys.readouterr()
    assert Session.load(save).watching() == ""  # over: nobody plays on
    assert main(["play", "--load", str(save), "--frames", "1"]) == 0
    err = capsys.readouterr().err
    assert f"note: this game is over: skirmish replay {save} --window steps through it" in err


def test_play_side_and_ai_for_the_same_side_are_refused_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fix9 left it: the refusal said 'played by a person in this scenario (player =
    # "human")', as if the scenario had seated the person there, not --side
    out = tmp_path / "x.png"
    shot = ["--frames", "1", "--screenshot", str(out)]
    play = ["play", "infinity-demo", *shot]
    for side, ai in (("blue", "blue=careful"), ("red", "blue=simple, red=careful")):
        assert main([*play, "--side", side, "--ai", ai]) == 2
        taken = ai.split(",")[-1].strip()
        assert capsys.readouterr().err.strip() == (
            f"skirmish: <command line>: play --ai: --side {side} makes side {side!r} yours "
            f"and --ai {taken} gives it to the computer: leave out one of the two; see "
            "skirmish play --help"
        )
    assert not out.exists()
    assert main([*play, "--side", "red", "--ai", "blue=careful"]) == 0 and out.exists()
    # a save that seats a person at blue says so, not the scenario
    save = tmp_path / "mine.json"
    Session.start(load_scenario(DEMO)).save(save)
    assert main(["play", "--load", str(save), *shot, "--ai", "blue=careful"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(
        "skirmish: <command line>: play --ai: side 'blue' is played by a person in this "
        "save (its players record a person for it); --side with another of its sides "
        "seats you there and gives 'blue' to the computer, whose player --ai then chooses"
    ), err


def test_undo_takes_back_only_what_a_person_declared_since_the_game_was_opened(
    tmp_path: Path,
) -> None:
    # fix9 left it: after play --load SAVE --side blue, undo took back the declarations
    # the computer had made for blue before the load as if the person had made them
    save = _computer_both(tmp_path)
    loaded = len(read_save(save).declarations)
    session = Session.load(save, "blue")
    assert not session.undo() and len(session.game.declarations) == loaded
    assert session.nothing_to_undo() == (
        "nothing to undo: what came before this game was opened here is the save's "
        "(skirmish replay SAVE --window steps back through it)"
    )
    while session.ai_due():  # the computer plays red until blue is awaited
        session.step_ai()
    at = len(session.game.declarations)
    session.declare(session.ai_choice())  # blue's, as a person would declare it
    while session.ai_due():
        session.step_ai()
    played = list(session.game.declarations)
    assert session.undo()  # the person's declaration and the computer's answers after it
    assert session.game.declarations == played[:at]
    assert not session.undo() and session.game.declarations == played[:at]
    assert session.redo() and session.game.declarations == played
    assert session.undo() and not session.undo()
    # the window says why
    app = App(session.scenario, session=session)
    app.perform(Undo())
    assert app.state.message == session.nothing_to_undo()
    # replay --window --side blue, taken over at the last declaration: the same
    replay = Replay.open(save, "blue")
    taken = replay.session_at(replay.last, session.rules)
    assert not taken.undo() and len(taken.game.declarations) == replay.last


def test_undo_never_takes_back_what_the_computer_declared(tmp_path: Path) -> None:
    from dataclasses import replace

    scenario = load_scenario(DEMO)
    sides = tuple(s.model_copy(update={"player": "careful"}) for s in scenario.sides)
    session = Session.start(replace(scenario, sides=sides))
    assert session.nothing_to_undo() == "nothing to undo"
    for _ in range(3):
        session.step_ai()
    assert not session.undo() and len(session.game.declarations) == 3
    assert session.nothing_to_undo() == (
        "nothing to undo: the computer made every declaration so far"
    )


def test_the_panel_lists_no_keys_to_declare_with_while_the_computer_plays_every_side(
    tmp_path: Path,
) -> None:
    # fix9 left it: the panel's foot still listed the person's keys (M move, S shoot,
    # Enter confirm, Ctrl+Z/Y undo) under 'you watch'
    from game.render.help import help_sections
    from game.render.panel import COMMON_HELP, WATCH_HELP

    save = _computer_both(tmp_path)
    _, app = _window(save)
    assert app.state.watching and app.state.keys_help == ()
    assert _foot(app)[1:] == WATCH_HELP
    footer = " ".join(text for text, _ in app.cache.panel.drawn)
    assert "M move" not in footer and "Enter confirm" not in footer and "Ctrl+S save" in footer
    titles = [title for title, _ in help_sections(app.state)]
    assert "Declaring (this rule system)" not in titles and "The table" in titles
    # a person at blue: the system's keys again
    mine, app = _window(save, "blue")
    assert _foot(app) == (*mine.rules.keys_help, *COMMON_HELP)


def _window(save: Path, person: str | None = None) -> tuple[Session, App]:
    """The window on `save`, loaded as `play --load SAVE [--side person]` loads it."""
    session = Session.load(save, person)
    return session, App(session.scenario, session=session)


def _foot(app: App) -> tuple[str, ...]:
    """The keys at the panel's foot, drawn now."""
    app.draw()
    key = app.cache.panel.key
    assert key is not None
    return tuple(key[1])  # type: ignore[arg-type]


def test_t_takes_over_a_side_the_computer_plays_from_inside_the_window(tmp_path: Path) -> None:
    # fix9 left it: only --side on the command line seated a person; a person watching
    # the computer play both sides had no key to take one
    from game.render.panel import COMMON_HELP

    watched, app = _window(_computer_both(tmp_path))
    assert _foot(app)[0] == "T play PanOceania from here (click a model first for its side)"
    click(app, base(app, "zhanshi-hmg"))  # a model of Yu Jing's: T takes its side
    assert app.state.selected == "zhanshi-hmg"
    assert _foot(app)[0] == "T play Yu Jing from here (click a model first for its side)"
    press(app, pygame.K_t)
    assert app.state.message == "you play Yu Jing from here, the computer PanOceania"
    # the dice log says it too, where it happened (tester9: it recorded nothing)
    assert app.state.log[-1].text == (
        f"Turn {watched.game.state.turn}: a person plays Yu Jing from here, the computer PanOceania"
    )
    assert not watched.is_ai("red") and watched.is_ai("blue")
    assert watched.recorded_players() == {"blue": {"player": "careful"}, "red": {"player": "human"}}
    assert app.state.watching == "" and app.state.keys_help == watched.rules.keys_help
    back = "T hand Yu Jing back to the computer"
    assert _foot(app) == (*watched.rules.keys_help, back, *COMMON_HELP)
    # the computer plays on for PanOceania until Yu Jing is asked
    made = len(watched.game.declarations)
    for _ in range(400):
        if app.state.human or watched.game.state.finished:
            break
        app.frame()
    assert app.state.human and app.state.prompt is not None and app.state.prompt.side == "red"
    assert len(watched.game.declarations) > made
    # what the computer declared for Yu Jing stays the computer's
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.state.message.startswith("nothing to undo: what came before this game was")


def test_t_where_a_person_plays_from_the_start_says_why_nothing_happens(tmp_path: Path) -> None:
    _, app = _window(_computer_both(tmp_path), "blue")  # play --load SAVE --side blue
    press(app, pygame.K_t)
    assert app.state.message == (
        "a person plays PanOceania here already: T takes a side over while the computer "
        "plays every side"
    )
    assert app.state.taken_here == ""


def test_t_again_hands_the_side_taken_back_to_the_computer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # session 9 left it: once a person had taken a side, nothing handed it back
    from game.render.help import help_sections

    watched, app = _window(_computer_both(tmp_path))
    # Yu Jing's player thinks long enough for the window to say so first
    watched.use_players({"red": ("search", (("think", 0.25),))})
    red, before = watched.player("red"), watched.recorded_players()
    thought: list[str | None] = []
    monkeypatch.setattr(app, "show_thinking", lambda: thought.append(app.state.active_side))
    click(app, base(app, "zhanshi-hmg"))
    press(app, pygame.K_t)
    assert app.state.taken_here == "Yu Jing"
    titles = dict(help_sections(app.state))
    assert titles["Playing Yu Jing, taken over here"] == (
        "T: hand Yu Jing back to the computer, which plays it on from here (undo still "
        "takes back only what you declared, and gives you the side again)",
    )
    _until_asked(app)
    assert thought == []  # nobody thinks for a person
    press(app, pygame.K_i)  # Yu Jing declares no ARO
    mine = len(watched.game.declarations)
    assert watched.made_by[-1] is True
    press(app, pygame.K_t)
    assert app.state.message == "the computer plays Yu Jing again"
    assert _log(app)[-1] == f"Turn {watched.game.state.turn}: the computer plays Yu Jing again"
    assert watched.is_ai("red") and watched.player("red") is red and not watched.taken
    assert watched.recorded_players() == before  # Ctrl+S records the computer's players
    assert app.state.watching == WATCHING and app.state.taken_here == ""
    assert _foot(app)[0].startswith("T play ")
    assert "Playing Yu Jing, taken over here" not in dict(help_sections(app.state))
    # the computer plays Yu Jing on, saying first that it is thinking
    for _ in range(400):
        if "red" in thought or watched.game.state.finished:
            break
        app.frame()
    assert "red" in thought and not app.state.human
    assert len(watched.game.declarations) > mine and watched.made_by[mine:] == [False] * (
        len(watched.game.declarations) - mine
    )
    # undo takes back what the person declared here, the computer's answers with it, and
    # Yu Jing is the person's again, as when they declared it (fix11b; session 10 left the
    # computer declaring again in its place at once, so undo looked like it did nothing)
    made = len(watched.game.declarations)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert len(watched.game.declarations) == mine - 1 < made
    assert not watched.is_ai("red") and app.state.taken_here == "Yu Jing"
    answers = made - len(watched.game.declarations) - 1  # the computer's, after the person's
    assert app.state.message == (
        f"undone: Zhanshi LT declares no ARO, and the computer's {answers} declarations after "
        "it: you play Yu Jing again, as when you declared what was undone"
    )
    # the log says the side was taken, not that it was handed back (undone with it)
    told = _log(app)
    assert [n for n, line in enumerate(told) if ": a person plays Yu Jing from here" in line]
    assert not any(": the computer plays Yu Jing again" in line for line in told[:-1])
    assert told[-1] == app.state.message
    # nobody declares in the person's place
    app.run(frames=app.frames + 2 * AI_FRAMES)
    assert len(watched.game.declarations) == mine - 1 and app.state.human
    # redo gives the game back as it stood: the declaration, the hand-back, the answers
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.state.message == (
        f"redone: Zhanshi LT declares no ARO, and the computer's {answers} declarations after "
        "it: the computer plays Yu Jing again, as before the undo"
    )
    assert len(watched.game.declarations) == made and watched.is_ai("red")
    assert watched.player("red") is red and app.state.taken_here == ""
    handed = [line for line in _log(app) if line.startswith("Turn ")]
    assert sum(": the computer plays Yu Jing again" in line for line in handed) == 1
    # undo again, then T hands the side back: the computer declares on, nothing to redo
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert not watched.is_ai("red")
    press(app, pygame.K_t)
    assert app.state.message == "the computer plays Yu Jing again"
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.state.message == "nothing to redo"
    app.run(frames=app.frames + 2 * AI_FRAMES)
    assert len(watched.game.declarations) >= mine
    # and T takes it over again
    press(app, pygame.K_t)
    assert app.state.message.startswith("you play ") and app.state.taken_here


def test_t_in_a_replay_the_computer_played_every_side_of_seats_the_person(
    tmp_path: Path,
) -> None:
    save = _computer_both(tmp_path)
    replay = Replay.open(save)
    app = App(replay.scenario)
    app.open_replay(replay, 3)
    press(app, pygame.K_t)  # nothing selected: the active side, PanOceania
    assert app.state.message == (
        "took over at declaration 3: a new game, Ctrl+S saves both-from-3.json; you play "
        "PanOceania from here, the computer Yu Jing"
    )
    assert app.session is not None and not app.session.is_ai("blue")
    assert app.session.is_ai("red") and app.state.watching == ""
    assert app.state.log[-1].text.endswith(
        ": a person plays PanOceania from here, the computer Yu Jing"
    )


def _until_asked(app: App) -> None:
    """Frames until a person is asked to declare (the computer plays on meanwhile)."""
    assert app.session is not None
    for _ in range(400):
        if app.state.human or app.session.game.state.finished:
            break
        app.frame()
    assert app.state.human and app.state.prompt is not None


def _log(app: App) -> list[str]:
    return [line.text for line in app.state.log]


@pytest.mark.parametrize("opened", ["play --load", "replay --window"])
def test_undo_after_t_keeps_the_log_line_that_said_the_side_was_taken(
    tmp_path: Path, opened: str
) -> None:
    # session 9's tester: after T and a person's declaration, undo told the log afresh
    # from the game's events alone, and the line saying the side was taken was gone (its
    # first lines, who the computer plays, named PanOceania only, as if it always had)
    save = _computer_both(tmp_path)
    if opened == "play --load":
        _, app = _window(save)
    else:
        replay = Replay.open(save)
        app = App(replay.scenario)
        app.open_replay(replay, 3)
    click(app, base(app, "zhanshi-hmg"))  # T takes Yu Jing
    opening = _log(app)[:2]
    assert opening == [
        "the computer plays PanOceania (careful)",
        "the computer plays Yu Jing (careful)",
    ]
    press(app, pygame.K_t)
    taken = _log(app)[-1]
    assert ": a person plays " in taken
    _until_asked(app)
    before = _log(app)
    assert before.index(taken) < len(before) - 1  # the computer played on after it
    prompt = app.state.prompt
    assert prompt is not None and prompt.reacting  # an ARO: I declares none
    press(app, pygame.K_i)
    assert len(_log(app)) > len(before)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.state.message == "undone: Zhanshi LT declares no ARO"
    # the log as it stood when the person was asked: told afresh, the same lines in order
    assert _log(app) == before
    assert _log(app).count(taken) == 1 and _log(app)[:2] == opening


def test_t_pressed_while_the_computer_thinks_takes_the_side_once_its_choice_is_in(
    tmp_path: Path,
) -> None:
    from game.render.thinking import Thinking

    watched, app = _window(_computer_both(tmp_path))
    side = watched.game.awaiting().side
    assert side == app.state.active_side  # T takes the side the computer is choosing for
    app.thinking = Thinking(watched.ai_choice)
    made = len(watched.game.declarations)
    press(app, pygame.K_t)  # queued: the game is not read while the computer thinks
    while app.thinking is not None:
        app.frame()
    assert not watched.is_ai(side) and app.state.message.startswith("you play")
    # the choice it worked out for that side is the person's to make now: dropped
    assert len(watched.game.declarations) == made and app.state.human


def test_a_game_saved_after_t_is_handed_back_by_t_after_play_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # session 10 left it: the save recorded the side taken as a person's and nothing
    # else, so after play --load T could not hand it back to the computer
    monkeypatch.chdir(tmp_path)
    watched, app = _window(_computer_both(tmp_path))
    watched.use_players({"red": ("search", (("temperament", "cautious"), ("think", 0.25)))})
    click(app, base(app, "zhanshi-hmg"))
    press(app, pygame.K_t)  # Yu Jing is the person's
    _until_asked(app)
    press(app, pygame.K_i)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    save = tmp_path / "skirmish-save.json"
    assert app.state.message == "saved skirmish-save.json"
    data = json.loads(save.read_text(encoding="utf-8"))
    computer = {"player": "search", "temperament": "cautious", "think": 0.25}
    assert data["players"]["red"] == {"player": "human"}
    assert data["taken_over"] == {"red": computer}
    assert main(["replay", str(save), "--check"]) == 0
    # play --load: Yu Jing is the person's, and T hands it to the player the computer had
    for opened in ("play --load", "replay --window"):
        if opened == "play --load":
            loaded, again = _window(save)
        else:
            replay = Replay.open(save)
            again = App(replay.scenario)
            again.open_replay(replay, replay.last)
            press(again, pygame.K_t)  # plays on from the last declaration
            assert again.state.message.startswith("playing on from the last declaration")
            loaded = again.require_session()
        assert not loaded.is_ai("red") and again.state.taken_here == "Yu Jing"
        press(again, pygame.K_t)
        assert again.state.message == "the computer plays Yu Jing again", opened
        assert loaded.is_ai("red") and loaded.recorded_players()["red"] == computer
    # --side seats the sides anew: the computer plays Yu Jing as it did, nothing is taken
    mine = Session.load(save, "blue")
    assert mine.recorded_players()["red"] == computer and not mine.taken
    # a save with no side taken over says nothing of it, as before
    plain = tmp_path / "plain.json"
    Session.load(save, "blue").save(plain)
    assert "taken_over" not in json.loads(plain.read_text(encoding="utf-8"))
    # a wrong record is refused in one line naming the place
    for taken, said in (
        ({"blue": {"player": "careful"}}, "the save has the computer play it: only a "
         "person's side is taken over"),
        ({"red": {"player": "human"}}, 'expected the player the computer had, not "human"'),
        ({"green": {"player": "careful"}}, "the scenario has no side 'green' (its sides: "
         "blue (PanOceania), red (Yu Jing))"),
    ):  # fmt: skip
        data["taken_over"] = taken
        save.write_text(json.dumps(data), encoding="utf-8")
        capsys.readouterr()
        assert main(["replay", str(save), "--check"]) == 2
        side = next(iter(taken))
        err = capsys.readouterr().err.strip()
        assert err == f"skirmish: {save}: taken_over '{side}': {said}", err
