"""Authoring script for the Tears of Tyranny data files (run it, then review the JSON diff).

    PYTHONPATH=. .venv/bin/python tools/content/tears_of_tyranny_authoring.py

Only the rulebook text of Tears of Tyranny survives (NPS thesis supplement, 2022), so every
card face, tile and panel value is authored here, in our own words, within the counts and fields
the rulebook fixes (see shared/reference/tears-of-tyranny/authoring-brief.md). The compact rows
below are the single source; this script expands them into ``data/*.json`` and the engine only
ever reads the JSON. Derived values (axial coordinates, coast/border flags, terrain-card
reference numbers by depth, card text) are computed here so a reviewer can check the rule that
produced them. Each card carries ``teaching_note`` naming the doctrinal theme (T1-T23 of the
brief) it is meant to teach.

This is a developer tool: it writes files. It lives outside the runtime package (issue 16.9): the
engine never imports it and it is not installed with the engine.
"""

from __future__ import annotations

import json
import pathlib

from engine.scenarios.tears_of_tyranny.vocab import describe_board, describe_cap

HERE = pathlib.Path(__file__).resolve().parents[2] / "engine" / "scenarios" / "tears_of_tyranny" / "data"

# ---------------------------------------------------------------------------------------------
# Map (1.A; ). A septet is a centre hex and its six neighbours (positions 0-6,
# 1-6 clockwise from east). Septet centres tile the plane on the lattice A=(2,1), B=(-1,3)
# (axial q,r). A quadrant is septets at 0, A, B, A+B; quadrants sit at 0, 2A, 2B, 2A+2B, so
# 2 players are side by side, 3 an L, 4 a 2x2 block.
# ---------------------------------------------------------------------------------------------
DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
FLOWER = [(0, 0)] + DIRS
A = (2, 1)
B = (-1, 3)
SEPTET_OFFSETS = [(0, 0), A, B, (A[0] + B[0], A[1] + B[1])]
QUADRANT_OFFSETS = [(0, 0), (2 * A[0], 2 * A[1]), (2 * B[0], 2 * B[1]),
                    (2 * A[0] + 2 * B[0], 2 * A[1] + 2 * B[1])]
# two coast/border pieces per quadrant, on sides that are outer in every layout
PIECES = {
    1: [("-A", "coast", "the Western Sea"), ("-B", "border", "the Northern Frontier")],
    2: [("+A", "coast", "the Eastern Gulf"), ("-B", "border", "the Northern Frontier")],
    3: [("-A", "coast", "the Western Sea"), ("+B", "border", "the Southern Marches")],
    4: [("+A", "coast", "the Eastern Gulf"), ("+B", "border", "the Southern Marches")],
}
SIDE_VEC = {"-A": (-2 * A[0], -2 * A[1]), "+A": (2 * A[0], 2 * A[1]),
            "-B": (-2 * B[0], -2 * B[1]), "+B": (2 * B[0], 2 * B[1])}

TERRAIN = {"J": "jungle", "D": "desert", "U": "urban", "R": "rural"}
DEFENSE = {"jungle": 1, "rural": 1, "desert": 0, "urban": 0}  # urban 0

# 16 septets x 7 tiles. Code: terrain letter, then after ':' comma-separated start pieces:
# c cell, o outpost, g garrison, t tyranny, i infrastructure, rN red civilians, bN blue.
SEPTETS = {
    1: ["U:r1,b3,i", "R:b1", "J", "J", "D:c", "R:r1", "D"],
    2: ["J:b1", "R:b2", "D", "U:r2,b1", "J:c", "R", "D"],
    3: ["D:g,o,r2", "R:o,r1", "J", "U:r2,b1", "D", "R:c", "J"],
    4: ["R:b2,i", "J:c", "D:o", "U:r1,b2", "J", "D", "R:r1"],
    5: ["J:b1,i", "D:c", "R:b1", "U:r1,b2", "J", "R:r1", "D"],
    6: ["R:b1", "U:r2,b1", "J:c", "D", "R:o,r1", "J", "D"],
    7: ["U:g,o,r3", "D:c", "R:b1", "J", "R", "D", "J:b1"],
    8: ["D:o", "J:b1", "R:c", "U:r1,b2,i", "D", "J", "R:r1"],
    9: ["R:r1,b1,i", "J:b1", "D", "U:r1,b2", "J:c", "D", "R"],
    10: ["J:o", "R:b1", "U:r2,b1", "D:c", "R:r1", "J", "D"],
    11: ["D:c", "U:r1,b2", "J", "R:g,o,r2", "D", "J:b1", "R"],
    12: ["U:r1,b2,i", "D:o", "J:c", "R:b1", "J", "D", "R:r1"],
    13: ["J:b2,i", "R:c", "D", "U:r1,b2", "R", "J:r1", "D"],
    14: ["U:g,o,r2", "J:b1", "R:c", "D", "J", "R:o", "D:b1"],
    15: ["R:b1", "D:c", "U:r1,b2,i", "J", "R:r1", "D:o", "J"],
    16: ["D", "J:c", "R:b2", "U:r1,b1", "D", "J:b1", "R:r1"],
}
# the place of each tile of a septet (FLOWER order: centre, then DIRS on a pointy-top axial grid)
FLOWER_PLACES = ["Centre", "East", "North-East", "North-West", "West", "South-West", "South-East"]
SEPTET_NAMES = {
    1: "Port Aurel", 2: "Verde Hills", 3: "Fort Calder", 4: "Mirasol Valley",
    5: "Cedar Delta", 6: "Tamsin Ridge", 7: "Old Capital", 8: "Salt Flats",
    9: "Linden Coast", 10: "Greywood", 11: "Brasca Farms", 12: "New Harbor",
    13: "Orchid Basin", 14: "Iron Gate", 15: "Riverbend", 16: "Dunmore Plain",
}


def _parse_tile(code: str) -> dict:
    letter, _, rest = code.partition(":")
    start = {"cells": 0, "outposts": 0, "garrisons": 0, "tyranny": 0, "red_civilians": 0,
             "blue_civilians": 0}
    infra = False
    for tok in filter(None, rest.split(",")):
        if tok == "c":
            start["cells"] += 1
        elif tok == "o":
            start["outposts"] += 1
        elif tok == "g":
            start["garrisons"] += 1
        elif tok == "t":
            start["tyranny"] += 1
        elif tok == "i":
            infra = True
        elif tok[0] == "r":
            start["red_civilians"] += int(tok[1:])
        elif tok[0] == "b":
            start["blue_civilians"] += int(tok[1:])
        else:
            raise ValueError(code)
    terrain = TERRAIN[letter]
    return {"terrain": terrain, "defense_modifier": DEFENSE[terrain], "start": start,
            "infrastructure": infra}


def build_map() -> dict:
    tiles = []
    pos_of = {}
    for quad in range(1, 5):
        qo = QUADRANT_OFFSETS[quad - 1]
        for si in range(4):
            sep = (quad - 1) * 4 + si + 1
            so = SEPTET_OFFSETS[si]
            for pi, (dq, dr) in enumerate(FLOWER):
                q = qo[0] + so[0] + dq
                r = qo[1] + so[1] + dr
                tid = f"s{sep:02d}t{pi}"
                t = {"id": tid, "septet": sep, "quadrant": quad, "pos": pi, "q": q, "r": r}
                t.update(_parse_tile(SEPTETS[sep][pi]))
                tiles.append(t)
                pos_of[(q, r)] = tid
    # coast/border flags (2.4.3): a tile shares an edge with a piece if one of its neighbours
    # lies in the (always empty) quadrant slot on that piece's side.
    footprint = {}
    for t in tiles:
        footprint.setdefault(t["quadrant"], set()).add((t["q"], t["r"]))
    for t in tiles:
        t["coastal"] = False
        t["edge"] = None
        for side, kind, _name in PIECES[t["quadrant"]]:
            vx, vy = SIDE_VEC[side]
            slot = {(q + vx, r + vy) for (q, r) in footprint[t["quadrant"]]}
            if any((t["q"] + dq, t["r"] + dr) in slot for dq, dr in DIRS):
                t["coastal"] = True
                t["edge"] = kind
    # terrain-card reference numbers: within each quadrant, 1-28 by depth from the
    # coast/border (breadth-first), ties broken by a fixed per-quadrant stride so the order is
    # not readable from the map. Stage I = 1-7, II = 8-14, III = 15-21, IV = 22-28.
    by_id = {t["id"]: t for t in tiles}
    for quad in range(1, 5):
        qt = [t for t in tiles if t["quadrant"] == quad]
        depth = {}
        frontier = [t["id"] for t in qt if t["coastal"]]
        for tid in frontier:
            depth[tid] = 0
        while frontier:
            nxt = []
            for tid in frontier:
                t = by_id[tid]
                for dq, dr in DIRS:
                    nid = pos_of.get((t["q"] + dq, t["r"] + dr))
                    if nid and by_id[nid]["quadrant"] == quad and nid not in depth:
                        depth[nid] = depth[tid] + 1
                        nxt.append(nid)
            frontier = nxt
        stride = [7, 11, 13, 17][quad - 1]
        order = sorted(qt, key=lambda t: (depth[t["id"]], (qt.index(t) * stride) % 29))
        for i, t in enumerate(order):
            t["terrain_card_ref"] = i + 1
    for t in tiles:
        t["septet_name"] = SEPTET_NAMES[t["septet"]]
        # issue 16.6: a unique name a player can say aloud: the septet and the tile's place in it
        t["name"] = f"{SEPTET_NAMES[t['septet']]} {FLOWER_PLACES[t['pos']]}"
    return {
        "source": "authored (A-03, A-04); terrain, modifiers, starting conditions per L145-L161",
        "septets": [{"septet_ref": s, "name": SEPTET_NAMES[s], "quadrant": (s - 1) // 4 + 1,
                     "tiles": [f"s{s:02d}t{p}" for p in range(7)]} for s in range(1, 17)],
        "coast_border_pieces": [{"id": f"q{q}{side}", "quadrant": q, "side": side, "kind": kind,
                                 "name": name} for q in range(1, 5) for side, kind, name in PIECES[q]],
        "tiles": tiles,
    }


