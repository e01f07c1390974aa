"""Mechanics shared by COIN-series games (Peru, Andean Abyss)."""
