"""Tears of Tyranny side panel: the turn's phases, the seat's own player panel and hand with
full card text, what every player has chosen this turn (public), and the adversary's boxes.

Only ``view`` is read: a seat's view holds its own hand and drawn cards and only the hand
*size* of the others (``Rules.view``), so nothing here can show another team's cards. Card
and panel texts are static game content (the printed cards), looked up by id.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import UNIT_VALUE, content
from facilitation.text import gettext_once as _  # looked up once per process and language (issue 20)
from facilitation.text import ngettext_once as ngettext
from facilitation.text import tr


@lru_cache(maxsize=1)
def _c():
    return content()


def phases() -> list[tuple[str, str, str]]:
    return [
        ("hq", _("Set-up"), _("Each player places a headquarters (two presence) in their own quadrant.")),
        ("window", _("Phases 1-2: Players"),
         _("Refit, gain resources, force management, then select and pay capability cards; execute the "
           "immediate ones. All four act at the same time; the phase ends when everyone is done.")),
        ("adversary", _("Phase 3: Adversary"),
         _("Event card, earned influence cards, then dominate, develop and deploy in the tiles named by the "
           "terrain cards in the boxes; a new terrain card is drawn and the cards shift one box.")),
        ("long", _("Phase 4: Long-term"),
         _("Execute long-term capabilities (and the Advisors' force management), pay or disband guerrillas "
           "beyond 4 per tile; then clean-up and the next turn.")),
    ]


SPEED = {"immediate": "⚡", "long": "◷"}  # glyphs present in DejaVu Sans (the classroom fallback font)


def _speed(speed: str) -> str:
    return _("immediate") if speed == "immediate" else _("long-term")


def _attr(a: str) -> str:
    return tr(T.ATTRIBUTE[a]) if a in T.ATTRIBUTE else a.title()


def _attrs(names) -> str:
    counts = Counter(names)
    return ", ".join(f"{_attr(a)}{' ×' + str(n) if n > 1 else ''}" for a, n in counts.items())


def _req(req: dict) -> str:
    return " + ".join(f"{n}× {_attr(a)}" for a, n in req.items())


def _targets(targets) -> str:
    """The card's target conditions in the viewer's language (the engine's messages)."""
    return _(" and ").join(tr(T.TARGET[t]) if t in T.TARGET else t for t in targets or [])


def _range(rng) -> str:
    if isinstance(rng, int) and rng == 0:
        return _("range 0 (a tile with your presence)")
    return _("range %(n)s from your presence") % {"n": rng}


def card_info(cid: str) -> dict | None:
    c = _c().cards.get(cid)
    if c is None:
        return None
    return {
        "id": cid, "title": _(c["title"]), "cls": tr(T.CLASS.get(c["class"], c["class"])), "cost": c["cost"],
        "speed": _speed(c["speed"]), "icon": SPEED.get(c["speed"], ""), "range": _range(c["range"]),
        "target": _targets(c.get("target")) or _("any tile"),
        "text": (_(c["text"]) if c.get("text") else tr(T.describe_cap(c.get("effect") or []))).rstrip(".") + ".",
        "attributes": _attrs(c.get("attributes") or []), "note": c.get("teaching_note", ""),
    }


def _organics(seat: str, attrs: dict, used: list) -> list[dict]:
    p = _c().panels[seat]
    out = []
    for part in ("patrol", "special"):
        org = p[part]
        steps = org.get("steps") or org.get("tiers") or []
        out.append({
            "id": part, "name": tr(T.ORGANIC[(seat, part)]), "speed": _speed(org["speed"]),
            "icon": SPEED.get(org["speed"], ""), "range": _range(org["range"]),
            "target": _targets(org.get("target")),
            "used": part in used,
            "steps": [{"req": _req(s["req"]), "met": all(attrs.get(a, 0) >= n for a, n in s["req"].items()),
                       "text": tr(T.describe_cap(s["ops"]))} for s in steps],
        })
    return out


def _tiles_of_ref(view: dict, card_id: str | None) -> list[str]:
    if not card_id:
        return []
    c = _c()
    ref = (c.terrain.get(card_id) or {}).get("terrain_card_ref")
    return [tid for tid in c.tile_ids if tid in view.get("tiles", {}) and c.tiles[tid]["terrain_card_ref"] == ref]


def _tx(text: str) -> str:
    """A data text (a catalog msgid) in the viewer's language; empty stays empty."""
    return _(text) if text else ""


def tile_name(tid: str) -> str:
    t = _c().tiles[tid]
    return f"{_(t['septet_name'])} {tr(T.TERRAIN[t['terrain']])} ({tid})"


def tile_info(view: dict, tid: str) -> dict | None:
    """What a student weighs before choosing a tile: the adversary's defense there (1.G: terrain +
    1 per red civilian + 5 under tyranny), the units and their health, the civilians."""
    t = (view.get("tiles") or {}).get(tid)
    static = _c().tiles.get(tid)
    if t is None or static is None:
        return None
    terrain = static["defense_modifier"]
    red, blue, tyr = t.get("red", 0), t.get("blue", 0), t.get("tyranny", 0)
    parts = [_("terrain %(n)s") % {"n": terrain}]
    if red:
        parts.append(ngettext("%(n)s red civilian", "%(n)s red civilians", red) % {"n": red})
    if tyr:
        parts.append(_("tyranny 5"))
    units = Counter(u[0] for u in t.get("units") or [])
    return {
        "tile": tid, "defense": terrain + red + (5 if tyr else 0), "defense_parts": " + ".join(parts),
        # the units in words and numbers of the viewer's language ("1 adversary cell"), never the keys
        "units": ", ".join(tr(T.count(n, k)) for k, n in units.items() if k in UNIT_VALUE) or _("no adversary units"),
        "health": sum(UNIT_VALUE[k] * n for k, n in units.items() if k in UNIT_VALUE),
        "red": red, "blue": blue, "tyranny": tyr,
    }


def panel(view: dict, choices: list[dict], seats: list[dict]) -> dict:
    c = _c()
    fi = {s["id"]: i for i, s in enumerate(seats)}
    titles = {s["id"]: s["title"] for s in seats}
    players = view.get("players") or {}
    own = [s for s, p in players.items() if "hand" in p]
    me = own[0] if len(own) == 1 else None
    drawn = view.get("drawn") or {}
    table = []
    for seat in view.get("seats") or []:
        p = players.get(seat) or {}
        limit = p.get("card_plays", 0)
        table.append({
            "id": seat, "title": titles.get(seat, seat.title()), "fi": fi.get(seat, 9), "me": seat == me,
            "resources": p.get("resources", 0), "income": p.get("income", 0),
            "plays": f"{len(p.get('played') or [])}/{limit if limit < 99 else '∞'}",
            "hand_count": p.get("hand_count", 0), "presence": p.get("presence_on_map", 0),
            "quadrant": (view.get("quadrants") or {}).get(seat),
            "played": [card_info(x) for x in p.get("played") or []],
            "spent": [_(c.cards[x]["title"]) for x in p.get("discard") or [] if x in c.cards],
            "used": [tr(T.ORGANIC[(seat, u)]) for u in p.get("used") or [] if (seat, u) in T.ORGANIC],
            "attributes": [{"name": _attr(a), "n": n} for a, n in (p.get("attributes") or {}).items() if n],
            "hand": [card_info(x) for x in p["hand"]] if "hand" in p else None,
            "drawn": [card_info(x) for x in drawn.get(seat, [])],
        })
    mine = next((t for t in table if t["me"]), None)
    if mine is not None:
        mine["organics"] = _organics(me, players[me].get("attributes") or {}, players[me].get("used") or [])
        mine["approach"] = _(c.panels[me]["approach"]) if c.panels[me].get("approach") else ""
        mine["special_rules"] = [_(r) for r in c.panels[me].get("special_rules", [])]
    boxes = view.get("boxes") or {}
    adversary = []
    for step, label in (("dominate", _("Dominate")), ("develop", _("Develop")), ("deploy", _("Deploy"))):
        cid = boxes.get(step)
        adversary.append({"step": step, "label": label, "card": cid or "",
                          "ref": (c.terrain.get(cid) or {}).get("terrain_card_ref") if cid else None,
                          "tiles": [tile_name(t) for t in _tiles_of_ref(view, cid)]})
    events = boxes.get("event_discard") or []
    last_event = None
    if events and events[-1] in c.events:
        ev = c.events[events[-1]]
        last_event = {"title": _(ev["title"]), "freedom": _tx(ev["text"].get("freedom", "")),
                      "tyranny": _tx(ev["text"].get("tyranny", "")),
                      "bottom": " ".join(_(t) for t in (ev["text"].get("bottom_1", ""), ev["text"].get("bottom_2", ""))
                                         if t and t != "No effect.")}
    inf = view.get("influence") or {}
    tyr = view.get("tyranny") or {}
    infl_cards = c.influence if isinstance(c.influence, dict) else {}
    choice_cards = {}
    organic_by_id = {o["id"]: o for o in (mine or {}).get("organics", [])}
    for ch in choices or []:
        cid = (ch.get("payload") or {}).get("card")
        tid = (ch.get("payload") or {}).get("tile")
        if cid and card_info(cid):
            choice_cards[ch["id"]] = card_info(cid)
        elif isinstance(tid, str) and tile_info(view, tid):
            choice_cards[ch["id"]] = {"tile": tile_info(view, tid)}
        elif ch["id"] in organic_by_id:
            choice_cards[ch["id"]] = {"organic": organic_by_id[ch["id"]]}
    phase = view.get("phase")
    return {
        "turn": view.get("turn", 0), "phase": phase,
        "phases": [{"id": k, "title": t, "text": x, "current": k == phase} for k, t, x in phases()
                   if k != "hq" or phase == "hq"],
        "me": mine, "table": table,
        "adversary": adversary, "last_event": last_event,
        "influence": {**inf, "played_titles": [_(infl_cards[x]["title"]) for x in inf.get("cards_played") or [] if x in infl_cards]},
        "tyranny": tyr, "terrain_left": (view.get("decks") or {}).get("terrain"),
        "terrain_next_stage": view.get("terrain_next_stage"),
        "choice_cards": choice_cards,
    }