# ---------------------------------------------------------------------------------------------
# Player panels (1.E; player-panels.md, consolidated readings; A-32 requirements authored)
# ---------------------------------------------------------------------------------------------
PANELS = [
    {
        "id": "liberators", "title": "Liberators", "color": "#0072B2",
        "modelled_on": "U.S. Special Forces",
        "approach": "See without being seen: live among the people in jungle and farmland, raise "
                    "and lead guerrilla bands, and let them carry the fight.",
        "attributes": ["flexibility", "charisma"],
        "start_hq": "jungle", "start_resources": 3,
        "track": {"resources": [1, 2, "flexibility", 3, 4, "charisma", 5],
                  "plays": [1, 2, 3, "reclaim", 4, 4, 5]},
        "refit": {"picks": 2, "roll": False, "options": [
            {"id": "reclaim_gain", "group": "a", "parts": [{"k": "reclaim_all"}, {"k": "gain", "n": 1}]},
            {"id": "presence", "group": "b", "parts": [{"k": "presence", "range": 1}]},
            {"id": "base_g", "group": "b", "parts": [{"k": "base_g"}]},
            {"id": "gain", "group": "c", "parts": [{"k": "gain", "n": 1}]},
            {"id": "res1", "group": "d", "parts": [{"k": "resources", "n": 1}]},
            {"id": "res3", "group": "e", "parts": [{"k": "resources", "n": 3}]},
        ]},
        "presence_moves_with": "g",
        "force_management": {"phase": "window", "options": [
            {"id": "recruit", "cost": 1, "influence": 0, "n": 1, "range": 1,
             "where": "jungle_rural_blue_near"},
            {"id": "base", "cost": 3, "influence": 0, "range": 1, "where": "liberator_base"},
        ]},
        "base_output": {"n": 1, "cost": 0, "needs_presence": True},
        "collateral_penalty": 2,
        "patrol": {"speed": "immediate", "range": 0, "target": ["no_tyranny", "presence"], "steps": [
            {"req": {"flexibility": 2}, "ops": [{"op": "pull", "what": "own_g", "n": 1}]},
            {"req": {"flexibility": 1, "charisma": 3}, "ops": [{"op": "damage_per_g"}]},
            {"req": {"flexibility": 2}, "ops": [{"op": "push", "what": "own_g", "n": 2}]},
        ]},
        "special": {"name": "Strong Partnership", "speed": "long", "range": 1, "target": ["gs"], "tiers": [
            {"req": {"flexibility": 1, "charisma": 3},
             "ops": [{"op": "influence", "n": 1}, {"op": "damage", "n": 2}, {"op": "remove_own_g", "n": 1}]},
            {"req": {"flexibility": 3, "charisma": 3}, "ops": [{"op": "influence", "n": 1}, {"op": "damage", "n": 1}]},
            {"req": {"flexibility": 5, "charisma": 3}, "ops": [{"op": "influence", "n": 1}, {"op": "damage", "n": 1}]},
        ]},
        "special_rules": [
            "Presence may move with one of your guerrillas.",
            "Recruit 1 G (1 resource) in a jungle or rural tile within 1 of your presence that has or borders blue civilians.",
            "Establish a G base (3 resources) in a jungle or rural tile within 1 of your presence, holding your G, with or next to blue civilians; never in or next to a red-civilian tile. It produces 1 free G per turn while your presence is there.",
            "Cannot convert civilians.",
            "Presence cannot enter or be placed in a red-civilian tile unless a G is there.",
            "Each civilian killed by your attack costs 2 influence.",
        ],
    },
    {
        "id": "advisors", "title": "Advisors", "color": "#E69F00",
        "modelled_on": "U.S. Civil Affairs and Psychological Operations",
        "approach": "Work in the open with the population: win people over, keep the adversary "
                    "off balance, and let partners do the fighting.",
        "attributes": ["oversight", "integrity"],
        "start_hq": "urban", "start_resources": 3,
        "track": {"resources": [2, 2, 3, "oversight", 4, "integrity", 5, 6],
                  "plays": [1, 2, 2, 3, 4, "unlimited"]},
        "refit": {"picks": 1, "roll": False, "options": [
            {"id": "reclaim_gain", "group": "a", "parts": [{"k": "reclaim_all"}, {"k": "gain", "n": 1}]},
            {"id": "reclaim1_presence", "group": "b", "parts": [{"k": "reclaim1"}, {"k": "presence", "range": 1}]},
            {"id": "gain_presence", "group": "c", "parts": [{"k": "gain", "n": 1}, {"k": "presence", "range": 1}]},
            {"id": "gain_res4", "group": "d", "parts": [{"k": "gain", "n": 1}, {"k": "resources", "n": 4}]},
        ]},
        "presence_moves_with": "blue",
        "force_management": {"phase": "long", "options": [
            {"id": "recruit", "cost": 0, "influence": 1, "n": 1, "range": 0, "where": "presence_blue_near"},
            {"id": "convert", "cost": 1, "influence": 1, "range": 0, "where": "presence_red"},
        ]},
        "base_output": None,
        "collateral_penalty": 3,
        "patrol": {"speed": "immediate", "range": 0, "target": ["presence"], "steps": [
            {"req": {"oversight": 2}, "ops": [{"op": "pull", "what": "own_g", "n": 2}]},
            {"req": {"oversight": 1, "integrity": 2}, "ops": [{"op": "push", "what": "own_g", "n": 1}]},
            {"req": {"oversight": 1, "integrity": 2}, "ops": [{"op": "damage_per_g"}]},
        ]},
        "special": {"name": "Diplomatic Ties", "speed": "immediate", "range": 0,
                    "target": ["presence", "blue_civilians"], "tiers": [
            {"req": {"oversight": 2, "integrity": 3}, "ops": [{"op": "influence", "n": 1}, {"op": "resources", "n": 1}]},
            {"req": {"oversight": 4, "integrity": 3}, "ops": [{"op": "influence", "n": 1}, {"op": "resources", "n": 2}]},
            {"req": {"oversight": 3, "integrity": 5}, "ops": [{"op": "influence", "n": 2}]},
        ]},
        "special_rules": [
            "Presence moves only with blue civilians.",
            "Recruit 1 G for 1 influence in your presence tile when it or a neighbour has blue civilians.",
            "Convert a red civilian to blue for 1 influence and 1 resource.",
            "Never enters or is placed in a tile with adversary units; cannot move with guerrillas; cannot establish bases.",
            "Never damages or kills directly: a kill your capability would make instead earns 1/2/5 influence (cell/outpost/garrison) and moves that unit to a neighbouring tile.",
            "All your presence counts as a headquarters for capabilities.",
            "Each civilian killed by your action costs 3 influence.",
        ],
    },
    {
        "id": "partisans", "title": "Partisans", "color": "#D55E00",
        "modelled_on": "PLA advisors and 'volunteers'",
        "approach": "Spend freely and build the network fast; what the adversary breaks, the "
                    "network rebuilds.",
        "attributes": ["persistence", "logistics"],
        "start_hq": "rural", "start_resources": 3,
        "track": {"resources": [1, 2, "persistence", 4, "logistics", 5, 6],
                  "plays": [1, 2, 2, 3, "reclaim", 4, 5]},
        "refit": {"picks": 1, "roll": True, "options": [
            {"id": "reclaim_gain", "group": "a", "parts": [{"k": "reclaim_all"}, {"k": "gain", "n": 1}]},
            {"id": "reclaim1_gain", "group": "b", "parts": [{"k": "reclaim1"}, {"k": "gain", "n": 1}]},
            {"id": "presence_gain", "group": "c", "parts": [{"k": "presence", "range": 1}, {"k": "gain", "n": 1}]},
            {"id": "res3", "group": "d", "parts": [{"k": "resources", "n": 3}]},
        ]},
        "presence_moves_with": "g",
        "force_management": {"phase": "window", "options": [
            {"id": "recruit", "cost": 2, "influence": 0, "n": 1, "range": 0, "where": "presence_civilians"},
            {"id": "base", "cost": 5, "influence": 0, "range": 0, "where": "hq_base"},
            {"id": "convert", "cost": 1, "influence": 0, "range": 0, "where": "presence_red"},
        ]},
        "base_output": {"n": 2, "cost": 0, "needs_presence": False},
        "collateral_penalty": 0,
        "patrol": {"speed": "long", "range": 0, "target": ["presence"], "steps": [
            {"req": {"persistence": 2}, "ops": [{"op": "pull", "what": "own_g", "n": 2}]},
            {"req": {"persistence": 2, "logistics": 3}, "ops": [{"op": "damage_per_g"}]},
            {"req": {"persistence": 2}, "ops": [{"op": "push", "what": "own_g", "n": 1}]},
        ]},
        "special": {"name": "Peasant Revolution", "speed": "long", "range": 1, "target": ["rural"],
                    "early_req": {"persistence": 3},
                    "tiers": [
            {"req": {"logistics": 1}, "ops": [{"op": "destroy", "unit": "outpost", "n": 1}], "per_civilians": 2},
            {"req": {"logistics": 2}, "ops": [{"op": "destroy", "unit": "garrison", "n": 1}], "per_civilians": 3},
            {"req": {"logistics": 4, "persistence": 3}, "ops": [{"op": "destroy", "unit": "garrison", "n": 1}], "per_civilians": 3},
        ]},
        "special_rules": [
            "Before refit, roll a d10: 6-10 adds 1 presence within 1 of your presence.",
            "Presence may move with one of your guerrillas.",
            "Recruit 1 G (2 resources) in a presence tile with civilians.",
            "From an HQ, establish a G base (5 resources) in a tile with your G and with or next to civilians; it produces up to 2 free Gs per turn.",
            "Convert a red civilian to blue for 1 resource (bought support earns no influence).",
            "When the adversary would develop or dominate a tile with your HQ, you may give up one presence there to prevent it.",
            "Your presence is never destroyed: it returns to your track.",
            "Collateral damage costs you no influence.",
        ],
    },
    {
        "id": "comrades", "title": "Comrades", "color": "#CC79A7",
        "modelled_on": "Russian private military contractors",
        "approach": "Work the murky border: bring in paid proxies across the frontier and hit hard, "
                    "whatever it costs the people.",
        "attributes": ["risk", "corruption"],
        "start_hq": "coastal", "start_resources": 3,
        "track": {"resources": [1, 2, "risk", 3, 4, "corruption", 5],
                  "plays": [1, 2, 2, 3, "reclaim", 3, 4]},
        "refit": {"picks": 1, "roll": False, "options": [
            {"id": "reclaim_gain2", "group": "a", "parts": [{"k": "reclaim_all"}, {"k": "gain", "n": 2}]},
            {"id": "presence2_presence1", "group": "b", "parts": [{"k": "presence", "range": 2}, {"k": "presence", "range": 1}]},
            {"id": "presence1_res4", "group": "c", "parts": [{"k": "presence", "range": 1}, {"k": "resources", "n": 4}]},
        ]},
        "presence_moves_with": "g",
        "force_management": {"phase": "window", "options": [
            {"id": "recruit", "cost": 1, "influence": 0, "n": 5, "range": 1, "where": "coastal_near"},
            {"id": "base", "cost": 3, "influence": 0, "range": 0, "where": "hq_base"},
        ]},
        "base_output": {"n": 1, "cost": 1, "needs_presence": False},
        "collateral_penalty": 0,
        "patrol": {"speed": "immediate", "range": 0, "target": ["presence"], "steps": [
            {"req": {"risk": 1}, "ops": [{"op": "pull", "what": "own_g", "n": 1}]},
            {"req": {"risk": 2}, "ops": [{"op": "damage_per_g"}]},
            {"req": {"risk": 1, "corruption": 2}, "ops": [{"op": "push", "what": "own_g", "n": 2}]},
        ]},
        "special": {"name": "Collateral Damage", "speed": "immediate", "range": "hq:2", "target": ["any"], "tiers": [
            {"req": {"corruption": 2}, "ops": [{"op": "damage", "n": 2}, {"op": "kill_civilian", "n": 1}]},
            {"req": {"corruption": 2, "risk": 2}, "ops": [{"op": "damage", "n": 1}, {"op": "influence", "n": -1}]},
            {"req": {"corruption": 4}, "ops": [{"op": "damage", "n": 1}, {"op": "kill_civilian", "n": 1}]},
            {"req": {"corruption": 4, "risk": 3}, "ops": [{"op": "damage", "n": 1}, {"op": "kill_civilian", "n": 1}]},
        ]},
        "special_rules": [
            "Presence may move with one of your guerrillas.",
            "Recruit up to 5 Gs (1 resource each) in coastal/border tiles within 1 of your presence.",
            "From an HQ, establish a G base (3 resources) in a tile with your G and with or next to civilians; it produces 1 G per turn for 1 resource.",
            "Cannot convert civilians.",
            "Collateral damage costs you no influence.",
        ],
    },
]

