"""Every window test starts from an initialised display with no events waiting."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest


@pytest.fixture(autouse=True)
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.event.clear()
    yield
    if pygame.display.get_init():
        pygame.event.clear()
