"""Tears of Tyranny: the declarative effect and target vocabulary (rulebook 1.F, L641-L649).

Every capability card, panel capability, event box and influence-card level is a short list of
*ops*: plain dicts such as ``{"op": "damage", "n": 2}``. This module says which ops exist, which
fields each takes, validates a list of ops, and renders it in plain words. The rules modules
(``effects.py``) resolve every op listed here; ``tests/.../test_content.py`` proves it.

Two families:

* **Capability ops** act on the one target tile a player chose (rule 1.F: "each capability
  affects one target tile unless otherwise stated").
* **Board ops** (events, influence cards) pick their tiles themselves through a named *selector*
  (``sel``) evaluated in a fixed, documented tile order, so the adversary and the influence
  cards never need a player decision.
"""

from __future__ import annotations

ATTRIBUTES = ("flexibility", "charisma", "oversight", "integrity",
              "persistence", "logistics", "risk", "corruption")

UNIT_KINDS = ("cell", "outpost", "garrison")
MOVABLE = ("own_g", "cell", "outpost", "garrison", "adversary", "red", "blue", "civilian")

#: target conditions (rule 1.F "Target"); a card's target is a list, all must hold.
TARGETS = {
    "any": "any tile",
    "jungle": "a jungle tile",
    "rural": "a rural tile",
    "urban": "an urban tile",
    "desert": "a desert tile",
    "jungle_rural": "a jungle or rural tile",
    "civilians": "a tile with civilians",
    "blue_civilians": "a tile with blue civilians",
    "red_civilians": "a tile with red civilians",
    "gs": "a tile with guerrillas",
    "own_gs": "a tile with your guerrillas",
    "no_tyranny": "a tile without tyranny",
    "tyranny": "a tile under tyranny",
    "adversary": "a tile with adversary units",
    "no_adversary": "a tile without adversary units",
    "cells": "a tile with an adversary cell",
    "outposts": "a tile with an adversary outpost",
    "garrisons": "a tile with an adversary garrison",
    "coastal": "a coastal/border tile",
    "presence": "a tile with your presence",
    "infrastructure": "an infrastructure tile",
    "base": "a tile with a guerrilla base",
}

#: capability ops: name -> (required fields, optional fields)
CAP_OPS = {
    "damage": ({"n"}, {"ignore_defense"}),
    "damage_per_g": (set(), {"bonus"}),
    "destroy": ({"unit", "n"}, set()),
    "remove": ({"unit", "n"}, set()),
    "replace": ({"what", "influence"}, set()),
    "pull": ({"what", "n"}, set()),
    "push": ({"what", "n"}, set()),
    "defense": ({"n"}, set()),
    "prevent": ({"steps"}, set()),
    "influence": ({"n"}, set()),
    "resources": ({"n"}, set()),
    "presence": (set(), set()),
    "recruit": ({"n"}, set()),
    "convert": ({"n"}, set()),
    "kill_civilian": ({"n"}, {"color"}),
    "remove_tyranny": (set(), set()),
    "remove_own_g": ({"n"}, set()),
    "if_attr": ({"attr", "n", "then"}, set()),
}

#: board selectors for event and influence ops (see effects.select_tiles)
SELECTORS = {
    "deploy_box": "the tiles named by the card in the deploy box",
    "develop_box": "the tiles named by the card in the develop box",
    "dominate_box": "the tiles named by the card in the dominate box",
    "presence_adversary": "every tile holding both player presence and adversary units",
    "g_adversary": "every tile holding both guerrillas and adversary units",
    "base_tiles": "every tile with a guerrilla base",
    "tyranny_tiles": "every tile under tyranny",
    "hq_tiles": "every tile holding a headquarters",
    "presence_tiles": "every tile with player presence",
    "urban": "every urban tile",
    "infrastructure": "every infrastructure tile",
    "coastal": "every coastal/border tile",
    "most_cells": "each quadrant's tile with the most cells",
    "most_blue": "each quadrant's tile with the most blue civilians",
    "most_red": "each quadrant's tile with the most red civilians",
    "outpost_tiles": "every tile with an outpost",
    "garrison_tiles": "every tile with a garrison",
    "near_presence_cells": "every tile with a cell that holds or borders player presence",
    "near_presence_outposts": "every tile with an outpost that holds or borders player presence",
}