# ---------------------------------------------------------------------------------------------
# Capability cards. Row: (id, title, cost, speed I/L, range, target, ops, attributes, theme, note)
# ---------------------------------------------------------------------------------------------


def dmg(n, ign=False):
    return {"op": "damage", "n": n, **({"ignore_defense": True} if ign else {})}


def dst(u, n=1):
    return {"op": "destroy", "unit": u, "n": n}


def rem(u, n=1):
    return {"op": "remove", "unit": u, "n": n}


def rep(w, i):
    return {"op": "replace", "what": w, "influence": i}


def pull(w, n):
    return {"op": "pull", "what": w, "n": n}


def push(w, n):
    return {"op": "push", "what": w, "n": n}


def df(n):
    return {"op": "defense", "n": n}


def prev(*s):
    return {"op": "prevent", "steps": list(s)}


def inf(n):
    return {"op": "influence", "n": n}


def res(n):
    return {"op": "resources", "n": n}


def pres():
    return {"op": "presence"}


def rec(n):
    return {"op": "recruit", "n": n}


def conv(n):
    return {"op": "convert", "n": n}


def kill(n, c="any"):
    return {"op": "kill_civilian", "n": n, "color": c}


def untyr():
    return {"op": "remove_tyranny"}


def ifa(a, n, *ops):
    return {"op": "if_attr", "attr": a, "n": n, "then": list(ops)}


F, C, OV, IN, P, L, R, X = ("flexibility", "charisma", "oversight", "integrity",
                          "persistence", "logistics", "risk", "corruption")

