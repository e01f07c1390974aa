"""One package per game; each exposes ``RULES``."""
