"""skirmish: a simulator for tabletop skirmish wargames."""

__version__ = "0.1.0"