EARMARKED = {
    "liberators": [
        ("L-M1", "Pilot Team Infiltration", 3, "I", 1, ["jungle_rural"], [rec(2), inf(1)], [F, F, C], "T4",
         "A small team slips in first, finds the local leaders and raises the first bands."),
        ("L-m1", "Village Stability Talks", 1, "I", 0, ["presence"], [df(1), ifa(C, 2, inf(1))], [C, C], "T6",
         "Sitting with elders before acting turns a tolerated outsider into a trusted one."),
        ("L-m2", "Jungle Lane Rehearsal", 1, "I", 0, ["presence"], [pull("own_g", 1)], [F, F], "T14",
         "Restricted terrain rewards the side that has walked its trails in advance."),
        ("L-m3", "Low-Visibility Ambush", 2, "I", 1, ["adversary"], [dmg(2)], [F, C], "T10",
         "Striking from concealment keeps the signature small and the partner force intact."),
    ],
    "advisors": [
        ("A-M1", "Civil-Military Operations Center", 3, "I", 0, ["presence"], [conv(2), inf(1)], [OV, OV, IN], "T6",
         "Visible, accountable help to the population shifts sympathies more than any raid."),
        ("A-m1", "Radio in the Market", 1, "I", 1, ["civilians"], [conv(1), df(1)], [OV, OV], "T6",
         "Messages that answer the people's real grievances win the information contest."),
        ("A-m2", "Liaison with Local Councils", 1, "I", 0, ["presence"], [inf(1)], [OV, IN], "T5",
         "Working by, with and through legitimate local bodies multiplies a small team."),
        ("A-m3", "Rumour Campaign", 2, "I", 0, ["presence"], [push("adversary", 1), ifa(IN, 2, push("adversary", 1))],
         [IN, IN], "T21",
         "An adversary that chases shadows withdraws without a shot and gives the people nothing to mourn."),
    ],
    "partisans": [
        ("P-M1", "Volunteer Column", 3, "I", 0, ["presence"], [rec(2), {"op": "damage_per_g"}, inf(1)], [P, P, L], "T18",
         "A sponsor that sends 'volunteers' buys speed and a visible show of strength, but the network "
         "it builds is overt."),
        ("P-m1", "Supply Caravan", 1, "I", 0, ["presence"], [res(2)], [L, P], "T13",
         "External support lives or dies on the logistics that keep partners fed and armed."),
        ("P-m2", "Village Militia Drills", 1, "I", 1, ["civilians"], [df(2)], [P, P], "T11",
         "Villagers drilled by cadres defend their own homes: the inner security of a liberated zone."),
        ("P-m3", "Paid Harvest Crews", 2, "I", 0, ["red_civilians", "presence"], [conv(1)], [L, L], "T19",
         "Money can rent a village's loyalty for a season; it does not earn lasting influence."),
    ],
    "comrades": [
        ("C-M1", "Border Crossing Contract", 3, "I", 1, ["coastal"], [rec(2), {"op": "damage_per_g"}, inf(1)], [R, R, X], "T17",
         "Sanctuary across the frontier lets a sponsor feed proxies into the fight at will, and be seen to."),
        ("C-m1", "Quick Cash Payments", 1, "I", 0, ["presence"], [res(2), pull("own_g", 1)], [X, R], "T18",
         "Paying proxies by the day buys fast results and little loyalty."),
        ("C-m2", "Shock Raid", 2, "I", 1, ["adversary"], [dmg(3)], [R, R], "T8",
         "A hard, fast strike wins a tile, and the people in it pay for the noise."),
        ("C-m3", "Bribed Commander", 2, "I", 1, ["adversary"], [prev("develop", "dominate"), inf(1)], [X, X], "T3",
         "On the periphery, a bribe stalls an offensive the regime thought was certain, and the "
         "people see the regime falter."),
    ],
}

MAJORS = [
    ("M01", "Partner Force Training Cycle", 4, "L", 0, ["own_gs", "presence"], [rec(2), ifa(C, 2, rec(1))], [C, F], "T5",
     "Training partners is slow but every graduate fights for years after the trainers leave."),
    ("M02", "Combined Ambush Plan", 4, "I", 1, ["adversary"], [dmg(3), ifa(F, 2, dmg(2)), inf(1)], [F, R], "T5",
     "A plan rehearsed with the partner force lets a small band hit a larger enemy twice."),
    ("M03", "Sabotage the Rail Spur", 3, "I", 2, ["infrastructure", "adversary"], [dmg(3)], [R, L], "T15",
     "Cutting the line that feeds a garrison weakens it more than fighting it head on."),
    ("M04", "Regional Uprising Committee", 5, "L", 1, ["civilians"], [conv(2), inf(2)], [C, IN], "T7",
     "When people see a credible alternative, small successes add up to a movement."),
    ("M05", "Coastal Interdiction Network", 4, "I", 1, ["coastal"], [prev("deploy"), dmg(2)], [OV, R], "T17",
     "Watching the landing beaches denies the adversary its free manoeuvre from the sea."),
    ("M06", "Underground Press", 3, "L", 1, ["civilians"], [conv(1), inf(1)], [IN, OV], "T6",
     "A clandestine newspaper keeps the population's grievances public and the regime defensive."),
    ("M07", "Liberated Zone", 5, "I", 0, ["own_gs", "presence"], [df(3), prev("dominate", "develop")], [P, C], "T11",
     "A zone the people defend themselves is a sanctuary the regime must pay dearly to enter."),
    ("M08", "Decapitation of the Cell Network", 4, "I", 2, ["cells"], [dst("cell", 2)], [OV, F], "T16",
     "Striking intelligence cells early stops the regime's expansion before it grows roots."),
    ("M09", "Mass Demonstration", 4, "I", 0, ["urban", "presence"], [inf(2), conv(1)], [IN, C], "T7",
     "A crowd in the square shows everyone, the regime included, which way the wind blows."),
    ("M10", "Negotiated Withdrawal", 3, "I", 1, ["outposts"], [rem("outpost")], [IN, OV], "T21",
     "A withdrawal bought by pressure removes the enemy but brings no victory to celebrate."),
    ("M11", "Mortar Team Support", 4, "I", 2, ["adversary"], [dmg(4)], [R, L], "T8",
     "Indirect fire reaches far; the further it reaches, the less it sees who is in the way."),
    ("M12", "Deep Reconnaissance Patrol", 3, "I", 2, ["any"], [dmg(1, True), pres()], [F, P], "T9",
     "Seeing the terrain yourself builds access that no report can replace."),
    ("M13", "Shadow Government", 5, "L", 0, ["presence", "no_adversary"], [inf(2), res(2)], [IN, P], "T7",
     "Providing order and services where the regime cannot proves who really governs."),
    ("M14", "Arms Pipeline", 4, "L", 1, ["own_gs"], [rec(2), res(1)], [L, L], "T13",
     "A reliable pipeline of weapons matters more to a resistance than any single battle."),
    ("M15", "Storm the Outpost", 4, "I", 1, ["outposts"], [dmg(4), inf(1)], [R, P], "T5",
     "Massing partners for a set-piece attack is decisive when it works and costly when it misses."),
    ("M16", "Counter-Tyranny Operation", 5, "I", 1, ["tyranny"], [untyr(), dmg(2), inf(1)], [C, R], "T16",
     "Breaking an area-denial zone restores access, but the regime can always try again."),
    ("M17", "Safe House Network", 3, "I", 0, ["presence"], [pres(), df(1)], [P, X], "T9",
     "Access and placement are built house by house, and every house is a node of the network."),
    ("M18", "Information Operations Cell", 4, "I", 1, ["red_civilians"], [conv(2)], [OV, OV], "T6",
     "Understanding the audience before speaking to it is what turns a village."),
    ("M19", "Paid Informant Ring", 3, "I", 2, ["cells"], [dst("cell", 1), res(1)], [X, X], "T18",
     "Buying informants works fast, until the ring is sold back to the regime."),
    ("M20", "Harbour Denial", 4, "I", 1, ["coastal"], [prev("deploy", "develop"), df(1)], [L, R], "T17",
     "Closing a harbour to the regime's ships takes away its easiest way in."),
    ("M21", "Guerrilla Offensive", 5, "I", 0, ["own_gs", "presence"], [{"op": "damage_per_g", "bonus": 2}, inf(1)], [F, R], "T5",
     "When partners are numerous and ready, the sponsor's job is to pick the moment."),
    ("M22", "Urban Resistance Cell", 4, "I", 1, ["urban"], [rec(1), dmg(2)], [C, X], "T14",
     "In the city the advantage goes to whoever the people shelter."),
    ("M23", "Medical Outreach Mission", 3, "L", 0, ["presence", "civilians"], [conv(1), inf(1)], [IN, IN], "T6",
     "Healing the sick is an influence operation no propaganda can answer."),
    ("M24", "Strike the Garrison Depot", 5, "I", 1, ["garrisons"], [dmg(5), inf(1)], [L, R], "T16",
     "Conventional forces depend on depots; hitting them early keeps the regime from massing."),
    ("M25", "Defector Network", 4, "I", 1, ["adversary"], [rep("cell", 0), inf(1)], [X, C], "T21",
     "A regime agent who changes sides is worth more than one who is killed."),
    ("M26", "Hidden Cache Program", 3, "L", 0, ["presence"], [res(3)], [L, P], "T13",
     "Stocks hidden before they are needed let a resistance survive the lean season."),
    ("M27", "Border Sanctuary Camp", 4, "I", 1, ["coastal", "no_tyranny"], [rec(2), df(1)], [R, X], "T17",
     "A camp near the frontier trains proxies where the regime cannot follow."),
    ("M28", "Popular Self-Defence Militia", 4, "I", 0, ["presence", "blue_civilians"], [rec(1), df(2)], [IN, P], "T11",
     "People who guard their own village are the inner security of a liberated zone."),
    ("M29", "Strategic Messaging Campaign", 4, "L", 1, ["any"], [inf(2)], [OV, C], "T7",
     "Tactical actions only pay off when they are told as part of a bigger story."),
    ("M30", "Liberate the Power Station", 5, "I", 1, ["infrastructure"], [dmg(3), ifa(F, 2, dmg(2)), inf(1)], [F, L], "T15",
     "Infrastructure in friendly hands pays every turn in money and morale."),
    ("M31", "Exfiltrate the Wounded", 3, "I", 0, ["presence"], [pull("own_g", 2), df(1)], [C, OV], "T12",
     "Moving partners out of harm's way keeps the movement alive to fight another day."),
    ("M32", "Turn the Militia", 4, "I", 1, ["outposts"], [rep("outpost", 1)], [X, OV], "T21",
     "A local militia turned to the resistance removes an outpost and adds a band."),
    ("M33", "Night Raid on the Command Post", 4, "I", 1, ["garrisons"], [dmg(3, True)], [R, F], "T10",
     "Darkness and surprise strip away the defender's ground; tyranny still shields its core."),
    ("M34", "Humanitarian Corridor", 4, "I", 1, ["civilians", "no_tyranny"], [conv(1), prev("dominate")], [IN, L], "T6",
     "Keeping people alive through the siege keeps them on your side when it ends."),
    ("M35", "Persistent Presence", 3, "L", 0, ["presence"], [pres(), res(1)], [P, P], "T9",
     "Staying when others leave is the presence that people remember."),
]

