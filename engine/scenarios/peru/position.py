"""Positions: start a Peru game from a described position, describe the current one (contract v2).

``rules.setup(seed, {"position": {...}})`` builds the state from a position and
``rules.position(state)`` exports one; the shape is documented in
docs/scenarios/peru-position.md and given as a JSON Schema by :func:`schema`. A bad position
raises :class:`~engine.core.contract.PositionError` naming the field (``position.tracks.hunt``).

A position is the board between two steps of the sequence of play: pieces, markers and
Support per space, the tracks, Capabilities, the President, held pieces (P22, P26), the deck,
the cards played, the Eligibility order and which step comes next (``turn.phase``):

``"directives_swap"``  the Shining Path first hides the Guzman Directives Base (as at setup, 2.1);
``"card"``             the current card is face up and the Eligible factions choose boxes
                       (``turn.boxes``: the boxes already taken on this card, 2.3.2);
``"next_card"``        the next card of the deck is revealed (2.2).

Omitted spaces are empty and Neutral; omitted fields take the setup's values (tracks, President,
Eligibility) or are empty. Available pieces are what the game holds beyond the map and the cards
(1.4.1), so they are never given. The steps inside an Operation, an Event or a Propaganda round
are not part of a position: :func:`export` of such a state gives ``turn.phase`` ``"in_progress"``,
which ``setup`` refuses.
"""

from __future__ import annotations

from engine.coin import support as coin_support
from engine.core.contract import PositionError
from engine.core.rng import shuffle

from .data import (
    CAPABILITIES,
    CAPTURED,
    CARDS,
    CONTROLLABLE,
    EVENT_IDS,
    EZ_ELIGIBLE,
    EZ_MARKERS,
    IDS,
    INITIATIVE_BOXES,
    LOCS,
    PIECES_TOTAL,
    SETUP,
)

GOV, SP = "government", "shining_path"
SEATS = (GOV, SP)
#: position name -> state key of a piece count in a space
PIECE_FIELDS = {"troops": "T", "police": "P", "rondas_underground": "Ru", "rondas_active": "Ra",
                "guerrillas_underground": "Gu", "guerrillas_active": "Ga", "bases": "B"}
SPACE_FIELDS = (*PIECE_FIELDS, "directives_base", "support", "terror", "sabotage", "emergency_zone")
TRACKS = {"political_will": (0, 20), "government_resources": (0, 20), "shining_path_resources": (0, 20),
          "hunt": (0, CAPTURED)}
PHASES = ("directives_swap", "card", "next_card")
TOP_FIELDS = ("spaces", "tracks", "guzman_captured", "directives_revealed", "capabilities", "president", "held",
              "current_card", "played", "deck", "eligibility", "turn")
PRESIDENTS = ("P37", "P38", "P39")
POOL_TOTAL = {"T": "T", "P": "P", "R": "R", "G": "G", "B": "B"}