#: board ops: name -> (required, optional)
BOARD_OPS = {
    "team_influence": ({"n"}, set()),
    "each_resources": ({"n"}, set()),
    "place": ({"unit", "sel"}, {"max"}),
    "develop": ({"sel"}, {"max"}),
    "adv_attack": ({"n", "sel"}, {"max"}),
    "g_attack": ({"sel"}, {"max"}),
    "flip": ({"to", "n", "sel"}, {"max"}),
    "remove_unit": ({"unit", "n", "sel"}, {"max"}),
    "destroy_unit": ({"unit", "n", "sel"}, {"max"}),
    "each_recruit": ({"n"}, set()),
    "tyranny_return": ({"n"}, set()),
    "add_tyranny": ({"sel"}, {"max"}),
    "defense": ({"n", "sel"}, {"max"}),
    "prevent": ({"steps", "sel"}, {"max"}),
    "kill_civilians": ({"n", "sel"}, {"max"}),
    "each_draw": ({"deck"}, set()),
}

PREVENTABLE = ("dominate", "develop", "deploy")


class ContentError(ValueError):
    pass


def _check_fields(op: dict, spec: dict, where: str) -> None:
    name = op.get("op")
    if name not in spec:
        raise ContentError(f"{where}: unknown op {name!r}")
    req, opt = spec[name]
    keys = set(op) - {"op"}
    if not req <= keys:
        raise ContentError(f"{where}: op {name} lacks {sorted(req - keys)}")
    if keys - req - opt:
        raise ContentError(f"{where}: op {name} has unknown fields {sorted(keys - req - opt)}")


def validate_cap_ops(ops: list, where: str) -> None:
    if not isinstance(ops, list) or not ops:
        raise ContentError(f"{where}: effect must be a non-empty list")
    for op in ops:
        _check_fields(op, CAP_OPS, where)
        name = op["op"]
        if "n" in op and (not isinstance(op["n"], int) or (op["n"] < 0 and name != "influence")):
            raise ContentError(f"{where}: bad n in {op}")
        if name in ("destroy", "remove") and op["unit"] not in (*UNIT_KINDS, "any"):
            raise ContentError(f"{where}: bad unit {op['unit']}")
        if name in ("pull", "push") and op["what"] not in MOVABLE:
            raise ContentError(f"{where}: bad movable {op['what']}")
        if name == "replace" and op["what"] not in ("cell", "outpost", "red"):
            raise ContentError(f"{where}: bad replace {op['what']}")
        if name == "prevent" and not set(op["steps"]) <= set(PREVENTABLE):
            raise ContentError(f"{where}: bad prevent steps {op['steps']}")
        if name == "kill_civilian" and op.get("color", "any") not in ("red", "blue", "any"):
            raise ContentError(f"{where}: bad colour")
        if name == "if_attr":
            if op["attr"] not in ATTRIBUTES:
                raise ContentError(f"{where}: bad attribute {op['attr']}")
            validate_cap_ops(op["then"], where + "/if_attr")


def validate_board_ops(ops: list, where: str, allow_empty: bool = False) -> None:
    if not isinstance(ops, list) or (not ops and not allow_empty):
        raise ContentError(f"{where}: effect must be a list")
    for op in ops:
        _check_fields(op, BOARD_OPS, where)
        if "sel" in op and op["sel"] not in SELECTORS:
            raise ContentError(f"{where}: unknown selector {op['sel']}")
        if op["op"] in ("place", "remove_unit", "destroy_unit") and op["unit"] not in UNIT_KINDS:
            raise ContentError(f"{where}: bad unit {op['unit']}")
        if op["op"] == "flip" and op["to"] not in ("red", "blue"):
            raise ContentError(f"{where}: bad flip colour")
        if op["op"] == "prevent" and not set(op["steps"]) <= set(PREVENTABLE):
            raise ContentError(f"{where}: bad prevent steps")
        if op["op"] == "each_draw" and op["deck"] not in ("major", "minor"):
            raise ContentError(f"{where}: bad deck")


