"""GameState lookups: a model by id (an index built on first use) and the placements
built once per state; a replaced state answers for its own models, never the old ones."""

from __future__ import annotations

import dataclasses

import pytest

from game.sequencer.sight import Placement
from game.sequencer.state import GameState, ModelState, renew


def state() -> GameState:
    models = tuple(
        ModelState(f"m{k}", "blue" if k % 2 else "red", (float(k), 1.0), 0.0, "normal")
        for k in range(6)
    )
    return GameState(1, "blue", ("blue", "red"), models)


def test_every_model_is_found_by_its_id_and_an_unknown_id_is_a_key_error() -> None:
    s = state()
    assert [s.model(m.id) for m in s.models] == list(s.models)
    with pytest.raises(KeyError):
        s.model("nobody")


def test_a_replaced_state_finds_its_own_models() -> None:
    s = state()
    s.model("m3")  # the index is built
    moved = s.with_model(s.model("m3").replace(at=(9.0, 9.0), status="dead"))
    assert moved.model("m3").at == (9.0, 9.0)
    assert s.model("m3").at == (3.0, 1.0)
    assert moved == s.replace(models=moved.models)  # the index takes no part in equality
    assert hash(moved) == hash(s.replace(models=moved.models))


def test_placements_are_fresh_each_time_and_leave_the_gone_off_the_table() -> None:
    s = state().with_model(state().model("m2").replace(status="dead"))
    first = s.placements(("dead",))
    assert first["m2"] == Placement((2.0, 1.0), 0.0, False)
    assert all(first[m.id].present for m in s.models if m.id != "m2")
    first["m0"] = Placement((5.0, 5.0), 0.0)  # the caller may change its copy
    assert s.placements(("dead",))["m0"].at == (0.0, 1.0)
    assert s.placements()["m2"].present  # nothing gone: every model is on the table


def test_renew_makes_what_dataclasses_replace_makes_with_fresh_memos() -> None:
    s = state()
    s.model("m1")
    s.placements(("dead",))  # memos built on the old state
    assert renew(s, turn=2, active="red") == dataclasses.replace(s, turn=2, active="red")
    m = s.models[0]
    changes: dict[str, object] = {"at": (4.0, 4.0), "flags": frozenset({"x"})}
    assert renew(m, **changes) == dataclasses.replace(m, **changes)  # type: ignore[arg-type]
    moved = renew(s, models=s.models[:3])
    assert moved._index is None and moved._placed is None  # memos start afresh
    assert list(moved.placements()) == ["m0", "m1", "m2"]
    assert renew(s.models[0], at=(4.0, 4.0)).at == (4.0, 4.0)
    with pytest.raises(TypeError, match="no init field _index"):
        renew(s, _index={})
    with pytest.raises(TypeError, match="no init field bogus"):
        renew(s.models[0], bogus=1)


def test_with_model_keeps_the_order_and_the_index_answers_for_the_new_models() -> None:
    s = state()
    moved = s.with_model(s.model("m4").replace(at=(7.0, 7.0)))
    assert [m.id for m in moved.models] == [m.id for m in s.models]
    assert moved.model("m4").at == (7.0, 7.0) and s.model("m4").at == (4.0, 1.0)
    assert all(moved.model(m.id) is m for m in moved.models)


def test_a_state_made_with_the_same_models_keeps_what_was_worked_out_from_them() -> None:
    s = state()
    s.model("m1")
    s.placed(("dead",))
    kept = renew(s, turn=2, active="red")
    assert kept._index is s._index and kept._placed is s._placed
    assert kept.model("m5") is s.models[5]
    fresh = renew(s, models=tuple(reversed(s.models)))  # new models: worked out afresh
    assert fresh._index is None and fresh._placed is None
    assert fresh.model("m5") is s.models[5] and fresh.models.index(s.models[5]) == 0


def test_placements_of_a_state_share_the_unchanged_models_and_answer_for_the_changed() -> None:
    s = state()
    before = s.placed(("dead",))
    moved = s.with_model(s.model("m3").replace(at=(9.0, 9.0), status="dead"))
    after = moved.placed(("dead",))
    assert after["m3"] == Placement((9.0, 9.0), 0.0, False)
    assert all(after[m] is before[m] for m in ("m0", "m1", "m2", "m4", "m5"))
    # another game's state between them, with other models: each answers for its own
    other = GameState(1, "blue", ("blue", "red"), state().models[:2])
    assert list(other.placed(("dead",))) == ["m0", "m1"]
    again = renew(moved, models=(*moved.models[:5], moved.models[5].replace(at=(6.0, 6.0))))
    assert again.placed(("dead",))["m5"].at == (6.0, 6.0)
    assert again.placed(("dead",))["m3"] == Placement((9.0, 9.0), 0.0, False)
    assert s.placed(("dead",)) is before and before["m3"].at == (3.0, 1.0)


def test_an_open_rebellion_state_with_the_same_models_keeps_what_was_asked_of_them() -> None:
    from game.sequencer.open_rebellion_types import OpenRebellionState

    s = OpenRebellionState(1, "blue", ("blue", "red"), state().models)
    living = s.alive_in("u", ("m0", "m1"))
    s.asked().side_units["blue"] = ["u"]
    s.seen_counts()[("u", "v")] = [("m0", 1)]
    next_phase = renew(s, phase="activate", activating="u")
    assert next_phase.alive_in("u", ("m0", "m1")) is living
    assert next_phase.asked() is s.asked() and next_phase.seen_counts() is s.seen_counts()
    hurt = s.with_model(s.model("m1").replace(status="dead"))  # new models: asked afresh
    assert hurt.alive_in("u", ("m0", "m1")) == (s.models[0],)
    assert hurt.asked().side_units == {} and hurt.seen_counts() == {}
