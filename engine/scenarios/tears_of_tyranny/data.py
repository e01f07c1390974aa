"""Tears of Tyranny static data: loading and validating the authored JSON (1.A, 1.F-1.I, 2.A-2.B).

The JSON files under ``data/`` are produced by ``tools/content/tears_of_tyranny_authoring.py`` and reviewed; the engine reads
them once, builds indices (tile adjacency, hex distances, terrain-card reference -> tile per
quadrant) and never changes them. :func:`validate_content` checks every count and field the
rulebook fixes and that every effect parses in :mod:`vocab`.
"""

from __future__ import annotations

import json
import pathlib
from collections import Counter, deque
from functools import lru_cache

from engine.scenarios.tears_of_tyranny import vocab

DATA = pathlib.Path(__file__).parent / "data"

SEAT_ORDER = ("liberators", "advisors", "partisans", "comrades")
DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
UNIT_VALUE = {"cell": 1, "outpost": 2, "garrison": 3}          # damage = health = dominate strength
UNIT_INFLUENCE = {"cell": 0, "outpost": 1, "garrison": 2}       # destroy bullet, L648
ADVISOR_INFLUENCE = {"cell": 1, "outpost": 2, "garrison": 5}    # Advisors panel
SUPPLY = {"cell": 80, "outpost": 40, "garrison": 20}            # 1 "In the box"
SCENARIO_CHECKS = ("level_below_by_turn", "level_at_least", "no_tyranny", "civilians_killed", "blue_share")
THRESHOLD = {1: 2, 2: 5, 3: 7, 4: 10}                          # 3.D
G_PER_PLAYER = 30
BASES_TOTAL = 12
CIVILIANS_TOTAL = 96


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


class Content:
    """All static data, indexed. One instance per process (see :func:`content`)."""

    def __init__(self) -> None:
        self.map = _load("map.json")
        self.panels = {p["id"]: p for p in _load("panels.json")["panels"]}
        self.cards = {c["id"]: c for c in _load("capabilities.json")["cards"]}
        self.events = {e["id"]: e for e in _load("events.json")["events"]}
        inf = _load("influence.json")
        self.influence = {c["id"]: c for c in inf["cards"]}
        self.level_markers = inf["level_markers"]
        self.terrain = {c["id"]: c for c in _load("terrain.json")["cards"]}
        self.scenarios = {s["id"]: s for s in _load("scenarios.json")["scenarios"]}
        self.tiles = {t["id"]: t for t in self.map["tiles"]}
        self.tile_ids = [t["id"] for t in self.map["tiles"]]
        by_pos = {(t["q"], t["r"]): t["id"] for t in self.map["tiles"]}
        self.adj = {}
        for t in self.map["tiles"]:
            self.adj[t["id"]] = [by_pos[(t["q"] + dq, t["r"] + dr)] for dq, dr in DIRS
                                 if (t["q"] + dq, t["r"] + dr) in by_pos]
        self.ref_tile = {}  # (quadrant, ref) -> tile id
        for t in self.map["tiles"]:
            self.ref_tile[(t["quadrant"], t["terrain_card_ref"])] = t["id"]
        self.dist = {a: self._bfs(a) for a in self.tile_ids}
        self._within: dict = {}

    def within(self, tid: str, n: int) -> frozenset:
        """Tiles at hex distance <= n of ``tid`` (cached)."""
        key = (tid, n)
        got = self._within.get(key)
        if got is None:
            got = self._within[key] = frozenset(t for t, d in self.dist[tid].items() if d <= n)
        return got

    def _bfs(self, src: str) -> dict:
        d = {src: 0}
        dq = deque([src])
        while dq:
            x = dq.popleft()
            for y in self.adj[x]:
                if y not in d:
                    d[y] = d[x] + 1
                    dq.append(y)
        return d

    def xy(self, tid: str) -> tuple[float, float]:
        t = self.tiles[tid]
        return (round(3 ** 0.5 * (t["q"] + t["r"] / 2), 4), round(1.5 * t["r"], 4))


@lru_cache(maxsize=1)
def content() -> Content:
    return Content()