MINORS = [
    ("m01", "Sniper Overwatch", 2, "I", 1, ["adversary"], [dmg(2)], [F], "T10",
     "One precise shot from concealment does more than a noisy volley."),
    ("m02", "Leaflet Drop", 1, "I", 1, ["red_civilians"], [conv(1)], [OV], "T6",
     "A message the people can read in private is a message they can act on."),
    ("m03", "Trail Watchers", 1, "I", 0, ["presence"], [df(1)], [P], "T11",
     "Early warning is the cheapest protection a safe house has."),
    ("m04", "Market Day Contacts", 1, "L", 0, ["presence"], [res(1)], [X], "T13",
     "Trade brings news and money; both keep the network running."),
    ("m05", "Harassing Fire", 2, "I", 1, ["adversary"], [dmg(2), ifa(R, 2, inf(1))], [R], "T5",
     "Small constant pressure keeps an occupier in its barracks."),
    ("m06", "Guide Recruitment", 1, "I", 0, ["presence", "jungle_rural"], [rec(1)], [F], "T4",
     "Local guides are the first guerrillas: they know every path."),
    ("m07", "Community Meeting", 1, "I", 0, ["presence", "civilians"], [inf(1)], [C], "T6",
     "Listening in public is itself a message of respect."),
    ("m08", "Quiet Withdrawal Talks", 2, "I", 1, ["cells"], [rem("cell")], [IN], "T21",
     "A cell that is talked out of a village leaves nothing to avenge."),
    ("m09", "Roadside Charge", 2, "I", 1, ["adversary"], [dmg(2)], [L], "T8",
     "Mines do not choose their victims; restraint is a choice made before they are laid."),
    ("m10", "Courier Relay", 1, "I", 0, ["presence"], [pull("own_g", 2)], [L], "T9",
     "A network is only as fast as its couriers."),
    ("m11", "Safe House", 2, "L", 0, ["presence"], [pres()], [P], "T9",
     "A trusted family's spare room is the smallest node of a network."),
    ("m12", "Rumour of Reinforcements", 1, "I", 0, ["presence"], [push("adversary", 1)], [OV], "T22",
     "Friction cuts both ways: an adversary that believes a rumour moves for nothing."),
    ("m13", "Well Digging Project", 1, "L", 0, ["presence", "civilians"], [conv(1)], [IN], "T6",
     "Clean water is a lasting argument for the side that brought it."),
    ("m14", "Smuggled Rifles", 2, "I", 0, ["presence"], [rec(1), res(1)], [X], "T13",
     "Smugglers follow the money, which makes them fast and unreliable."),
    ("m15", "Cell Hunt", 2, "I", 1, ["cells"], [dmg(2)], [F], "T16",
     "Finding the regime's advance network early is cheaper than fighting its army later."),
    ("m16", "Barricades", 1, "I", 0, ["presence", "urban"], [df(2)], [C], "T14",
     "In a city the people can close streets the regime needs."),
    ("m17", "Disperse the Bands", 1, "I", 0, ["own_gs", "presence"], [push("own_g", 2)], [P], "T12",
     "Too many fighters in one village eat its harvest; spread them out."),
    ("m18", "Sympathetic Clergy", 1, "I", 0, ["presence", "blue_civilians"], [inf(1)], [IN], "T6",
     "Respected voices carry a cause further than any broadcast."),
    ("m19", "Checkpoint Bribe", 1, "I", 0, ["presence", "cells"], [push("cell", 1)], [X], "T18",
     "A bribe moves a problem; it rarely solves it."),
    ("m20", "Border Runner", 1, "I", 0, ["presence", "coastal"], [rec(1)], [R], "T17",
     "Men who cross the frontier for a living will cross it for a wage."),
    ("m21", "Hit and Run", 2, "I", 0, ["presence", "own_gs"], [dmg(1), push("own_g", 1)], [F], "T5",
     "Strike, then disappear: the guerrilla's oldest rule."),
    ("m22", "Field Clinic", 1, "L", 0, ["presence"], [inf(1)], [IN], "T6",
     "A clinic that treats everyone earns a reputation no speech can."),
    ("m23", "Mule Train", 1, "L", 0, ["presence"], [res(2)], [L], "T13",
     "Animals and back roads carry what trucks and highways cannot."),
    ("m24", "Decoy Campfires", 1, "I", 0, ["presence", "jungle_rural"], [df(1), push("adversary", 1)], [F], "T10",
     "Showing a false signature hides the real one."),
    ("m25", "Cut the Telephone Wire", 2, "I", 1, ["outposts"], [dmg(2)], [R], "T16",
     "An outpost that cannot call for help is an outpost that can be isolated."),
    ("m26", "Kinship Recruiting", 1, "I", 0, ["presence", "blue_civilians"], [rec(1)], [C], "T4",
     "Families recruit for a cause faster than any sponsor can."),
    ("m27", "Protest Song", 1, "L", 1, ["civilians"], [conv(1)], [OV], "T6",
     "A song the soldiers hum against their will has already won."),
    ("m28", "Scout the Coast", 1, "I", 2, ["coastal"], [prev("deploy")], [OV], "T3",
     "Watching the periphery tells you where the regime will come next."),
    ("m29", "Tax the Smugglers", 1, "L", 0, ["presence"], [res(2)], [X], "T18",
     "Revenue from the black market funds the fight and stains the cause."),
    ("m30", "Booby-Trapped Trail", 2, "I", 0, ["presence", "jungle_rural"], [df(2)], [R], "T14",
     "Difficult terrain made deadlier keeps the regime on the roads."),
    ("m31", "Rally the Village", 2, "I", 0, ["presence", "civilians"], [conv(1), inf(1)], [C], "T7",
     "A visible success told by the people themselves is worth two victories."),
    ("m32", "Forward Observer", 1, "I", 1, ["adversary"], [dmg(1)], [L], "T9",
     "One trained pair of eyes turns a band's rifles into a plan."),
    ("m33", "Persistent Harassment", 2, "L", 1, ["adversary"], [dmg(2), ifa(P, 2, inf(1))], [P], "T5",
     "Wearing down an occupier takes patience more than firepower."),
    ("m34", "Amnesty Offer", 2, "I", 1, ["cells"], [rep("cell", 1)], [IN], "T21",
     "An agent offered a way home may bring his rifle with him."),
    ("m35", "Grain Distribution", 1, "I", 0, ["presence", "red_civilians"], [conv(1)], [L], "T19",
     "Bread buys goodwill this season; influence must be earned again next season."),
    ("m36", "Hidden Airstrip", 2, "L", 1, ["jungle", "no_tyranny"], [pres()], [F], "T9",
     "A clearing in the forest is a door the regime does not know exists."),
    ("m37", "Proxy Skirmish", 1, "I", 0, ["presence", "own_gs"], [dmg(1)], [R], "T18",
     "Proxies fight cheaply, and their sponsor learns little from their wins."),
    ("m38", "Civic Watch", 1, "I", 0, ["presence", "civilians"], [df(1)], [OV], "T11",
     "Neighbours who watch the street protect the network living on it."),
    ("m39", "Bribe the District Chief", 2, "I", 0, ["presence", "outposts"], [push("outpost", 1)], [X], "T18",
     "Corruption can shift the regime's posts; it also ties you to the corrupt."),
    ("m40", "Second Wave", 2, "I", 1, ["adversary"], [dmg(1), ifa(P, 2, dmg(2))], [P], "T22",
     "Attacks that keep coming exploit an adversary still recovering from the first."),
    ("m41", "Escort the Families", 1, "I", 0, ["presence"], [pull("blue", 1), df(1)], [IN], "T6",
     "Protecting those who sided with you shows others that the choice is safe."),
]

