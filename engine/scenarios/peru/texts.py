"""Names and help texts of Peru as messages (contract v2, :mod:`engine.core.messages`).

Names that come from the data files (spaces, cards, card sides and texts, Hunt Track boxes)
are messages built from that data; :meth:`PeruRules.catalog` lists them so the translation
catalogs contain them. Every other text is a string literal at its ``msg`` call.

This module imports only :mod:`.data`, so every rules module may use it.
"""

from __future__ import annotations

from engine.core.contract import Choice
from engine.core.messages import msg, msg_n

from .data import CARDS, HUNT_BOXES, MAP

GOV = "government"
SP = "shining_path"

#: space id -> its name (a message)
SPACE = {s["id"]: msg(s["name"]) for s in MAP["spaces"]}
#: seat -> faction name
SEAT = {GOV: msg("Government"), SP: msg("Shining Path")}
#: card id -> title; (card, side) -> the side's name and text
CARD_TITLE = {cid: msg(c["title"]) for cid, c in CARDS.items()}
CARD_SIDE_NAME = {(cid, side): msg(c[side]["name"]) for cid, c in CARDS.items() for side in ("top", "bottom")
                  if c.get(side)}
CARD_TEXT = {(cid, side): msg(c[side]["text"]) for cid, c in CARDS.items() for side in ("top", "bottom")
             if c.get(side)}
HUNT_BOX = {b["index"]: msg(b["label"]) for b in HUNT_BOXES}

SIDE = {"top": msg("top"), "bottom": msg("bottom")}

#: Support levels (1.6)
SUPPORT = {2: msg("Active Support"), 1: msg("Passive Support"), 0: msg("Neutral"),
           -1: msg("Passive Opposition"), -2: msg("Active Opposition")}
#: who controls a space (1.7)
CONTROLLER = {"G": msg("the Government"), "S": msg("the Shining Path"), "": msg("no one")}

#: piece key -> one piece (with its article), for labels
ONE_PIECE = {"T": msg("a Troop"), "P": msg("a Police"), "Ru": msg("an Underground Rondas"),
             "Ra": msg("an Active Rondas"), "Gu": msg("an Underground Guerrilla"),
             "Ga": msg("an Active Guerrilla"), "B": msg("a Base"), "D": msg("a Base")}
#: piece key -> its name (singular, no article): targets and the position's documentation
PIECE = {"T": msg("Troop"), "P": msg("Police"), "Ru": msg("Underground Rondas"), "Ra": msg("Active Rondas"),
         "Gu": msg("Underground Guerrilla"), "Ga": msg("Active Guerrilla"), "B": msg("Base"),
         "D": msg("Guzman Directives Base")}

#: marker names (1.9, 6.5.2)
MARKER = {"terror": msg("Terror"), "sabotage": msg("Sabotage"), "emergency_zone": msg("Emergency Zone"),
          "control": msg("Control"), "directives": msg("Guzman Directives Base"), "hunt": msg("Hiding marker")}

#: metric / track names (Rules.metrics keys)
TRACK = {"political_will": msg("Political Will"), "government_resources": msg("Government Resources"),
         "shining_path_resources": msg("Shining Path Resources"), "hunt_track": msg("Hunt Track")}

#: every metric of Rules.metrics, named
METRIC = {**TRACK, "guzman_captured": msg("Guzman captured"),
          "government_control_population": msg("Population under Government Control"),
          "shining_path_control_population": msg("Population under Shining Path Control"),
          "highland_support_population": msg("Highland Population at Support"),
          "highland_opposition_population": msg("Highland Population at Opposition"),
          "bases_on_map": msg("Bases on the map"), "guerrillas_on_map": msg("Guerrillas on the map"),
          "troops_on_map": msg("Troops on the map"), "police_on_map": msg("Police on the map"),
          "cubes_on_map": msg("Cubes on the map"), "rondas_on_map": msg("Rondas on the map"),
          "terror_markers": msg("Terror markers"), "sabotage_markers": msg("Sabotage markers"),
          "emergency_zones": msg("Emergency Zones"), "cards_played": msg("Cards played")}