def schema() -> dict:
    """A JSON Schema (draft 2020-12) of the ``position`` option."""
    count = {"type": "integer", "minimum": 0}
    card = {"type": "string", "enum": sorted(CARDS)}
    space = {"type": "object", "additionalProperties": False, "properties": {
        **{k: count for k in PIECE_FIELDS},
        "directives_base": {"type": "boolean"},
        "support": {"type": "string", "enum": list(coin_support.KEYS.values())},
        "terror": count, "sabotage": {"type": "boolean"}, "emergency_zone": {"type": "boolean"}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "The Guerrilla Generation: Peru position",
        "type": "object", "additionalProperties": False,
        "properties": {
            "spaces": {"type": "object", "additionalProperties": False,
                       "properties": {sid: space for sid in IDS}},
            "tracks": {"type": "object", "additionalProperties": False, "properties": {
                k: {"type": "integer", "minimum": lo, "maximum": hi} for k, (lo, hi) in TRACKS.items()}},
            "guzman_captured": {"type": "boolean"},
            "directives_revealed": {"type": "boolean"},
            "capabilities": {"type": "object", "additionalProperties": False, "properties": {
                c: {"type": "string", "enum": ["top", "bottom"]} for c in sorted(CAPABILITIES)}},
            "president": {"type": "string", "enum": list(PRESIDENTS)},
            "held": {"type": "object", "additionalProperties": False,
                     "properties": {"P22": count, "P26": count}},
            "current_card": {"anyOf": [card, {"type": "null"}]},
            "played": {"type": "array", "items": card},
            "deck": {"type": "array", "items": card},
            "eligibility": {"type": "object", "additionalProperties": False,
                            "properties": {"first": {"enum": list(SEATS)}, "second": {"enum": list(SEATS)}}},
            "turn": {"type": "object", "additionalProperties": False, "properties": {
                "phase": {"enum": list(PHASES)},
                "boxes": {"type": "object", "additionalProperties": False,
                          "properties": {s: {"enum": list(INITIATIVE_BOXES)} for s in SEATS}}}},
        },
    }


# ---------------------------------------------------------------- export

def export(state: dict) -> dict:
    """The position of ``state`` (hidden parts included: for instructors and tests)."""
    spaces = {}
    for sid in IDS:
        sp = state["s"][sid]
        d: dict = {}
        for name, k in PIECE_FIELDS.items():
            if sp[k]:
                d[name] = sp[k]
        if sp["D"]:
            d["directives_base"] = True
        if sp["sup"]:
            d["support"] = coin_support.KEYS[sp["sup"]]
        if sp["ter"]:
            d["terror"] = sp["ter"]
        if sp["sab"]:
            d["sabotage"] = True
        if sp["ez"]:
            d["emergency_zone"] = True
        if d:
            spaces[sid] = d
    return {
        "spaces": spaces,
        "tracks": {"political_will": state["pw"], "government_resources": state["res"][GOV],
                   "shining_path_resources": state["res"][SP], "hunt": state["hunt"]},
        "guzman_captured": state["captured"],
        "directives_revealed": state["d_revealed"],
        "capabilities": dict(sorted(state["caps"].items())),
        "president": state["president"],
        "held": {k: v for k, v in state["held"].items() if v},
        "current_card": state["card"],
        "played": [c for c in state["played"] if c != state["card"]],
        "deck": list(state["deck"]),
        "eligibility": {"first": state["elig"][0], "second": state["elig"][1]},
        "turn": _turn(state),
    }


def _turn(state: dict) -> dict:
    kinds = [fr["k"] for fr in state["stack"]]
    if kinds == ["next", "swap"]:
        return {"phase": "directives_swap"}
    if kinds == ["next"]:
        return {"phase": "next_card"}
    if len(kinds) == 3 and kinds[:2] == ["next", "card"] and kinds[2] == "box" and \
            state["stack"][1]["step"] == len(state["boxes"]) + 1:
        return {"phase": "card", "boxes": dict(state["boxes"])}
    return {"phase": "in_progress"}


# ---------------------------------------------------------------- import

def _int(v, path: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(path, "must be a whole number")
    if v < lo or (hi is not None and v > hi):
        raise PositionError(path, f"must be from {lo} to {hi}" if hi is not None else f"must be at least {lo}")
    return v


def _bool(v, path: str) -> bool:
    if not isinstance(v, bool):
        raise PositionError(path, "must be true or false")
    return v


def _dict(v, path: str) -> dict:
    if not isinstance(v, dict):
        raise PositionError(path, "must be an object")
    return v


def _card(v, path: str) -> str:
    if not isinstance(v, str) or v not in CARDS:
        raise PositionError(path, f"unknown card {v!r}")
    return v


def build(state: dict, pos, rng: dict) -> None:
    """Replace the board of a freshly set-up ``state`` by the position ``pos`` (validated)."""
    pos = _dict(pos, "position")
    for k in pos:
        if k not in TOP_FIELDS:
            raise PositionError(f"position.{k}", f"unknown field (known: {', '.join(TOP_FIELDS)})")
    s = state["s"]
    for sp in s.values():
        for k in ("T", "P", "Ru", "Ra", "Gu", "Ga", "B", "D", "sup", "ter", "sab", "ez"):
            sp[k] = 0
    spaces = _dict(pos.get("spaces", {}), "position.spaces")
    for sid, d in spaces.items():
        path = f"position.spaces.{sid}"
        if sid not in s:
            raise PositionError(path, "unknown space")
        d = _dict(d, path)
        sp = s[sid]
        for k, v in d.items():
            fp = f"{path}.{k}"
            if k in PIECE_FIELDS:
                sp[PIECE_FIELDS[k]] = _int(v, fp)
            elif k == "directives_base":
                sp["D"] = 1 if _bool(v, fp) else 0
            elif k == "support":
                if v not in coin_support.FROM_KEY:
                    raise PositionError(fp, f"unknown level (known: {', '.join(coin_support.FROM_KEY)})")
                sp["sup"] = coin_support.FROM_KEY[v]
                if sp["sup"] and sid in LOCS:
                    raise PositionError(fp, "a LoC is always Neutral (1.6)")
            elif k == "terror":
                sp["ter"] = _int(v, fp)
                if sp["ter"] and sid in LOCS:
                    raise PositionError(fp, "LoCs take Sabotage, not Terror (3.3.4)")
            elif k == "sabotage":
                sp["sab"] = 1 if _bool(v, fp) else 0
                if sp["sab"] and sid not in LOCS:
                    raise PositionError(fp, "only LoCs take Sabotage (3.3.4)")
            elif k == "emergency_zone":
                sp["ez"] = 1 if _bool(v, fp) else 0
                if sp["ez"] and sid not in EZ_ELIGIBLE:
                    raise PositionError(fp, "no Emergency Zone may be placed in this space (6.5.2)")
            else:
                raise PositionError(fp, f"unknown field (known: {', '.join(SPACE_FIELDS)})")
        if sp["B"] + sp["D"] > SETUP_LIMIT_BASES:
            raise PositionError(f"{path}.bases", f"at most {SETUP_LIMIT_BASES} Bases per space (1.4.2)")
    if sum(sp["ez"] for sp in s.values()) > EZ_MARKERS:
        raise PositionError("position.spaces", f"at most {EZ_MARKERS} Emergency Zones")
    d_spaces = [sid for sid in IDS if s[sid]["D"]]
    if len(d_spaces) > 1:
        raise PositionError(f"position.spaces.{d_spaces[1]}.directives_base", "there is one Guzman Directives Base")

    tracks = _dict(pos.get("tracks", {}), "position.tracks")
    t = SETUP["tracks"]
    values = {"political_will": t["political_will"], "government_resources": t["government_resources"],
              "shining_path_resources": t["shining_path_resources"], "hunt": t["hunt"]}
    for k, v in tracks.items():
        if k not in TRACKS:
            raise PositionError(f"position.tracks.{k}", f"unknown track (known: {', '.join(TRACKS)})")
        values[k] = _int(v, f"position.tracks.{k}", *TRACKS[k])
    state["pw"] = values["political_will"]
    state["res"] = {GOV: values["government_resources"], SP: values["shining_path_resources"]}
    state["hunt"] = values["hunt"]
    state["captured"] = _bool(pos.get("guzman_captured", False), "position.guzman_captured")
    if state["captured"] and d_spaces:
        raise PositionError(f"position.spaces.{d_spaces[0]}.directives_base",
                            "once Guzman is captured the Directives Base is off the map (6.7.2)")
    if state["captured"] != (state["hunt"] == CAPTURED):
        raise PositionError("position.tracks.hunt", f"the Hunt marker is in box {CAPTURED} exactly when Guzman is "
                            "captured (6.7.2)")
    state["d_revealed"] = _bool(pos.get("directives_revealed", False), "position.directives_revealed")

    caps = _dict(pos.get("capabilities", {}), "position.capabilities")
    for c, side in caps.items():
        if c not in CAPABILITIES:
            raise PositionError(f"position.capabilities.{c}", "not a Capability card (5.3)")
        if side not in ("top", "bottom"):
            raise PositionError(f"position.capabilities.{c}", "must be \"top\" or \"bottom\"")
    state["caps"] = dict(caps)
    president = pos.get("president", SETUP["president"])
    if president not in PRESIDENTS:
        raise PositionError("position.president", f"must be one of {', '.join(PRESIDENTS)} (2.4.1)")
    state["president"] = president
    held = _dict(pos.get("held", {}), "position.held")
    state["held"] = {"P22": 0, "P26": 0}
    for k, v in held.items():
        if k not in state["held"]:
            raise PositionError(f"position.held.{k}", "only P22 (Guerrillas) and P26 (Troops) hold pieces")
        state["held"][k] = _int(v, f"position.held.{k}")

    # Available pieces: the rest of each faction's inventory (1.4.1)
    on = {"T": state["held"]["P26"], "P": 0, "R": 0, "G": state["held"]["P22"], "B": 0}
    for sp in s.values():
        on["T"] += sp["T"]
        on["P"] += sp["P"]
        on["R"] += sp["Ru"] + sp["Ra"]
        on["G"] += sp["Gu"] + sp["Ga"]
        on["B"] += sp["B"]
    state["dbox"] = 1 if d_spaces else 0
    on["B"] += state["dbox"]
    names = {"T": "Troops", "P": "Police", "R": "Rondas", "G": "Guerrillas", "B": "Bases"}
    for k, total in PIECES_TOTAL.items():
        if on[k] > total:
            raise PositionError("position.spaces", f"more {names[k]} ({on[k]}) than the game has ({total}, 1.4.1)")
    state["avail"] = {k: PIECES_TOTAL[k] - on[k] for k in PIECES_TOTAL}
    state["d_home"] = not d_spaces

    # cards
    current = pos.get("current_card")
    if current is not None:
        current = _card(current, "position.current_card")
    played = pos.get("played", [])
    if not isinstance(played, list):
        raise PositionError("position.played", "must be a list of card ids")
    played = [_card(c, f"position.played[{i}]") for i, c in enumerate(played)]
    used = set(played) | ({current} if current else set())
    if len(used) != len(played) + (1 if current else 0):
        raise PositionError("position.played", "a card appears twice")
    if "deck" in pos:
        deck = pos["deck"]
        if not isinstance(deck, list):
            raise PositionError("position.deck", "must be a list of card ids")
        deck = [_card(c, f"position.deck[{i}]") for i, c in enumerate(deck)]
        for i, c in enumerate(deck):
            if c in used or c in deck[:i]:
                raise PositionError(f"position.deck[{i}]", f"{c} is already played, current or in the deck")
            if c == "P37":
                raise PositionError(f"position.deck[{i}]", "P37 starts as the President, never in the deck (2.1)")
    else:
        deck = _rest_of_deck(rng, used)
    state["deck"] = deck
    state["card"] = current
    state["played"] = played + ([current] if current else [])

    elig = _dict(pos.get("eligibility", {}), "position.eligibility")
    first = elig.get("first", state["elig"][0])
    if first not in SEATS:
        raise PositionError("position.eligibility.first", f"must be {GOV} or {SP}")
    second = elig.get("second", GOV if first == SP else SP)
    if second not in SEATS or second == first:
        raise PositionError("position.eligibility.second", "must be the other faction")
    state["elig"] = [first, second]

    turn = _dict(pos.get("turn", {"phase": "card" if current else "next_card"}), "position.turn")
    phase = turn.get("phase")
    if phase not in PHASES:
        raise PositionError("position.turn.phase", f"must be one of {', '.join(PHASES)}")
    for k in turn:
        if k not in ("phase", "boxes"):
            raise PositionError(f"position.turn.{k}", "unknown field (known: phase, boxes)")
    boxes = _dict(turn.get("boxes", {}), "position.turn.boxes")
    state["boxes"] = {}
    if phase == "card":
        if current is None or CARDS[current]["kind"] == "propaganda":
            raise PositionError("position.current_card", "the card phase needs a face-up Event card")
        if len(boxes) > 1:
            raise PositionError("position.turn.boxes", "once both factions have a box the card is over")
        for seat, box in boxes.items():
            if seat != first:
                raise PositionError(f"position.turn.boxes.{seat}", "only the 1st Eligible faction may have a box "
                                    "before the 2nd (2.3.2)")
            if box not in INITIATIVE_BOXES:
                raise PositionError(f"position.turn.boxes.{seat}", f"unknown box (known: {', '.join(INITIATIVE_BOXES)})")
        state["boxes"] = dict(boxes)
        state["stack"] = [{"k": "next"}, {"k": "card", "step": len(boxes)}]
    elif boxes:
        raise PositionError("position.turn.boxes", "boxes belong to the card phase")
    elif phase == "directives_swap":
        if state["captured"]:
            raise PositionError("position.turn.phase", "no Directives swap once Guzman is captured (6.5.3)")
        state["stack"] = [{"k": "next"}, {"k": "swap"}]
    else:
        state["stack"] = [{"k": "next"}]
    state["nprop"] = sum(1 for c in state["played"] if CARDS[c]["kind"] == "propaganda")
    for sid in CONTROLLABLE:
        from .state import control_of
        s[sid]["ctl"] = control_of(s[sid], sid)


SETUP_LIMIT_BASES = 2


def _rest_of_deck(rng: dict, used: set) -> list:
    """The cards not used yet, built as at setup (2.1): the remaining events shuffled into
    piles, one per remaining Propaganda card, each Propaganda card in the bottom 3 of its pile."""
    events = [c for c in EVENT_IDS if c not in used]
    shuffle(rng, events)
    props = [p for p in SETUP["deck"]["campaign_propaganda"] if p not in used]
    if not props:
        return events
    per = -(-len(events) // len(props))
    deck = []
    for i, p in enumerate(props):
        pile = events[i * per:(i + 1) * per]
        bottom = pile[-2:] + [p]
        shuffle(rng, bottom)
        deck.extend(pile[:-2] + bottom)
    return deck
