"""Positions: a game set up from a described position (``setup(seed, {"position": ...})``) and
the description of a state's position (``Rules.position``), in one JSON shape.

A position describes the board between two cards (the sequence of play then starts the card in
play with the Eligible Factions, 2.3). Every key is optional; a key left out keeps the
scenario's setup (2.1). Keys (see :func:`schema` for the JSON Schema):

``spaces``        ``{space id: {piece key: n, "support": level, "terror": n, "sabotage": bool}}``:
                  when given, the whole map is this (spaces left out are empty and Neutral).
                  Piece keys: ``troops``, ``police``, ``govt_base``, ``farc_underground``,
                  ``farc_active``, ``farc_base``, ``auc_...``, ``cartels_...``. Support levels:
                  ``active_support``, ``passive_support``, ``neutral``, ``passive_opposition``,
                  ``active_opposition``.
``out_of_play``   ``{piece key: n}`` (Guerrillas under ``<faction>_underground``).
``resources``     ``{faction: 0-99}``; ``aid`` 0-29; ``el_presidente`` ``samper|pastrana|uribe``.
``eligible``      ``{faction: bool}``.
``farc_zones``    ``[space id]``; ``shipments`` ``[{"space": id, "owner": faction}]`` (4.5.3: the
                  owner has a Guerrilla there).
``capabilities``  ``{card number: "unshaded"|"shaded"}``; ``momentum`` ``[card number]``.
``foreign``       ``[ "ecuador", "panama" ]``: which of them are spaces (1.3.5).
``card``, ``next`` the card in play and the next card (1-72 or ``"P"``); ``deck`` the rest, top first.
``propaganda_played`` Propaganda cards already played.

Available pieces are what the inventory (1.4) leaves after the map and Out of Play. A bad
field raises :class:`PositionError` naming it (``position.spaces.cali.troops``).
"""

from __future__ import annotations

from engine.core.contract import PositionError

from .board import (
    AVAIL_SLOT,
    BASES,
    BOARD,
    FACTIONS,
    INSURGENTS,
    PIECE_KEYS,
    PIECE_NAMES,
    U,
    foreign_with,
)
from .state import PROP, is_prop

BD = BOARD
SUPPORT_KEYS = {"active_support": 2, "passive_support": 1, "neutral": 0, "passive_opposition": -1,
                "active_opposition": -2}
SUPPORT_OF_LEVEL = {v: k for k, v in SUPPORT_KEYS.items()}
PRESIDENTS = ("samper", "pastrana", "uribe")
SIDES = ("unshaded", "shaded")
TOP_KEYS = ("spaces", "out_of_play", "resources", "aid", "el_presidente", "eligible", "farc_zones", "shipments",
            "capabilities", "momentum", "foreign", "card", "next", "deck", "propaganda_played")


