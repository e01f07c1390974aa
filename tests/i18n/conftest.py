"""The web tests' people and cache fixtures (a toy game's pages are rendered here too)."""

from tests.web.conftest import _fresh_cache, instructor, students, toy_rules  # noqa: F401