#: Initiative Track boxes (2.3.2)
BOX = {"limited_op": msg("Limited Operation"), "event": msg("Event"),
       "op_sa": msg("Operation & Special Activity")}
BOX_HELP = {
    "limited_op": msg("Take this box to carry out one Operation in a single space, without a Special Activity."),
    "event": msg("Take this box to carry out the Event of the current card (or pass)."),
    "op_sa": msg("Take this box to carry out an Operation in any number of spaces, with a Special Activity."),
}

#: Operations and Special Activities: name and one-sentence help
OP = {"train": msg("Train"), "patrol": msg("Patrol"), "sweep": msg("Sweep"), "assault": msg("Assault"),
      "rally": msg("Rally"), "march": msg("March"), "attack": msg("Attack"), "terror": msg("Terror")}
OP_HELP = {
    "train": msg("Place up to 6 cubes in Lima (2 Resources) and carry out Civic Action in one space."),
    "patrol": msg("Move cubes along LoCs and Coastal Departments, Activate Guerrillas on LoCs and maybe Assault one "
                  "LoC (2 Resources in all)."),
    "sweep": msg("Move Troops into chosen spaces and Activate Guerrillas there (2 Resources per space)."),
    "assault": msg("Remove Active Guerrillas, then Bases, with Troops (2 Resources per space)."),
    "rally": msg("Place Guerrillas, replace two with a Base or flip them Underground (1 Resource per space)."),
    "march": msg("Move Guerrillas into adjacent spaces (1 Resource per Department or Lima entered)."),
    "attack": msg("Roll a die in spaces with Guerrillas and Government pieces to remove up to 2 Government pieces."),
    "terror": msg("Place Terror or Sabotage and shift spaces toward Opposition (1 Resource outside Highland and LoCs)."),
}
SA = {"investigate": msg("Investigate"), "reprisal": msg("Reprisal"), "organize": msg("Organize"),
      "govern": msg("Govern"), "evade": msg("Evade"), "ambush": msg("Ambush")}
SA_HELP = {
    "investigate": msg("Roll on the Hunt Track to close in on Guzman; a Police in Lima may buy a second roll."),
    "reprisal": msg("In Emergency Zones with Troops: place Terror, shift to Neutral and drive Guerrillas out."),
    "organize": msg("In an Emergency Zone: place a Rondas, or Activate the Rondas there and remove Terror."),
    "govern": msg("In Departments you control: gain Resources or remove an Underground Rondas."),
    "evade": msg("Move a Guerrilla to an adjacent space and flip it Underground; may roll to move the Hunt marker "
                 "back."),
    "ambush": msg("Remove up to 2 Government pieces in the Attack space without rolling."),
}

