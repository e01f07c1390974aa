"""Tears of Tyranny's words as messages (contract v2, issue 16.9): names of seats, tiles, terrains,
units, decks, track rows and adversary steps; counted nouns; card titles and texts; the plain-words
text of a capability's effect. Every template is a string literal here (the i18n extractor reads
it); names from the data files are the catalog's messages (``Rules.catalog()``).

Names are built once and shared (a message is a plain dict: never mutate one)."""

from __future__ import annotations

from engine.core.messages import msg, msg_n
from engine.scenarios.tears_of_tyranny.data import content

C = content()

SEAT = {"liberators": msg("Liberators"), "advisors": msg("Advisors"), "partisans": msg("Partisans"),
        "comrades": msg("Comrades")}
#: the adversary and the team (the result's winner)
SIDE = {"players": msg("the players"), "adversary": msg("the adversary")}

TERRAIN = {"urban": msg("urban"), "jungle": msg("jungle"), "rural": msg("rural"), "desert": msg("desert")}

#: the tile's own name (unique on the map, issue 16.6), a data text listed by the catalog
TILE = {tid: msg(C.tiles[tid]["name"]) for tid in C.tile_ids}
#: the tile's name with its terrain, as prompts and facts name it: "Port Aurel Centre (urban)"
TNAME = {tid: msg("{tile} ({terrain})", tile=TILE[tid], terrain=TERRAIN[C.tiles[tid]["terrain"]])
         for tid in C.tile_ids}

UNIT = {"cell": msg("adversary cell"), "outpost": msg("adversary outpost"), "garrison": msg("adversary garrison"),
        "base": msg("guerrilla base"), "g": msg("guerrilla")}
#: a piece a capability moves
PIECE = {"own_g": msg("your guerrilla"), "cell": msg("adversary cell"), "outpost": msg("adversary outpost"),
         "garrison": msg("adversary garrison"), "red": msg("red civilian"), "blue": msg("blue civilian")}
#: the same with its article, as a choice names one piece (issue 16.6: "an outpost", never "a outpost")
A_PIECE = {"own_g": msg("a guerrilla of yours"), "cell": msg("an adversary cell"), "outpost": msg("an adversary outpost"),
           "garrison": msg("an adversary garrison"), "red": msg("a red civilian"), "blue": msg("a blue civilian")}
COLOR = {"red": msg("red"), "blue": msg("blue")}
DECK = {"major": msg("major"), "minor": msg("minor")}
ROW = {"resources": msg("income"), "plays": msg("card plays")}
#: the adversary's steps a capability or an HQ shield may prevent
STEP = {"dominate": msg("dominate"), "develop": msg("develop"), "deploy": msg("deploy")}
SPEED = {"immediate": msg("immediate"), "long": msg("long-term")}
CLASS = {"major": msg("major"), "minor": msg("minor")}
STATE = {"tyranny": msg("tyranny"), "freedom": msg("freedom")}
ATTRIBUTE = {"flexibility": msg("Flexibility"), "charisma": msg("Charisma"), "oversight": msg("Oversight"),
             "integrity": msg("Integrity"), "persistence": msg("Persistence"), "logistics": msg("Logistics"),
             "risk": msg("Risk"), "corruption": msg("Corruption")}

CARD_TITLE = {cid: msg(c["title"]) for cid, c in C.cards.items()}
CARD_TEXT = {cid: msg(c["text"]) for cid, c in C.cards.items()}
EVENT_TITLE = {eid: msg(e["title"]) for eid, e in C.events.items()}
INFLUENCE_TITLE = {iid: msg(c["title"]) for iid, c in C.influence.items()}
#: the panels' organic capabilities: the special one is named on the panel, the patrol is "Patrol"
ORGANIC = {(seat, "special"): msg(C.panels[seat]["special"]["name"]) for seat in C.panels}
ORGANIC.update({(seat, "patrol"): msg("Patrol capability") for seat in C.panels})

_COUNTS = {
    "cell": lambda n: msg_n("{count} adversary cell", "{count} adversary cells", n),
    "outpost": lambda n: msg_n("{count} outpost", "{count} outposts", n),
    "garrison": lambda n: msg_n("{count} garrison", "{count} garrisons", n),
    "unit": lambda n: msg_n("{count} adversary unit", "{count} adversary units", n),
    "adversary": lambda n: msg_n("{count} adversary unit", "{count} adversary units", n),
    "red": lambda n: msg_n("{count} red civilian", "{count} red civilians", n),
    "blue": lambda n: msg_n("{count} blue civilian", "{count} blue civilians", n),
    "civilian": lambda n: msg_n("{count} civilian", "{count} civilians", n),
    "tile": lambda n: msg_n("{count} tile", "{count} tiles", n),
    "guerrilla": lambda n: msg_n("{count} guerrilla", "{count} guerrillas", n),
    "own_g": lambda n: msg_n("{count} of your guerrillas", "{count} of your guerrillas", n),
    "resource": lambda n: msg_n("{count} resource", "{count} resources", n),
    "card": lambda n: msg_n("{count} card", "{count} cards", n),
    "tyranny token": lambda n: msg_n("{count} tyranny token", "{count} tyranny tokens", n),
    "presence": lambda n: msg_n("{count} presence", "{count} presence", n),
    "influence": lambda n: msg_n("{count} influence", "{count} influence", n),
}


def count(n: int, what: str):
    """``n`` and the noun in the right number: "1 cell", "2 outposts" (issue 16.6), a message."""
    return _COUNTS[what](n)


def tname(tid: str):
    return TNAME[tid]


