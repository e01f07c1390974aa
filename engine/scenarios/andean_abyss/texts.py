"""Names as messages (contract v2): Factions, piece types, Support levels, El Presidente, and the
names and texts of the data files (spaces, the 72 cards both sides) for ``Rules.catalog`` (the
i18n extractor reads the data-file ones from there; the others are literals here)."""

from __future__ import annotations

from engine.core.messages import msg

from .board import BOARD as BD
from .board import FACTIONS, PIECE_KEYS

FACTION_NAME = {"govt": msg("Government"), "farc": msg("FARC"), "auc": msg("AUC"), "cartels": msg("Cartels")}
PIECE_NAME = {
    "troops": msg("Troops"), "police": msg("Police"), "govt_base": msg("Government Base"),
    "farc_underground": msg("Underground FARC Guerrilla"), "farc_active": msg("Active FARC Guerrilla"),
    "farc_base": msg("FARC Base"), "auc_underground": msg("Underground AUC Guerrilla"),
    "auc_active": msg("Active AUC Guerrilla"), "auc_base": msg("AUC Base"),
    "cartels_underground": msg("Underground Cartels Guerrilla"), "cartels_active": msg("Active Cartels Guerrilla"),
    "cartels_base": msg("Cartels Base"),
}
SUPPORT_NAME = {2: msg("Active Support"), 1: msg("Passive Support"), 0: msg("Neutral"),
                -1: msg("Passive Opposition"), -2: msg("Active Opposition")}
PRESIDENT_NAME = {"samper": msg("Samper"), "pastrana": msg("Pastrana"), "uribe": msg("Uribe")}
SIDE_NAME = {"unshaded": msg("unshaded"), "shaded": msg("shaded")}
PROPAGANDA = msg("Propaganda!")
SINGLE = msg("single")
ASK_SPACE = msg("choose a space")

# from the data files (not literals: the catalog carries them to the translators)
SPACE_NAME = {s["id"]: msg(s["name"]) for s in BD.spaces}
SPACE_LABEL = {s["id"]: msg(s["label"]) for s in BD.spaces if s["label"] != s["name"]}
CARD_TITLE = {n: msg(c["title"]) for n, c in BD.cards.items()}
CARD_TEXT = {(n, side): msg(c[side]["text"]) for n, c in BD.cards.items() for side in ("unshaded", "shaded")
             if side in c}
#: what an Event's space pick asks, where the card's data words it (``"ask"`` in cards.json)
ASK = {s["ask"]: msg(s["ask"]) for c in BD.cards.values() for side in ("unshaded", "shaded") if side in c
       for s in c[side].get("effect", ()) if isinstance(s, dict) and s.get("ask")}

#: by index, for the rules modules (which hold Factions, spaces and piece slots as ints)
FN = tuple(FACTION_NAME[k] for k in FACTIONS)
SN = tuple(SPACE_NAME[i] for i in BD.ids)
PN = tuple(PIECE_NAME[k] for k in PIECE_KEYS)

#: Operations and Special Activities (3.0, 4.0)
OP_NAME = {"train": msg("Train"), "patrol": msg("Patrol"), "sweep": msg("Sweep"), "assault": msg("Assault"),
           "rally": msg("Rally"), "march": msg("March"), "attack": msg("Attack"), "terror": msg("Terror"),
           "airlift": msg("Air Lift"), "airstrike": msg("Air Strike"), "eradicate": msg("Eradicate"),
           "extort": msg("Extort"), "kidnap": msg("Kidnap"), "assassinate": msg("Assassinate"),
           "cultivate": msg("Cultivate"), "process": msg("Process"), "bribe": msg("Bribe")}


def with_why(text, why):
    """``text`` followed by its reason in brackets (``why`` a message, or empty)."""
    return msg("{text} ({why})", text=text, why=why) if why else text


def card_name(n: int):
    """``12 Peace Commission``: a card's number and title."""
    return msg("{number} {title}", number=n, title=CARD_TITLE[n])


def catalog(seats) -> dict:
    """Rules.catalog: the 72 cards with both sides, names and seats, every text a message."""
    cards = []
    for n, c in sorted(BD.cards.items()):
        d = {"id": n, "title": CARD_TITLE[n], "order": list(c["order"]),
             "kind": "capability" if c.get("capability") else "momentum" if c.get("momentum") else "event"}
        for side in ("unshaded", "shaded"):
            if (n, side) in CARD_TEXT:
                d[side] = {"name": SIDE_NAME[side], "text": CARD_TEXT[(n, side)]}
        if c.get("single"):
            d["single"] = True
        cards.append(d)
    names = (list(FACTION_NAME.values()) + list(PIECE_NAME.values()) + list(SUPPORT_NAME.values())
             + list(PRESIDENT_NAME.values()) + list(SIDE_NAME.values()) + [PROPAGANDA, SINGLE, ASK_SPACE] + list(OP_NAME.values())
             + list(SPACE_NAME.values()) + list(SPACE_LABEL.values()) + list(CARD_TITLE.values())
             + list(CARD_TEXT.values()) + list(ASK.values()))
    return {"cards": cards, "names": names,
            "spaces": [{"id": sid, "name": SPACE_NAME[sid]} for sid in BD.ids],
            "seats": [{"id": s.id, "title": FACTION_NAME[s.id]} for s in seats]}
