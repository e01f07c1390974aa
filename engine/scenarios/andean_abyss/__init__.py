"""Andean Abyss (GMT COIN vol. I, 2nd edition) for CoinLab: ``engine.load("andean_abyss")``."""

from .rules import AndeanAbyss

RULES = AndeanAbyss()

__all__ = ["RULES", "AndeanAbyss"]