def tiles_list(tids) -> list:
    """Tile names as a list of messages (rendered joined with ", ")."""
    return [TNAME[t] for t in tids]


def range_text(rng):
    if isinstance(rng, str):
        return msg("range {n} from a headquarters", n=int(rng[3:]))
    return msg("range {n}", n=rng)


TARGET = {
    "any": msg("any tile"), "jungle": msg("a jungle tile"), "rural": msg("a rural tile"),
    "urban": msg("an urban tile"), "desert": msg("a desert tile"), "jungle_rural": msg("a jungle or rural tile"),
    "civilians": msg("a tile with civilians"), "blue_civilians": msg("a tile with blue civilians"),
    "red_civilians": msg("a tile with red civilians"), "gs": msg("a tile with guerrillas"),
    "own_gs": msg("a tile with your guerrillas"), "no_tyranny": msg("a tile without tyranny"),
    "tyranny": msg("a tile under tyranny"), "adversary": msg("a tile with adversary units"),
    "no_adversary": msg("a tile without adversary units"), "cells": msg("a tile with an adversary cell"),
    "outposts": msg("a tile with an adversary outpost"), "garrisons": msg("a tile with an adversary garrison"),
    "coastal": msg("a coastal or border tile"), "presence": msg("a tile with your presence"),
    "infrastructure": msg("an infrastructure tile"), "base": msg("a tile with a guerrilla base"),
}


def _and(items: list):
    """Messages joined as "a and b and c" (a message)."""
    out = items[0]
    for m in items[1:]:
        out = msg("{a} and {b}", a=out, b=m)
    return out


def card_line(cid: str):
    """A card as a player choosing it needs to read it (issue 16.6): title, class, cost, speed, range,
    target and what it does (built once per card)."""
    return CARD_LINE[cid]


def _card_line(cid: str):
    card = C.cards[cid]
    return msg("{title} ({cls}, cost {cost}, {speed}, {reach}, target: {target}): {text}", title=CARD_TITLE[cid],
               cls=CLASS[card["class"]], cost=card["cost"], speed=SPEED[card["speed"]],
               reach=range_text(card["range"]), target=_and([TARGET[t] for t in card["target"]]),
               text=CARD_TEXT[cid])


CARD_LINE = {cid: _card_line(cid) for cid in C.cards}


# ---- a capability's effect in plain words (organic capabilities; cards carry their own text) ----

def _steps(steps: list):
    out = STEP[steps[0]]
    for s in steps[1:]:
        out = msg("{a} or {b}", a=out, b=STEP[s])
    return out


def _cap_part(op: dict):
    n = op.get("n")
    k = op["op"]
    if k == "damage":
        if op.get("ignore_defense"):
            return msg("{n} damage ignoring terrain and civilian defense", n=n)
        return msg("{n} damage", n=n)
    if k == "damage_per_g":
        if op.get("bonus"):
            return msg("1 damage per guerrilla in the tile +{bonus}", bonus=op["bonus"])
        return msg("1 damage per guerrilla in the tile")
    if k == "destroy":
        return msg("destroy {what}", what=count(n, op["unit"] if op["unit"] != "any" else "unit"))
    if k == "pr_destroy":
        return msg("destroy 1 {unit} for every {per} civilians in the neighbouring tiles", unit=UNIT[op["unit"]],
                   per=op["per"])
    if k == "remove":
        return msg("force {what} to withdraw (no influence)", what=count(n, op["unit"] if op["unit"] != "any" else "unit"))
    if k == "replace":
        return msg("replace {what} with one of your guerrillas (+{n} influence)", what=A_PIECE[op["what"]],
                   n=op["influence"])
    if k == "pull":
        return msg("pull up to {what} into the tile", what=count(n, op["what"]))
    if k == "push":
        return msg("push up to {what} out of the tile", what=count(n, op["what"]))
    if k == "defense":
        return msg("+{n} defense for the resistance this turn", n=n)
    if k == "prevent":
        return msg("the adversary cannot {steps} here this turn", steps=_steps(op["steps"]))
    if k == "influence":
        return msg("+{n} influence", n=n) if n >= 0 else msg("{n} influence", n=n)
    if k == "resources":
        return msg("+{what}", what=count(n, "resource"))
    if k == "presence":
        return msg("add 1 of your presence to the tile")
    if k == "recruit":
        return msg("recruit {what} in the tile", what=count(n, "guerrilla"))
    if k == "convert":
        return msg("convert {what} to blue", what=count(n, "red"))
    if k == "kill_civilian":
        col = op.get("color", "any")
        return msg("kill {what}", what=count(n, col if col != "any" else "civilian"))
    if k == "remove_tyranny":
        return msg("return the tile's tyranny token to the pool")
    if k == "remove_own_g":
        return msg("remove {what} from the tile", what=count(n, "own_g"))
    if k == "if_attr":
        return msg("if you have {n}x {attribute}: {then}", n=op["n"], attribute=ATTRIBUTE[op["attr"]],
                   then=cap_phrase(op["then"]))
    return msg("{op}", op=k)  # pragma: no cover - content is validated


def cap_phrase(ops: list):
    out = _cap_part(ops[0])
    for op in ops[1:]:
        out = msg("{a}; then {b}", a=out, b=_cap_part(op))
    return out


def describe_cap(ops: list):
    """What an effect does, one sentence (a message)."""
    return msg("{effect}.", effect=cap_phrase(ops))


def catalog_names() -> dict:
    """The names this module builds from data (for ``Rules.catalog()``)."""
    return {"organic": [{"id": f"{s}:{p}", "name": m} for (s, p), m in ORGANIC.items()]}