def _int(v, field: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(field, f"must be a whole number {lo}-{hi}, not {v!r}")
    if not lo <= v <= hi:
        raise PositionError(field, f"must be {lo}-{hi}, not {v}")
    return v


def _space(sid, field: str) -> int:
    if not isinstance(sid, str) or sid not in BD.index:
        raise PositionError(field, f"unknown space {sid!r}")
    return BD.index[sid]


def _faction(key, field: str) -> int:
    if key not in FACTIONS:
        raise PositionError(field, f"unknown Faction {key!r} (govt, farc, auc, cartels)")
    return FACTIONS.index(key)


def _card(v, field: str, props: list) -> int:
    if v in ("P", "p", "propaganda"):
        props[0] += 1
        return PROP + props[0] - 1
    if isinstance(v, str) and v.isdigit():
        v = int(v)
    return _int(v, field, 1, 72)


def apply(st: dict, pos) -> None:
    """Overwrite the freshly set-up state ``st`` with the described position ``pos``."""
    if not isinstance(pos, dict):
        raise PositionError("position", "must be an object")
    for k in pos:
        if k not in TOP_KEYS:
            raise PositionError(f"position.{k}", "unknown key (" + ", ".join(TOP_KEYS) + ")")
    if "foreign" in pos:
        fs = pos["foreign"]
        if not isinstance(fs, list) or any(x not in ("ecuador", "panama") for x in fs):
            raise PositionError("position.foreign", "must be a list of 'ecuador' / 'panama'")
        st["foreign"] = ""
        for x in fs:
            st["foreign"] = foreign_with(st["foreign"], x)
    if "spaces" in pos:
        _spaces(st, pos["spaces"])
    if "out_of_play" in pos:
        oop = pos["out_of_play"]
        if not isinstance(oop, dict):
            raise PositionError("position.out_of_play", "must be an object")
        st["oop"] = [0] * 12
        for key, n in oop.items():
            if key not in PIECE_KEYS or AVAIL_SLOT[PIECE_KEYS.index(key)] != PIECE_KEYS.index(key):
                raise PositionError(f"position.out_of_play.{key}", "unknown piece key (Guerrillas: <faction>_underground)")
            st["oop"][PIECE_KEYS.index(key)] = _int(n, f"position.out_of_play.{key}", 0, 40)
    _recount_available(st)
    for f_key, n in _obj(pos, "resources").items():
        st["res"][_faction(f_key, f"position.resources.{f_key}")] = _int(n, f"position.resources.{f_key}", 0, 99)
    if "aid" in pos:
        st["aid"] = _int(pos["aid"], "position.aid", 0, 29)
    if "el_presidente" in pos:
        if pos["el_presidente"] not in PRESIDENTS:
            raise PositionError("position.el_presidente", "must be samper, pastrana or uribe")
        st["pres"] = PRESIDENTS.index(pos["el_presidente"])
    for f_key, ok in _obj(pos, "eligible").items():
        if not isinstance(ok, bool):
            raise PositionError(f"position.eligible.{f_key}", "must be true or false")
        st["elig"][_faction(f_key, f"position.eligible.{f_key}")] = ok
    if "farc_zones" in pos:
        zs = _list(pos, "farc_zones")
        st["zones"] = []
        for k, sid in enumerate(zs):
            i = _space(sid, f"position.farc_zones.{k}")
            if BD.is_loc[i]:
                raise PositionError(f"position.farc_zones.{k}", "a FARC Zone is a City or Department, not a LoC")
            st["zones"].append(i)
    if "shipments" in pos:
        st["ship"] = []
        for k, s in enumerate(_list(pos, "shipments")):
            field = f"position.shipments.{k}"
            if not isinstance(s, dict):
                raise PositionError(field, "must be {\"space\": id, \"owner\": faction}")
            i = _space(s.get("space"), field + ".space")
            g = _faction(s.get("owner"), field + ".owner")
            if g not in INSURGENTS or not (st["pc"][i][U(g)] + st["pc"][i][U(g) + 1]):
                raise PositionError(field + ".owner", "4.5.3: a Shipment is held by a Guerrilla of its owner there")
            st["ship"].append([i, g])
    if "capabilities" in pos:
        st["caps"] = {}
        for n, side in _obj(pos, "capabilities").items():
            field = f"position.capabilities.{n}"
            card = _card(n, field, [0])
            if not BD.cards[card].get("capability") or side not in SIDES:
                raise PositionError(field, "a Capability card number with 'unshaded' or 'shaded'")
            st["caps"][str(card)] = side[0]
    if "momentum" in pos:
        st["mom"] = []
        for k, n in enumerate(_list(pos, "momentum")):
            card = _card(n, f"position.momentum.{k}", [0])
            if not BD.cards[card].get("momentum"):
                raise PositionError(f"position.momentum.{k}", f"card {card} is not a Momentum card")
            st["mom"].append(card)
    if "propaganda_played" in pos:
        st["props_done"] = _int(pos["propaganda_played"], "position.propaganda_played", 0, st["props_total"] - 1)
    if any(k in pos for k in ("card", "next", "deck")):
        props = [st["props_done"]]
        if "card" in pos:
            st["cur"] = _card(pos["card"], "position.card", props)
        if "next" in pos:
            st["nxt"] = None if pos["next"] is None else _card(pos["next"], "position.next", props)
        if "deck" in pos:
            st["deck"] = [_card(c, f"position.deck.{k}", props) for k, c in enumerate(_list(pos, "deck"))]


def _obj(pos: dict, key: str) -> dict:
    v = pos.get(key, {})
    if not isinstance(v, dict):
        raise PositionError(f"position.{key}", "must be an object")
    return v


def _list(pos: dict, key: str) -> list:
    v = pos.get(key, [])
    if not isinstance(v, list):
        raise PositionError(f"position.{key}", "must be a list")
    return v


def _spaces(st: dict, spaces) -> None:
    if not isinstance(spaces, dict):
        raise PositionError("position.spaces", "must be an object: space id -> contents")
    st["pc"] = [[0] * 12 for _ in range(BD.n)]
    st["sup"] = [0] * BD.n
    st["ter"] = [0] * BD.n
    st["sab"] = [0] * BD.n
    for sid, d in spaces.items():
        field = f"position.spaces.{sid}"
        i = _space(sid, field)
        if not isinstance(d, dict):
            raise PositionError(field, "must be an object: piece key -> n, support, terror, sabotage")
        if i in BD.foreign and BD.ids[i] not in st["foreign"].split("+") and d:
            raise PositionError(field, "1.3.5: Ecuador / Panamá are spaces only once listed in position.foreign")
        for key, v in d.items():
            if key == "support":
                if v not in SUPPORT_KEYS:
                    raise PositionError(f"{field}.support", "one of " + ", ".join(SUPPORT_KEYS))
                if SUPPORT_KEYS[v] and (BD.is_loc[i] or BD.pop[i] == 0):
                    raise PositionError(f"{field}.support", "1.6: only populated Cities and Departments have Support")
                st["sup"][i] = SUPPORT_KEYS[v]
            elif key == "terror":
                st["ter"][i] = _int(v, f"{field}.terror", 0, 15)
            elif key == "sabotage":
                if not isinstance(v, bool) or (v and not BD.is_loc[i]):
                    raise PositionError(f"{field}.sabotage", "true or false, and only on a LoC")
                st["sab"][i] = int(v)
            elif key in PIECE_KEYS:
                slot = PIECE_KEYS.index(key)
                st["pc"][i][slot] = _int(v, f"{field}.{key}", 0, 40)
            else:
                raise PositionError(f"{field}.{key}", "unknown key (piece keys, support, terror, sabotage)")
        nb = sum(st["pc"][i][b] for b in BASES)
        if nb and BD.is_loc[i]:
            raise PositionError(f"{field}", "1.4.2: no Bases on a LoC")
        if nb > 2:
            raise PositionError(f"{field}", "1.4.2: at most 2 Bases in a space")


def _recount_available(st: dict) -> None:
    """1.4: Available = inventory - map - Out of Play, never below zero."""
    av = list(BD.inventory)
    for i in range(BD.n):
        for k, n in enumerate(st["pc"][i]):
            av[AVAIL_SLOT[k]] -= n
    for k, n in enumerate(st["oop"]):
        av[k] -= n
    for k in range(12):
        if av[k] < 0:
            key = PIECE_KEYS[k]
            raise PositionError(f"position.spaces.*.{key}",
                                f"{BD.inventory[k] - av[k]} {PIECE_NAMES[k]} pieces on the map and Out of Play; "
                                f"the inventory has {BD.inventory[k]} (1.4)")
    st["av"] = av


def _card_out(c):
    return None if c is None else ("P" if is_prop(c) else c)


def describe(st: dict) -> dict:
    """The position of ``st`` in the shape :func:`apply` accepts (hidden parts included)."""
    spaces = {}
    for i in range(BD.n):
        d = {PIECE_KEYS[k]: n for k, n in enumerate(st["pc"][i]) if n}
        if st["sup"][i]:
            d["support"] = SUPPORT_OF_LEVEL[st["sup"][i]]
        if st["ter"][i]:
            d["terror"] = st["ter"][i]
        if st["sab"][i]:
            d["sabotage"] = True
        if d:
            spaces[BD.ids[i]] = d
    return {
        "spaces": spaces,
        "out_of_play": {PIECE_KEYS[k]: n for k, n in enumerate(st["oop"]) if n},
        "resources": {FACTIONS[f]: st["res"][f] for f in range(len(FACTIONS))},
        "aid": st["aid"],
        "el_presidente": PRESIDENTS[st["pres"]],
        "eligible": {FACTIONS[f]: bool(st["elig"][f]) for f in range(len(FACTIONS))},
        "farc_zones": [BD.ids[i] for i in st["zones"]],
        "shipments": [{"space": BD.ids[s[0]], "owner": FACTIONS[s[1]]} for s in st["ship"]],
        "capabilities": {k: ("unshaded" if v == "u" else "shaded") for k, v in st["caps"].items()},
        "momentum": list(st["mom"]),
        "foreign": [x for x in ("ecuador", "panama") if x in st["foreign"].split("+")],
        "card": _card_out(st["cur"]),
        "next": _card_out(st["nxt"]),
        "deck": [_card_out(c) for c in st["deck"]],
        "propaganda_played": st["props_done"],
    }


def schema() -> dict:
    """JSON Schema of the ``position`` option."""
    count = {"type": "integer", "minimum": 0, "maximum": 40}
    faction_map = {"type": "object", "propertyNames": {"enum": list(FACTIONS)}}
    card = {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 72}, {"const": "P"}]}
    space = {"type": "object", "additionalProperties": False,
             "properties": {**{k: count for k in PIECE_KEYS}, "support": {"enum": list(SUPPORT_KEYS)},
                            "terror": {"type": "integer", "minimum": 0}, "sabotage": {"type": "boolean"}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Andean Abyss position",
        "type": "object", "additionalProperties": False,
        "properties": {
            "spaces": {"type": "object", "propertyNames": {"enum": list(BD.ids)}, "additionalProperties": space},
            "out_of_play": {"type": "object", "propertyNames": {"enum": [PIECE_KEYS[k] for k in range(12)
                                                                       if AVAIL_SLOT[k] == k]},
                            "additionalProperties": count},
            "resources": {**faction_map, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 99}},
            "aid": {"type": "integer", "minimum": 0, "maximum": 29},
            "el_presidente": {"enum": list(PRESIDENTS)},
            "eligible": {**faction_map, "additionalProperties": {"type": "boolean"}},
            "farc_zones": {"type": "array", "items": {"enum": [BD.ids[i] for i in range(BD.n) if not BD.is_loc[i]]}},
            "shipments": {"type": "array", "items": {
                "type": "object", "required": ["space", "owner"],
                "properties": {"space": {"enum": list(BD.ids)},
                               "owner": {"enum": [FACTIONS[g] for g in INSURGENTS]}}}},
            "capabilities": {"type": "object", "additionalProperties": {"enum": list(SIDES)}},
            "momentum": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 72}},
            "foreign": {"type": "array", "items": {"enum": ["ecuador", "panama"]}},
            "card": card, "next": {"oneOf": [card, {"type": "null"}]}, "deck": {"type": "array", "items": card},
            "propaganda_played": {"type": "integer", "minimum": 0},
        },
    }

