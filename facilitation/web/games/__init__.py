"""Game-specific side panels for the play, watch and replay pages.

The board drawing (``facilitation.web.board``) is generic. Some games need more than a
board and a card to be playable: Tears of Tyranny has a player panel per faction, a hand
of capability cards whose text decides every choice, and an adversary phase that runs
on its own. A module here turns one seat's ``Rules.view()`` (never anything else of the
state) into a plain dict for ``templates/web/partials/games/<key>.html``.
"""

from __future__ import annotations

from typing import Any


def panel(key: str, view: dict, choices: list[dict], seats: list[dict]) -> dict | None:
    """The side panel of game ``key`` for one seat's view, or None for games without one."""
    if key == "tears_of_tyranny" and view:
        from . import tears_of_tyranny

        return tears_of_tyranny.panel(view, choices, seats)
    return None


def template(key: str, part: str = "") -> str:
    """The panel's template: below the board, or (``part="side"``) above the prompt's side column."""
    return f"web/partials/games/{key}{'_' + part if part else ''}.html"


__all__: list[Any] = ["panel", "template"]