THEMES = {
    "T1": "irregular warfare as the indirect method of strategic competition",
    "T2": "SOF is more than counter-insurgency and counter-terrorism",
    "T3": "exploiting a competitor's vulnerabilities on the periphery",
    "T4": "external support to indigenous resistance",
    "T5": "by, with, and through partners",
    "T6": "the population is decisive and divided",
    "T7": "influence as the measure of success",
    "T8": "collateral damage erodes legitimacy",
    "T9": "networks: access and placement",
    "T10": "signature: overt versus low-visibility",
    "T11": "safe havens and liberated zones need inner security",
    "T12": "guerrillas burden the population if massed",
    "T13": "logistics and limited resources",
    "T14": "terrain and the human terrain",
    "T15": "key infrastructure",
    "T16": "how an authoritarian power expands",
    "T17": "sanctuary and freedom of manoeuvre",
    "T18": "different sponsors use the indirect approach differently",
    "T19": "bought support is not lasting influence",
    "T20": "tempo",
    "T21": "destroying versus forcing withdrawal",
    "T22": "friction, uncertainty and risk",
    "T23": "reflect and transfer",
}


def _card(row, cls, earmark=None):
    cid, title, cost, speed, rng, target, ops, attrs, theme, note = row
    return {"id": cid, "title": title, "class": cls, "cost": cost,
            "speed": "immediate" if speed == "I" else "long", "range": rng, "target": target,
            "effect": ops, "text": describe_cap(ops), "attributes": attrs, "earmark": earmark,
            "theme": theme, "theme_title": THEMES[theme], "teaching_note": note,
            "advisor_conversion": any(o["op"] in ("damage", "destroy", "damage_per_g") for o in ops),
            "source": "authored"}


def build_capabilities() -> dict:
    cards = []
    for seat, rows in EARMARKED.items():
        for row in rows:
            cards.append(_card(row, "major" if "-M" in row[0] else "minor", seat))
    cards += [_card(r, "major") for r in MAJORS]
    cards += [_card(r, "minor") for r in MINORS]
    return {"source": "authored to 1.F (cost, speed, range, target, effect, attributes)", "cards": cards}


# ---------------------------------------------------------------------------------------------
# Event cards (1.I, 3.D): freedom primary, tyranny primary, two always-executed bottom boxes.
# ---------------------------------------------------------------------------------------------


def b(op, **kw):
    return {"op": op, **kw}


EVENTS = [
    ("E01", "Monsoon Floods",
     [b("prevent", steps=["deploy"], sel="deploy_box")],
     [b("each_resources", n=-1)],
     [b("defense", n=1, sel="base_tiles")],
     [b("prevent", steps=["develop"], sel="develop_box", max=1)],
     "T22",
     "Weather slows both sides; the one with local knowledge loses less."),
    ("E02", "Regime Crackdown",
     [b("adv_attack", n=1, sel="presence_adversary")],
     [b("adv_attack", n=2, sel="presence_adversary"), b("kill_civilians", n=1, sel="most_blue")],
     [b("place", unit="cell", sel="coastal", max=2)],
     [b("team_influence", n=1)],
     "T16",
     "A frightened regime lashes out, and every reprisal recruits for the resistance's story."),
    ("E03", "Defection of a Captain",
     [b("remove_unit", unit="outpost", n=1, sel="outpost_tiles", max=1), b("team_influence", n=1)],
     [b("remove_unit", unit="cell", n=1, sel="most_cells", max=1)],
     [b("each_resources", n=1)],
     [b("place", unit="cell", sel="most_cells", max=1)],
     "T21",
     "Defections show the regime is brittle; they rarely come when it feels strong."),
    ("E04", "Foreign Aid Shipment",
     [b("each_resources", n=2)],
     [b("each_resources", n=1)],
     [b("each_draw", deck="minor")],
     [b("place", unit="cell", sel="coastal", max=1)],
     "T13",
     "Outside money arrives in bursts; spend it before it is stopped."),
    ("E05", "State Media Blitz",
     [b("flip", to="red", n=1, sel="most_blue", max=1)],
     [b("flip", to="red", n=1, sel="most_blue"), b("team_influence", n=-1)],
     [b("team_influence", n=-1)],
     [b("flip", to="blue", n=1, sel="most_red", max=1)],
     "T6",
     "The regime fights for the same population; its message lands when yours is silent."),
    ("E06", "Amphibious Landing",
     [b("place", unit="cell", sel="coastal", max=1)],
     [b("place", unit="outpost", sel="coastal", max=2)],
     [b("develop", sel="deploy_box")],
     [b("each_resources", n=1)],
     "T17",
     "The sea is the regime's open door; watching the coast is not optional."),
    ("E07", "Student Protests",
     [b("flip", to="blue", n=1, sel="urban", max=2), b("team_influence", n=1)],
     [b("kill_civilians", n=1, sel="urban", max=1)],
     [b("team_influence", n=1)],
     [b("place", unit="cell", sel="urban", max=1)],
     "T7",
     "Young people in the streets show which way the country leans."),
    ("E08", "Informant Betrayal",
     [b("adv_attack", n=1, sel="base_tiles", max=1)],
     [b("adv_attack", n=2, sel="base_tiles")],
     [b("place", unit="cell", sel="near_presence_cells", max=1)],
     [b("defense", n=1, sel="hq_tiles", max=2)],
     "T22",
     "Every network leaks; build it so that one betrayal does not unravel it."),
    ("E09", "Harvest Festival",
     [b("each_resources", n=1), b("team_influence", n=1)],
     [b("each_resources", n=1)],
     [b("flip", to="blue", n=1, sel="most_red", max=1)],
     [b("develop", sel="develop_box", max=1)],
     "T6",
     "A good season makes people generous and hopeful; the resistance should be there to share it."),
    ("E10", "Garrison Rotation",
     [b("remove_unit", unit="garrison", n=1, sel="garrison_tiles", max=1)],
     [b("develop", sel="dominate_box")],
     [b("place", unit="cell", sel="deploy_box")],
     [b("each_resources", n=1)],
     "T20",
     "Regimes reshuffle their forces; a rotation is a window for whoever is ready to use it."),
    ("E11", "Regional Summit",
     [b("team_influence", n=2)],
     [b("team_influence", n=1)],
     [b("each_resources", n=1)],
     [b("prevent", steps=["deploy"], sel="deploy_box", max=1)],
     "T1",
     "Diplomacy above the fight sets the value of what is won below it."),
    ("E12", "Fuel Shortage",
     [b("each_resources", n=-1)],
     [b("each_resources", n=-2)],
     [b("prevent", steps=["develop"], sel="develop_box")],
     [b("prevent", steps=["deploy"], sel="deploy_box", max=1)],
     "T13",
     "Shortages hit both sides; the leaner organisation copes."),
    ("E13", "Spontaneous Uprising",
     [b("g_attack", sel="g_adversary", max=2)],
     [b("g_attack", sel="g_adversary", max=1), b("kill_civilians", n=1, sel="most_blue", max=1)],
     [b("team_influence", n=1)],
     [b("adv_attack", n=1, sel="g_adversary", max=1)],
     "T7",
     "People rise when they believe they can win; organised or not, the sponsor must follow."),
    ("E14", "Secret Police Sweep",
     [b("adv_attack", n=1, sel="hq_tiles", max=1)],
     [b("adv_attack", n=2, sel="hq_tiles")],
     [b("place", unit="cell", sel="urban", max=1)],
     [b("team_influence", n=-1)],
     "T10",
     "An overt headquarters is a target; signature has a price."),
    ("E15", "Refugee Flight",
     [b("flip", to="blue", n=1, sel="most_red", max=1)],
     [b("kill_civilians", n=1, sel="tyranny_tiles", max=2)],
     [b("team_influence", n=-1)],
     [b("each_recruit", n=1)],
     "T8",
     "When civilians flee, both sides lose the people they fight over."),
    ("E16", "Rigged Election",
     [b("flip", to="red", n=1, sel="urban", max=1)],
     [b("flip", to="red", n=1, sel="urban"), b("add_tyranny", sel="dominate_box", max=1)],
     [b("team_influence", n=1)],
     [b("flip", to="blue", n=1, sel="most_red", max=1)],
     "T6",
     "A stolen vote angers the honest and emboldens the regime in equal measure."),
    ("E17", "Arms Cache Discovered",
     [b("each_resources", n=-1)],
     [b("adv_attack", n=1, sel="g_adversary")],
     [b("each_draw", deck="minor")],
     [b("each_resources", n=-1)],
     "T13",
     "What the regime finds, the resistance must replace."),
    ("E18", "Border Skirmish",
     [b("destroy_unit", unit="cell", n=1, sel="coastal", max=2)],
     [b("place", unit="cell", sel="coastal", max=2)],
     [b("each_recruit", n=1)],
     [b("place", unit="cell", sel="coastal", max=1)],
     "T17",
     "Trouble on the frontier distracts the regime and brings volunteers across."),
    ("E19", "Epidemic",
     [b("each_resources", n=-1)],
     [b("kill_civilians", n=1, sel="urban", max=2)],
     [b("prevent", steps=["deploy"], sel="deploy_box")],
     [b("each_resources", n=-1)],
     "T22",
     "Disease ignores uniforms; caring for the sick shapes who is trusted afterwards."),
    ("E20", "Regime Propaganda Victory",
     [b("team_influence", n=-1)],
     [b("team_influence", n=-2)],
     [b("develop", sel="develop_box", max=1)],
     [b("flip", to="red", n=1, sel="most_blue", max=1)],
     "T7",
     "A regime that wins the story can lose battles and still hold the people."),
    ("E21", "Bridge Collapse",
     [b("prevent", steps=["develop"], sel="develop_box", max=1)],
     [b("prevent", steps=["develop"], sel="develop_box", max=1)],
     [b("each_resources", n=-1)],
     [b("prevent", steps=["deploy"], sel="deploy_box", max=1)],
     "T15",
     "Broken infrastructure stops armies faster than it stops guerrillas."),
    ("E22", "Mutiny in the Ranks",
     [b("destroy_unit", unit="outpost", n=1, sel="near_presence_outposts", max=1)],
     [b("remove_unit", unit="cell", n=1, sel="near_presence_cells", max=2)],
     [b("team_influence", n=1)],
     [b("develop", sel="develop_box", max=1)],
     "T21",
     "Soldiers who stop believing leave gaps a network can step into."),
    ("E23", "Foreign Journalists",
     [b("team_influence", n=2)],
     [b("team_influence", n=1), b("tyranny_return", n=1)],
     [b("each_resources", n=-1)],
     [b("defense", n=1, sel="presence_adversary", max=2)],
     "T8",
     "The world watching raises the cost of atrocities, and of collateral damage."),
    ("E24", "Regime Reinforcements",
     [b("develop", sel="develop_box", max=1)],
     [b("develop", sel="develop_box"), b("place", unit="cell", sel="coastal", max=2)],
     [b("place", unit="cell", sel="deploy_box")],
     [b("each_resources", n=1)],
     "T20",
     "An adversary that raises its tempo can outrun a network still being built."),
]