def validate_content(c: Content | None = None) -> list[str]:
    """Every authoring constraint (authoring-brief.md section 11). Returns the checks run."""
    c = c or content()
    done = []

    def check(cond, msg):
        if not cond:
            raise vocab.ContentError(msg)
        done.append(msg)

    # 11.1 counts
    check(len(c.map["septets"]) == 16, "16 septets")
    check(all(len(s["tiles"]) == 7 for s in c.map["septets"]), "7 tiles per septet")
    check(len(c.tiles) == 112, "112 tiles")
    check(len(c.map["coast_border_pieces"]) == 8, "8 coast/border pieces")
    majors = [x for x in c.cards.values() if x["class"] == "major"]
    minors = [x for x in c.cards.values() if x["class"] == "minor"]
    check(len(majors) == 39, "39 major capability cards")
    check(len(minors) == 53, "53 minor capability cards")
    check(sum(1 for x in majors if x["earmark"]) == 4, "4 earmarked majors")
    check(sum(1 for x in minors if x["earmark"]) == 12, "12 earmarked minors")
    for seat in SEAT_ORDER:
        em = [x for x in c.cards.values() if x["earmark"] == seat]
        check(sorted(x["class"] for x in em) == ["major", "minor", "minor", "minor"],
              f"{seat}: 1 major + 3 minor earmarked")
        attrs = set(c.panels[seat]["attributes"])
        check(all(set(x["attributes"]) <= attrs for x in em), f"{seat}: earmarks carry own attributes")
    check(len({t["name"] for t in c.tiles.values()}) == 112, "every tile has a unique name (issue 16.6)")
    check(len(c.events) == 24, "24 event cards")
    check(all(e["bottom_1"] and e["bottom_2"] for e in c.events.values()),
          "every event has two active bottom boxes (3.D, issue 16.4)")
    check(len(c.influence) == 28, "28 influence cards")
    check(len(c.terrain) == 56, "56 terrain cards")
    check(Counter(t["stage"] for t in c.terrain.values()) == {"I": 14, "II": 14, "III": 14, "IV": 14},
          "14 terrain cards per stage")
    check(len(c.scenarios) == 4, "4 scenario panels")
    for sc in c.scenarios.values():
        for f in ("id", "title", "background", "rules_adjustments", "victory_conditions", "victory"):
            check(f in sc, f"scenario {sc['id']} has {f}")
        for v in sc.get("victory", []):
            check(v.get("outcome") in ("players", "adversary") and v.get("when") in ("always", "turn_end", "deck_exhausted")
                  and v.get("check") in SCENARIO_CHECKS and v.get("reason"), f"scenario {sc['id']} victory {v}")
    check(len(c.level_markers) == 2, "2 influence level markers")
    # fields
    for x in c.cards.values():
        w = f"card {x['id']}"
        for f in ("id", "title", "class", "cost", "speed", "range", "target", "effect", "attributes",
                  "teaching_note", "text"):
            check(f in x, f"{w} has {f}")
        check(isinstance(x["cost"], int) and x["cost"] >= 1, f"{w} cost")
        check(x["speed"] in ("immediate", "long"), f"{w} speed")
        vocab.validate_range(x["range"], w)
        vocab.validate_target(x["target"], w)
        vocab.validate_cap_ops(x["effect"], w)
        check(1 <= len(x["attributes"]) <= 3 and all(a in vocab.ATTRIBUTES for a in x["attributes"]),
              f"{w} attributes")
        if any(o["op"] in ("push", "pull") for o in x["effect"]):
            check(x["range"] == 0, f"{w}: push/pull cards act on a presence tile (range 0)")
    check(min(x["cost"] for x in majors) > min(x["cost"] for x in minors), "majors cost more than minors")
    check(sum(x["cost"] for x in majors) / len(majors) > sum(x["cost"] for x in minors) / len(minors),
          "majors cost more on average")
    for e in c.events.values():
        w = f"event {e['id']}"
        for k in ("freedom", "tyranny", "bottom_1", "bottom_2"):
            vocab.validate_board_ops(e[k], f"{w}/{k}", allow_empty=k.startswith("bottom"))
        check(bool(e["freedom"]) and bool(e["tyranny"]), f"{w} has primaries")
        check(bool(e["bottom_1"]) or bool(e["bottom_2"]), f"{w} has a bottom box")
    for i in c.influence.values():
        for k in (1, 2, 3):
            vocab.validate_board_ops(i[f"level_{k}"], f"influence {i['id']} level {k}")
    # panels
    for seat in SEAT_ORDER:
        p = c.panels[seat]
        tr = p["track"]
        check(len(tr["resources"]) + len(tr["plays"]) == 14, f"{seat}: 14 presence circles")
        check(sum(1 for v in tr["resources"] if isinstance(v, str)) == 2, f"{seat}: 2 attribute circles")
        for part in ("patrol", "special"):
            org = p[part]
            vocab.validate_target(org["target"], f"{seat} {part}")
            vocab.validate_range(org["range"], f"{seat} {part}")
            for step in org.get("steps", org.get("tiers", [])):
                vocab.validate_cap_ops(step["ops"], f"{seat} {part}")
                check(set(step["req"]) <= set(p["attributes"]), f"{seat} {part} requirement uses own attributes")
    # 11.5 reachability: every organic requirement reachable with max card plays
    for seat in SEAT_ORDER:
        p = c.panels[seat]
        plays = [v for v in p["track"]["plays"] if isinstance(v, int)]
        maxplays = 99 if "unlimited" in p["track"]["plays"] else max(plays)
        pool = [x for x in c.cards.values() if x["earmark"] in (None, seat)]
        for part in ("patrol", "special"):
            for step in p[part].get("steps", p[part].get("tiers", [])):
                for attr, need in step["req"].items():
                    best = sorted((x["attributes"].count(attr) for x in pool), reverse=True)[:maxplays]
                    check(sum(best) + 1 >= need, f"{seat} {part} needs {need}x {attr}: reachable")
        em = [x for x in c.cards.values() if x["earmark"] == seat]
        first = p["patrol"]["steps"][0]["req"]
        check(any(all(x["attributes"].count(a) >= n for a, n in first.items()) and x["cost"] <= p["start_resources"]
                  for x in em), f"{seat}: a starting card reaches the first patrol step on turn 1")
    # 11.2 map
    for a, ns in c.adj.items():
        for b in ns:
            check(a in c.adj[b], f"adjacency symmetric {a}-{b}")
    for n in (1, 2, 3, 4):
        tiles = [t for t in c.tile_ids if c.tiles[t]["quadrant"] <= n]
        seen = {tiles[0]}
        stack = [tiles[0]]
        while stack:
            x = stack.pop()
            for y in c.adj[x]:
                if y not in seen and c.tiles[y]["quadrant"] <= n:
                    seen.add(y)
                    stack.append(y)
        check(len(seen) == len(tiles), f"{n}-player map connected")
    check(sum(1 for t in c.tiles.values() if t["infrastructure"]) <= 8, "at most 8 infrastructure tiles")
    civ = sum(t["start"]["red_civilians"] + t["start"]["blue_civilians"] for t in c.tiles.values())
    check(civ <= CIVILIANS_TOTAL, "starting civilians within 96")
    for q in (1, 2, 3, 4):
        qt = [t for t in c.tiles.values() if t["quadrant"] == q]
        check(sum(t["start"]["tyranny"] for t in qt) <= 1, f"quadrant {q}: at most 1 starting tyranny")
        check(any(t["start"]["cells"] + t["start"]["outposts"] + t["start"]["garrisons"] for t in qt),
              f"quadrant {q}: starts with adversaries")
        refs = sorted(t["terrain_card_ref"] for t in qt)
        check(refs == list(range(1, 29)), f"quadrant {q}: terrain references 1-28 once each")
        for need in ("jungle", "rural", "urban"):
            check(any(t["terrain"] == need and not t["start"]["tyranny"] for t in qt), f"quadrant {q} has {need}")
        check(any(t["terrain"] == "urban" and not t["start"]["tyranny"] and not
                  (t["start"]["cells"] + t["start"]["outposts"] + t["start"]["garrisons"]) for t in qt),
              f"quadrant {q} has an Advisor-eligible urban tile")
        check(any(t["coastal"] and not t["start"]["tyranny"] for t in qt), f"quadrant {q} has a coastal tile")
        check(all(c.tiles[c.ref_tile[(q, ref)]]["coastal"] for ref in range(1, 8)),
              f"quadrant {q}: stage I references are coastal/border")
    for card in c.terrain.values():
        for q in (1, 2, 3, 4):
            check((q, card["terrain_card_ref"]) in c.ref_tile, f"terrain {card['id']} resolves in quadrant {q}")
    # 11 text: every sentence a student reads (card faces, event and influence boxes, panels,
    # scenario panels) is free of obvious defects: doubled periods, stray spaces, doubled words
    def texts(x, path):
        if isinstance(x, str):
            if " " in x.strip():  # prose, not an id or a one-word value
                yield path, x
        elif isinstance(x, dict):
            for k, v in x.items():
                yield from texts(v, f"{path}/{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x):
                yield from texts(v, f"{path}[{i}]")

    for name in ("cards", "events", "influence", "panels", "scenarios", "terrain"):
        for path, text in texts(getattr(c, name), name):
            vocab.validate_text(text, path)
            done.append(f"{path}: clean text")
    return done