HELP_PASS = msg("Do nothing this card and gain Resources (Government +2, Shining Path +1).")
HELP_DONE = msg("Finish this step and go on.")
HELP_SKIP = msg("Decline the free Operation this Event offers.")
HELP_EVENT = msg("Carry out this side of the current card's Event.")
HELP_SPACE = msg("Choose this space for the step under way.")
HELP_YES = msg("Carry out what the question proposes.")
HELP_NO = msg("Decline what the question proposes.")
HELP_MOVE = msg("Move one piece as described.")
HELP_REMOVE = msg("Remove this piece from the map.")
HELP_PLACE_CUBE = msg("Place this cube from Available into Lima.")
HELP_TAKE_CUBE = msg("None is Available: move one from elsewhere on the map into Lima (1.4.1).")
HELP_TAKE = msg("Move one piece of this kind from this space to where it is being placed (1.4.1).")
HELP_CIVIC = msg("Spend 2 Resources to remove a Terror marker or shift one level toward Active Support.")
HELP_AGITATE = msg("Spend 1 Resource to remove a Terror marker or shift one level toward Active Opposition.")
HELP_SWAP = msg("Hide the Guzman Directives Base under this Base; the Government cannot see which one it is.")
HELP_EZ = msg("Place an Emergency Zone marker here: Reprisal and Organize become possible here.")
HELP_RALLY_N = msg("Place this many Guerrillas here (taken from the map if none is Available).")
HELP_RALLY_BASE = msg("Replace two Guerrillas here with a Base.")
HELP_RALLY_FLIP = msg("Flip every Active Guerrilla here Underground.")
HELP_ATTACK_ROLL = msg("Activate the Guerrillas here and roll: a result up to their number removes 2 pieces.")
HELP_KILL = msg("Remove this Government piece (Police before Troops; Rondas at any time).")
HELP_GOVERN_RES = msg("Gain Resources equal to twice the Population and shift one level toward Active Support.")
HELP_GOVERN_RONDAS = msg("Remove one Underground Rondas here.")
HELP_HUNT = msg("Remove this Guerrilla from Lima to roll for moving the Hunt marker one box left.")
HELP_LIMA_ACTIVATE = msg("Remove a Police in Lima to Activate an Underground Guerrilla there.")
HELP_LIMA_ROLL = msg("Remove a Police in Lima to make a second Hunt roll.")
HELP_ORG_PLACE = msg("Place one Rondas here.")
HELP_ORG_ACTIVATE = msg("Activate every Rondas here and remove the Terror markers.")
HELP_SINCHI = msg("Let the Police here count as Troops for this Assault (once per Assault).")
HELP_NO_SINCHI = msg("Assault with Troops only.")
HELP_PW = msg("Move Political Will in this direction.")
HELP_AMOUNT = msg("Choose how many pieces this affects.")
HELP_GPICK = msg("Remove this kind of Guerrilla here.")
HELP_FROM_AVAILABLE = msg("Use an Available piece.")


def pieces_text(key: str, n: int):
    """``n`` pieces of kind ``key`` (a plural-aware message, built once per kind and number)."""
    m = _PIECES_TEXT.get((key, n))
    if m is None:
        m = _PIECES_TEXT[(key, n)] = _pieces_text(key, n)
    return m


_PIECES_TEXT: dict = {}


def _pieces_text(key: str, n: int):
    if key == "T":
        return msg_n("{count} Troop", "{count} Troops", n)
    if key == "P":
        return msg_n("{count} Police", "{count} Police", n)
    if key == "Ru":
        return msg_n("{count} Underground Rondas", "{count} Underground Rondas", n)
    if key == "Ra":
        return msg_n("{count} Active Rondas", "{count} Active Rondas", n)
    if key == "Gu":
        return msg_n("{count} Underground Guerrilla", "{count} Underground Guerrillas", n)
    if key == "Ga":
        return msg_n("{count} Active Guerrilla", "{count} Active Guerrillas", n)
    return msg_n("{count} Base", "{count} Bases", n)


def catalog_names() -> list:
    """Every data-file name and text as a message (for ``Rules.catalog``)."""
    out = list(SPACE.values()) + list(CARD_TITLE.values()) + list(CARD_SIDE_NAME.values())
    out += list(CARD_TEXT.values()) + list(HUNT_BOX.values())
    out += list(SEAT.values()) + list(PIECE.values()) + list(TRACK.values()) + list(MARKER.values())
    out += list(SUPPORT.values()) + list(BOX.values()) + list(OP.values()) + list(SA.values())
    return out


def C(cid: str, label, kind: str, rule: str, help_, targets: dict | None = None, cost: dict | None = None,
      payload: dict | None = None):
    """A structured :class:`~engine.core.contract.Choice` (kind, targets, cost, rule, help)."""
    t = targets or {}
    return Choice(cid, label, t if payload is None else payload, kind, t, cost, rule, help_)


_CACHE: dict = {}


def cached(key, build):
    """The Choice (or message) ``build()`` makes for ``key``, built once: for choices whose every
    field follows from ``key`` (Choices and messages are never mutated)."""
    c = _CACHE.get(key)
    if c is None:
        c = _CACHE[key] = build()
    return c