def build_events() -> dict:
    out = []
    for eid, title, free, tyr, b1, b2, theme, note in EVENTS:
        out.append({"id": eid, "title": title, "freedom": free, "tyranny": tyr, "bottom_1": b1,
                    "bottom_2": b2, "text": {"freedom": describe_board(free), "tyranny": describe_board(tyr),
                                             "bottom_1": describe_board(b1), "bottom_2": describe_board(b2)},
                    "theme": theme, "theme_title": THEMES[theme], "teaching_note": note, "source": "authored"})
    return {"source": "authored to 1.I / 3.D (adversary)", "events": out}


# ---------------------------------------------------------------------------------------------
# Influence cards (1.H, 3.E): three level variants, beneficial, growing stronger with level.
# Each row: (id, title, theme, note, kind) and a builder for the three levels.
# ---------------------------------------------------------------------------------------------
INFLUENCE_KINDS = {
    "money": lambda k: [b("each_resources", n=k + 1)],
    "recruit": lambda k: [b("each_recruit", n=k)],
    "cells": lambda k: [b("destroy_unit", unit="cell", n=1, sel="near_presence_cells", max=k + 1)],
    "outposts": lambda k: [b("destroy_unit", unit="outpost", n=1, sel="near_presence_outposts", max=k)],
    "convert": lambda k: [b("flip", to="blue", n=1, sel="most_red", max=k + 1)],
    "protect": lambda k: [b("prevent", steps=["dominate"], sel="dominate_box", max=k), b("each_resources", n=1)],
    "deny": lambda k: [b("prevent", steps=["deploy"], sel="deploy_box", max=k + 1)],
    "uprising": lambda k: [b("g_attack", sel="g_adversary", max=k)],
    "untyr": lambda k: [b("tyranny_return", n=1)] + ([b("each_resources", n=k - 1)] if k > 1 else []),
    "garrison": lambda k: [b("remove_unit", unit="garrison", n=1, sel="garrison_tiles", max=k - 1)] if k > 1
    else [b("remove_unit", unit="cell", n=1, sel="most_cells", max=2)],
}
INFLUENCE = [
    ("I01", "Diaspora Donations", "money", "T13", "Support from abroad grows with every visible success."),
    ("I02", "Volunteers Come Forward", "recruit", "T4", "Once the cause looks winnable, people join without being asked."),
    ("I03", "Informants Switch Sides", "cells", "T16", "When the people lean your way, the regime's eyes go blind."),
    ("I04", "Militia Desert Their Posts", "outposts", "T21", "Local auxiliaries are the first to read the wind."),
    ("I05", "Village Assemblies Declare", "convert", "T6", "Public declarations make neutrality impossible for the neighbours."),
    ("I06", "Early Warning Everywhere", "protect", "T11", "A population that warns you is the best protection there is."),
    ("I07", "Coastal Fishermen Watch", "deny", "T17", "Those who work the sea see the regime's boats first."),
    ("I08", "General Strike", "uprising", "T7", "When work stops everywhere at once, the regime cannot be everywhere."),
    ("I09", "Towns Reopen", "untyr", "T16", "Fear breaks when enough people stop obeying together."),
    ("I10", "Officers Hedge Their Bets", "garrison", "T21", "Commanders who expect to lose start negotiating early."),
    ("I11", "Church Collections", "money", "T6", "Institutions that trust you lend their networks and their purses."),
    ("I12", "Youth Brigades", "recruit", "T12", "Young recruits are many; keeping them fed and dispersed is the hard part."),
    ("I13", "Cell Leaders Exposed", "cells", "T9", "A wider network sees further into the regime's own."),
    ("I14", "Police Stay Home", "outposts", "T21", "The regime's police are also neighbours; pressure finds them at home."),
    ("I15", "Radio Free Broadcasts", "convert", "T6", "A trusted voice on the air reaches villages no team can visit."),
    ("I16", "Hidden Shelters", "protect", "T11", "Shelters dug by the people keep the network alive through the raids."),
    ("I17", "Port Workers' Slowdown", "deny", "T15", "Infrastructure workers can quietly close the regime's doors."),
    ("I18", "Day of Defiance", "uprising", "T7", "A single day of mass defiance can undo a year of intimidation."),
    ("I19", "Curfew Ignored", "untyr", "T16", "Area denial only works while people accept it."),
    ("I20", "Garrison Commanders Waver", "garrison", "T20", "Momentum compounds: each success makes the next one cheaper."),
    ("I21", "Merchants' Levy", "money", "T13", "Traders back the side they expect to win."),
    ("I22", "Returning Exiles", "recruit", "T4", "Exiles bring skills and contacts back with them."),
    ("I23", "Neighbourhood Watches", "cells", "T11", "Ordinary vigilance uncovers the regime's newest agents."),
    ("I24", "Auxiliaries Change Sides", "outposts", "T5", "Partners you never trained can still join the fight."),
    ("I25", "Poets and Singers", "convert", "T6", "Culture carries a cause into homes no leaflet enters."),
    ("I26", "Safe Passage Routes", "protect", "T9", "Routes kept open by the people keep the network connected."),
    ("I27", "Harbour Boycott", "deny", "T17", "The periphery closes when those who live there refuse to serve."),
    ("I28", "National Day of Mourning", "untyr", "T8", "Shared grief turns the regime's violence against it."),
]


def build_influence() -> dict:
    out = []
    for iid, title, kind, theme, note in INFLUENCE:
        levels = {f"level_{k}": INFLUENCE_KINDS[kind](k) for k in (1, 2, 3)}
        out.append({"id": iid, "title": title, "kind": kind, **levels,
                    "text": {f"level_{k}": describe_board(levels[f"level_{k}"]) for k in (1, 2, 3)},
                    "theme": theme, "theme_title": THEMES[theme], "teaching_note": note,
                    "source": "authored"})
    return {"source": "authored to 1.H / 2.A / 3.E", "cards": out,
            "level_markers": [{"id": "level_2", "after_card": 4}, {"id": "level_3", "after_card": 7}]}


def build_terrain() -> dict:
    cards = []
    stages = ["I", "II", "III", "IV"]
    for si, st in enumerate(stages):
        for k in range(14):
            ref = si * 7 + (k % 7) + 1
            cards.append({"id": f"T{st}-{k + 1:02d}", "stage": st, "terrain_card_ref": ref,
                          "source": "authored (A-01, A-02): 14 per stage, 2 cards per reference number"})
    return {"cards": cards}


