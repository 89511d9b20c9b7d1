"""Playtesting: many games between automatic players, and their statistics."""
