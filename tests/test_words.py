"""The words every layer shares (game.words)."""

from __future__ import annotations

import pytest

from game.words import over


@pytest.mark.parametrize(
    ("value", "limit", "unit", "said"),
    [
        (3.05, 3.0, '"', '3.05"'),  # two decimals, as lof gives a distance
        (7.0, 3.0, '"', '7.00"'),
        (3.004, 3.0, '"', 'just over 3"'),  # 3.00" would read as within 3"
        (3.005000001, 3.0, '"', '3.01"'),
        (5.0000001, 5.0, '"', 'just over 5"'),
        (0.48, 0.0, '"', '0.48"'),
        (0.003, 0.0, '"', 'under 0.01"'),  # an overlap too small for two decimals
        (45.001, 45.0, " degrees", "just over 45 degrees"),
        (45.2, 45.0, " degrees", "45.20 degrees"),
    ],
)
def test_a_measure_past_its_limit_never_reads_as_within_it(
    value: float, limit: float, unit: str, said: str
) -> None:
    assert over(value, limit, unit) == said
