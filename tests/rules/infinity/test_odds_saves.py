"""Infinity saving rolls: hand-derived faces and wound distributions."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from game.rules.infinity.odds import RollSide, Side, face_to_face, rank_table
from game.rules.infinity.saves import (
    Ammo,
    Attack,
    Defence,
    SaveSystem,
    Weapon,
    effective_arm,
    save_rolls,
    wound_faces,
    wounds_taken,
)


def test_codeone_attack_damage() -> None:
    # CodeOne: wound when d20 <= DAM - ARM, -3 more in Partial Cover
    combi = Weapon(SaveSystem.CODEONE, 13)
    assert wound_faces(combi, Defence(arm=1)) == 12
    assert wound_faces(combi, Defence(arm=1, partial_cover=True)) == 9
    assert wound_faces(Weapon(SaveSystem.CODEONE, 13, Ammo.AP), Defence(arm=3)) == 11
    assert wound_faces(combi, Defence(arm=15)) == 0
    assert wound_faces(Weapon(SaveSystem.CODEONE, 25), Defence()) == 20


def test_n5_saving_roll() -> None:
    # N5: saved when d20 <= PS + ARM, +3 in Partial Cover
    combi = Weapon(SaveSystem.N5, 7)
    assert wound_faces(combi, Defence(arm=1)) == 12
    assert wound_faces(combi, Defence(arm=1, partial_cover=True)) == 9
    assert wound_faces(Weapon(SaveSystem.N5, 7, Ammo.AP), Defence(arm=5)) == 10
    assert wound_faces(Weapon(SaveSystem.N5, 18), Defence(arm=4)) == 0


def test_ap_halves_rounding_up_and_saves_per_hit() -> None:
    assert [effective_arm(a, Ammo.AP) for a in range(6)] == [0, 1, 1, 2, 2, 3]
    assert effective_arm(5, Ammo.DA) == 5
    # N 1, DA 2, EXP 3 per hit; each Critical one extra
    assert save_rolls(2, 0, Ammo.N) == 2
    assert save_rolls(0, 1, Ammo.N) == 2
    assert save_rolls(1, 1, Ammo.DA) == 5
    assert save_rolls(2, 1, Ammo.EXP) == 10


def test_wounds_by_full_enumeration() -> None:
    # 1 v 1 Face-to-Face, N ammo both ways: enumerate both attack dice and every save die
    one, two = RollSide(13, 1), RollSide(11, 1)
    a1 = Attack(Weapon(SaveSystem.N5, 7), Defence(arm=3))  # wound on 11..20 -> 10 faces
    a2 = Attack(Weapon(SaveSystem.CODEONE, 14), Defence(arm=1, partial_cover=True))  # 10
    r1, r2 = rank_table(13), rank_table(11)
    taken: dict[Side, Counter[int]] = {Side.ONE: Counter(), Side.TWO: Counter()}
    for f1, f2, s1, s2 in itertools.product(range(20), range(20), range(1, 21), range(1, 21)):
        x, y = r1[f1], r2[f2]
        saves = [s1, s2]
        wounds = {Side.ONE: 0, Side.TWO: 0}
        if x > y:  # side 1 wins: one save roll, two for a Critical
            rolls = 2 if x == 20 else 1
            wounds[Side.TWO] = sum(1 for s in saves[:rolls] if s > 3 + 7)  # N5: saved <= 10
        elif y > x:
            rolls = 2 if y == 20 else 1
            wounds[Side.ONE] = sum(1 for s in saves[:rolls] if s <= 14 - 1 - 3)
        for side in Side:
            taken[side][wounds[side]] += 1
    exact = wounds_taken(face_to_face(one, two), {Side.ONE: a1, Side.TWO: a2})
    for side in Side:
        assert exact[side].probabilities() == {
            w: Fraction(c, 20**4) for w, c in taken[side].items()
        }


def test_no_attack_no_wounds() -> None:
    exact = wounds_taken(face_to_face(RollSide(12, 2), RollSide(14, 1)), {})
    assert exact[Side.ONE].counts == {0: exact[Side.ONE].total}


def test_a_save_die_wounds_exactly_on_the_counted_faces() -> None:
    """`wounds_on` (the die the sequencer rolls) agrees with `wound_faces` (the count the
    odds use), and with the two editions' rules written out by hand."""
    from game.rules.infinity.saves import (
        Ammo,
        Defence,
        SaveSystem,
        Weapon,
        save_threshold,
        wound_faces,
        wounds_on,
    )

    for system in SaveSystem:
        for value in range(0, 21):
            for arm in range(0, 8):
                for cover in (False, True):
                    for ammo in (Ammo.N, Ammo.AP):
                        w, d = Weapon(system, value, ammo), Defence(arm, cover)
                        wounding = [f for f in range(1, 21) if wounds_on(f, w, d)]
                        assert len(wounding) == wound_faces(w, d)
                        eff = -(-arm // 2) if ammo is Ammo.AP else arm
                        if system is SaveSystem.CODEONE:  # wound on d20 <= DAM - ARM (-3)
                            expected = [f for f in range(1, 21) if f <= value - eff - 3 * cover]
                        else:  # saved on d20 <= PS + ARM (+3)
                            expected = [f for f in range(1, 21) if f > value + eff + 3 * cover]
                        assert wounding == expected
                        assert save_threshold(w, d) == (
                            len(expected) if system is SaveSystem.CODEONE else 20 - len(expected)
                        )
