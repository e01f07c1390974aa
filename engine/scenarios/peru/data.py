"""Static data of the Peru scenario, loaded once from the JSON files in ``data/``.

Uncertain facts (Hunt Track targets, guessed LoCs and borders) live in those files, never
in code; docs/rules-notes/peru.md explains each.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.coin.board import Board

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    with open(_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


MAP = _load("map.json")
SETUP = _load("setup.json")
CARDS_DATA = _load("cards.json")

BOARD = Board(MAP["spaces"])
IDS: tuple[str, ...] = BOARD.ids
LIMA = "lima"
HIGHLAND = frozenset(MAP["sets"]["highland"])
JUNGLE = frozenset(MAP["sets"]["jungle"])
COASTAL = frozenset(MAP["sets"]["coastal"])
LOCS = frozenset(MAP["sets"]["locs"])
DEPARTMENTS = frozenset(HIGHLAND | JUNGLE | COASTAL)
CONTROLLABLE = tuple(s for s in IDS if s not in LOCS)
EZ_ELIGIBLE = frozenset(MAP["sets"]["emergency_zone_eligible"])
DRUG_TRADE = tuple(MAP["sets"]["drug_trade"])
PATROL_NETWORK = frozenset(MAP["sets"]["patrol_network"])
POP = {s: BOARD[s].population for s in IDS}
ECON = {s: BOARD[s].econ for s in IDS}
ADJ = BOARD.adj
ADJ_ORDERED = {s: tuple(x for x in IDS if x in BOARD.adj[s]) for s in IDS}
NAME = {s: BOARD[s].name for s in IDS}

HUNT_BOXES = MAP["hunt_track"]["boxes"]
HUNT_TARGETS = [b["target"] for b in HUNT_BOXES]
CAPTURED = MAP["hunt_track"]["captured_index"]
TARGET_AFTER_CAPTURE = MAP["hunt_track"]["target_after_capture"]
INITIATIVE_BOXES = MAP["initiative_boxes"]
MAX_BASES_PER_SPACE = MAP["limits"]["bases_per_space"]
EZ_MARKERS = MAP["limits"]["emergency_zone_markers"]

CARDS = {c["id"]: c for c in CARDS_DATA["cards"]}
EVENT_IDS = tuple(c["id"] for c in CARDS_DATA["cards"] if c["kind"] != "propaganda")
CAPABILITIES = frozenset(c["id"] for c in CARDS_DATA["cards"] if c["kind"] == "capability")
PROPAGANDA = ("P37", "P38", "P39", "P40")
PIECES_TOTAL = SETUP["pieces_total"]


def _validate() -> None:
    assert len(IDS) == 17 and len(LOCS) == 4
    for s in IDS:
        assert (s in LOCS) == BOARD[s].is_loc, s
    assert HUNT_TARGETS[0] is None and CAPTURED == len(HUNT_TARGETS) - 1
    assert len(CARDS) == 40 and len(EVENT_IDS) == 36
    for sid in SETUP["spaces"]:
        assert sid in BOARD, sid


_validate()