# Each scenario panel's own end conditions, checked by the engine after the rulebook's (4).
# "when": "always" (after every resolution, like 4) or "turn_end" (after the end-of-turn cleanup).
# Checks: "level_below_by_turn" (turn >= N and level < L), "no_tyranny" (no token on the map,
# level >= L), "civilians_killed" (at least N per player), "blue_share" (blue civilians >= R x red,
# level >= L). Rulebook defeats are checked first and win ties.
# Issue 16.11 (balance): starting conditions per player count, tuned with the heuristic team
# (benchmarks/tears_of_tyranny_balance.py) towards a 40-65 % win rate in every row. Only what the
# rulebook leaves to the designer moves: the tiles' starting pieces (2.C: "according to the labels
# on each tile"; a starting tyranny token comes from the pool, A-07) and the panels' starting
# resources (1.E.i: the panel "provides starting conditions"); pools, decks, thresholds and every
# procedure stay as printed (a scenario panel's own adjustments, 5, are its own). Knobs:
# "start_resources_bonus" (each player, may be negative), "extra_start_cells" (each quadrant, on its
# first deployable coastal tile), "start_tyranny" (one token on the strongest adversary tile of each
# of the last N quadrants in play), "start_influence" (tokens earned at the start), and a scenario
# panel's own tyranny pool, "tyranny_pool_per_player" (5: a panel's rules adjustment, as Popular
# Spring's 4; 5 is the core game's pool; the 3.D threshold scales with it, issue 16.3).
THRESHOLD = {1: 2, 2: 5, 3: 7, 4: 10}  # 3.D, the tyranny-state threshold for a pool of 5 per player


def _pool_text(v: int, n: int) -> str:
    scaled = (THRESHOLD[n] * v * 2 + 5) // 10   # as board.scaled_threshold (issue 16.3)
    core = " as in the core game" if v == 5 else ""
    return f"the tyranny pool holds {v} tokens{' per player' if n > 1 else ''}{core} (tyranny state at {scaled} on the map)"


KNOB_TEXT = {
    "start_resources_bonus": lambda v, n: (f"each player starts with {v} more resource{'s' if v != 1 else ''}" if v > 0 else
                                           f"each player starts with {-v} resource{'s' if v != -1 else ''} fewer"),
    "extra_start_cells": lambda v, n: f"each quadrant starts with {v} extra cell{'s' if v != 1 else ''} on its first deployable coastal tile",
    "start_tyranny": lambda v, n: (f"{v} tyranny token{'s' if v != 1 else ''} from the pool start{'s' if v == 1 else ''} on the map, on the "
                                   f"strongest adversary tile of {'the last quadrant' if v == 1 else 'each quadrant' if v == n else f'each of the last {v} quadrants'}"),
    "start_influence": lambda v, n: f"the team starts with {v} influence token{'s' if v != 1 else ''} earned",
    "tyranny_pool_per_player": _pool_text,
}


def by_players_text(by_players: dict) -> str:
    """The player-facing sentence for a scenario's per-player-count starting conditions."""
    parts = []
    for n in ("1", "2", "3", "4"):
        knobs = by_players.get(n)
        if knobs:
            said = [KNOB_TEXT[k](v, int(n)) for k, v in knobs.items()]
            text = ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
            if n == "1":
                text = text.replace("each player", "the player").replace("each quadrant", "the quadrant")
            parts.append(f"{n} player{'s' if n != '1' else ''}: " + text)
    return (" Starting conditions by player count (balance): " + "; ".join(parts) + ".") if parts else ""


BY_PLAYERS = {
    "standard": {"1": {"start_resources_bonus": -2}, "2": {"start_resources_bonus": 2},
                 "3": {"start_tyranny": 1}, "4": {"start_tyranny": 3}},
    "blitz": {"3": {"start_tyranny": 2}, "4": {"start_tyranny": 4}},
    "frozen_conflict": {"1": {"tyranny_pool_per_player": 4}, "2": {"start_resources_bonus": 2},
                        "3": {"start_tyranny": 1}, "4": {"start_tyranny": 3}},
    "popular_spring": {"1": {"tyranny_pool_per_player": 5, "start_influence": 3},
                       "2": {"tyranny_pool_per_player": 5, "start_resources_bonus": 1, "start_influence": 3},
                       "3": {"start_resources_bonus": 1, "start_influence": 3}, "4": {"start_tyranny": 1}},
}

SCENARIOS = [
    {"id": "standard", "title": "The Long Night",
     "background": "The regime has spent a decade building its security services along the coast. "
                   "Outside sponsors have agreed to back the resistance before the last free "
                   "valleys close.",
     "purpose": "the core game",
     "rules_adjustments": {},
     "victory_conditions": "As in the rulebook (4): victory per influence level; defeat by total tyranny, presence annihilation or an exhausted terrain deck.",
     "victory": []},
    {"id": "blitz", "title": "Blitz on the Coast",
     "background": "A sudden crisis lets the regime pour forces ashore. Sponsors have months, not years.",
     "purpose": "speed up play and show tempo (T20)",
     "rules_adjustments": {"terrain_deck": "advanced", "start_resources_bonus": 2},
     "victory_conditions": "As the core game, with the 12-card terrain deck (2.B advanced) and 2 extra "
                           "starting resources per player. The regime bets everything on one offensive: when "
                           "the terrain deck runs out (the moment the core game is lost on time), the offensive "
                           "culminates, and the players win instead if the team has reached influence level 2; "
                           "below level 2 the sponsors give up and the players lose as in the core game.",
     "victory": [{"outcome": "players", "when": "deck_exhausted", "check": "level_at_least", "level": 2,
                  "reason": "the offensive culminates: the terrain deck ran out with the team at influence level 2 or higher"}]},
    {"id": "frozen_conflict", "title": "Frozen Conflict",
     "background": "Years of stalemate have hardened both sides. The population is tired and "
                   "suspicious of every outsider.",
     "purpose": "recreate a long competition below armed conflict",
     "rules_adjustments": {"influence_cards": 8, "start_influence": 0, "extra_start_cells": 1},
     "victory_conditions": "Only 8 influence cards are in the influence deck; playing them all wins (level 4). "
                           "Each quadrant starts with one extra cell on its lowest-numbered deployable coastal tile. "
                           "The thaw: the players also win when a turn ends with no tyranny token on the map "
                           "and the team at influence level 2 or higher.",
     "victory": [{"outcome": "players", "when": "turn_end", "check": "no_tyranny", "level": 2,
                  "reason": "the thaw: a turn ended with no tyranny on the map at influence level 2 or higher"}]},
    {"id": "popular_spring", "title": "Popular Spring",
     "background": "The capital's streets have filled. The regime is shaken, and the sponsors race "
                   "to turn protest into organised resistance before the crackdown.",
     "purpose": "a change of pace: influence-led play",
     "rules_adjustments": {"start_influence": 2, "tyranny_pool_per_player": 4},
     "victory_conditions": "The team starts with 2 influence tokens earned, but the tyranny pool holds only "
                           "4 tokens per player, so total tyranny comes sooner; the tyranny-state threshold "
                           "shrinks with the pool (2/4/6/8 tokens on the map for 1/2/3/4 players). The movement wins when a turn "
                           "ends with at least twice as many blue as red civilians on the map and the team at "
                           "influence level 2 or higher; it collapses (the players lose) once 3 civilians per "
                           "player have been killed.",
     "victory": [{"outcome": "adversary", "when": "always", "check": "civilians_killed", "per_player": 3,
                  "reason": "the movement collapses: too many civilians have been killed"},
                 {"outcome": "players", "when": "turn_end", "check": "blue_share", "ratio": 2, "level": 2,
                  "reason": "the spring holds: twice as many blue as red civilians at influence level 2 or higher"}]},
]


def main() -> None:
    HERE.mkdir(exist_ok=True)
    files = {
        "map.json": build_map(),
        "panels.json": {"source": "player-panels.md consolidated readings; requirements authored (A-32)",
                        "panels": PANELS},
        "capabilities.json": build_capabilities(),
        "events.json": build_events(),
        "influence.json": build_influence(),
        "terrain.json": build_terrain(),
        "scenarios.json": {"source": "authored (A-55; starting conditions per player count: issue 16.11)",
                           "scenarios": [{**x, "victory_conditions": x["victory_conditions"] + by_players_text(BY_PLAYERS[x["id"]]),
                                          "by_players": BY_PLAYERS[x["id"]]} for x in SCENARIOS]},
    }
    for name, data in files.items():
        (HERE / name).write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
        print("wrote", HERE / name)


if __name__ == "__main__":
    main()