# ---- text defects (authoring-brief section 11: card faces are read aloud by students) -----------

_TEXT_DEFECTS = (
    # (pattern, what is wrong); an ellipsis "..." is allowed, two periods are not
    (r"(?<!\.)\.\.(?!\.)", "doubled period"),
    (r"(?!\.\.)[.;:,][.;:,]", "two punctuation marks in a row"),
    (r"\s[.;:,!?)]", "space before punctuation"),
    (r"\(\s", "space after an opening parenthesis"),
    (r"\S {2,}\S", "doubled space"),
    (r"^\s|\s$", "leading or trailing whitespace"),
    (r"\b(\w+) \1\b", "doubled word"),
)


def text_defects(text: str) -> list[str]:
    """The obvious defects of one authored text (empty list: clean)."""
    import re

    out = [what for pat, what in _TEXT_DEFECTS if re.search(pat, text, flags=re.IGNORECASE)]
    if text.count("(") != text.count(")"):
        out.append("unbalanced parentheses")
    if text.count("[") != text.count("]"):
        out.append("unbalanced brackets")
    return out


def validate_text(text: str, where: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise ContentError(f"{where}: empty text")
    bad = text_defects(text)
    if bad:
        raise ContentError(f"{where}: {', '.join(bad)} in {text!r}")


def validate_target(target: list, where: str) -> None:
    if not isinstance(target, list) or not target:
        raise ContentError(f"{where}: target must be a non-empty list")
    for t in target:
        if t not in TARGETS:
            raise ContentError(f"{where}: unknown target {t!r}")


def validate_range(rng, where: str) -> None:
    if isinstance(rng, int) and 0 <= rng <= 3:
        return
    if isinstance(rng, str) and rng.startswith("hq:") and rng[3:].isdigit():
        return
    raise ContentError(f"{where}: bad range {rng!r}")


# ---- plain words --------------------------------------------------------------------------

#: singular and plural of each movable thing (issue 16.6: "1 cell", "2 cells", never "cell(s)")
_WHAT = {"own_g": ("of your guerrillas", "of your guerrillas"), "cell": ("adversary cell", "adversary cells"),
         "outpost": ("outpost", "outposts"), "garrison": ("garrison", "garrisons"),
         "adversary": ("adversary unit", "adversary units"), "red": ("red civilian", "red civilians"),
         "blue": ("blue civilian", "blue civilians"), "civilian": ("civilian", "civilians"),
         "tile": ("tile", "tiles"), "guerrilla": ("guerrilla", "guerrillas"), "resource": ("resource", "resources"),
         "unit": ("adversary unit", "adversary units"), "card": ("card", "cards"),
         "tyranny token": ("tyranny token", "tyranny tokens")}


def count(n: int, what: str) -> str:
    """``n`` and the noun in the right number: "1 cell", "2 outposts" (issue 16.6)."""
    one, many = _WHAT.get(what, (what, what + "s"))
    return f"{n} {one if n == 1 else many}"


def article(word: str) -> str:
    """The indefinite article for ``word``: "an outpost", "a cell" (issue 16.6)."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def describe_cap(ops: list) -> str:
    """The plain-words text of an effect: one sentence, ending in a single period."""
    return _cap_phrase(ops) + "."


def _cap_phrase(ops: list) -> str:
    parts = []
    for op in ops:
        n = op.get("n")
        k = op["op"]
        if k == "damage":
            s = f"{n} damage" + (" ignoring terrain and civilian defense" if op.get("ignore_defense") else "")
        elif k == "damage_per_g":
            s = "1 damage per guerrilla in the tile" + (f" +{op['bonus']}" if op.get("bonus") else "")
        elif k == "destroy":
            s = f"destroy {count(n, op['unit'] if op['unit'] != 'any' else 'unit')}"
        elif k == "remove":
            s = f"force {count(n, op['unit'] if op['unit'] != 'any' else 'unit')} to withdraw (no influence)"
        elif k == "replace":
            what = {"cell": "an adversary cell", "outpost": "an outpost", "red": "a red civilian"}[op["what"]]
            s = f"replace {what} with one of your guerrillas (+{op['influence']} influence)"
        elif k == "pull":
            s = f"pull up to {count(n, op['what'])} into the tile"
        elif k == "push":
            s = f"push up to {count(n, op['what'])} out of the tile"
        elif k == "defense":
            s = f"+{n} defense for the resistance this turn"
        elif k == "prevent":
            s = "the adversary cannot " + " or ".join(op["steps"]) + " here this turn"
        elif k == "influence":
            s = f"{'+' if n >= 0 else ''}{n} influence"
        elif k == "resources":
            s = f"+{count(n, 'resource')}"
        elif k == "presence":
            s = "add 1 of your presence to the tile"
        elif k == "recruit":
            s = f"recruit {count(n, 'guerrilla')} in the tile"
        elif k == "convert":
            s = f"convert {count(n, 'red')} to blue"
        elif k == "kill_civilian":
            s = f"kill {count(n, op.get('color', 'any') if op.get('color', 'any') != 'any' else 'civilian')}"
        elif k == "remove_tyranny":
            s = "return the tile's tyranny token to the pool"
        elif k == "remove_own_g":
            s = f"remove {n} of your guerrillas from the tile"
        elif k == "if_attr":
            # the nested effect is a clause of this sentence, not a sentence of its own
            s = f"if you have {op['n']}x {op['attr'].title()}: " + _cap_phrase(op["then"])
        else:  # pragma: no cover - validate first
            s = k
        parts.append(s)
    return "; then ".join(parts)


def describe_board(ops: list) -> str:
    if not ops:
        return "No effect."
    out = []
    for op in ops:
        k = op["op"]
        n = op.get("n")
        sel = SELECTORS.get(op.get("sel", ""), "")
        cap = f" (at most {count(op['max'], 'tile')}, quadrants taking turns)" if op.get("max") else ""
        if k == "team_influence":
            s = f"the team {'gains' if n >= 0 else 'loses'} {abs(n)} influence"
        elif k == "each_resources":
            s = f"each player {'gains' if n >= 0 else 'loses'} {count(abs(n), 'resource')}"
        elif k == "place":
            s = f"place {article('adversary ' + op['unit'])} in {sel}{cap}"
        elif k == "develop":
            s = f"the adversary develops {sel}{cap}"
        elif k == "adv_attack":
            s = f"the adversary attacks guerrillas with strength {n} in {sel}{cap}"
        elif k == "g_attack":
            s = f"guerrillas attack (1 damage each) in {sel}{cap}"
        elif k == "flip":
            s = f"{count(n, 'civilian')} {'turns' if n == 1 else 'turn'} {op['to']} in {sel}{cap}"
        elif k == "remove_unit":
            s = f"{count(n, op['unit'])} {'withdraws' if n == 1 else 'withdraw'} from {sel}{cap}"
        elif k == "destroy_unit":
            s = f"destroy {count(n, op['unit'])} in {sel}{cap}"
        elif k == "each_recruit":
            s = f"each player recruits {count(n, 'guerrilla')} at their headquarters"
        elif k == "tyranny_return":
            s = f"{count(n, 'tyranny token')} {'returns' if n == 1 else 'return'} from the map to the pool"
        elif k == "add_tyranny":
            s = f"place a tyranny token in {sel}{cap}"
        elif k == "defense":
            s = f"+{n} resistance defense this turn in {sel}{cap}"
        elif k == "prevent":
            s = "the adversary cannot " + " or ".join(op["steps"]) + f" in {sel}{cap} this turn"
        elif k == "kill_civilians":
            s = f"reprisals kill {count(n, 'civilian')} in {sel}{cap}"
        elif k == "each_draw":
            s = f"each player draws the top {op['deck']} capability card"
        else:  # pragma: no cover
            s = k
        out.append(s)
    text = "; ".join(out)
    return text[0].upper() + text[1:] + "."
