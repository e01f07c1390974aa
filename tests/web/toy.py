"""A tiny two-seat game implementing the engine contract, for front-end tests.

It exercises what the pages must handle generically: spaces with positions,
pieces with Underground/Active state, a track, a current card revealed as a
barrier fact, choices that point at spaces, and a secret (the rebels' hidden
cache location) that the government's view must never contain.
"""

from __future__ import annotations

from engine import Choice, Prompt, Rules, SeatInfo, fact
from engine.core.boardview import (
    BoardMap,
    BoardView,
    CardShown,
    FactionInfo,
    Marker,
    PieceStack,
    PieceState,
    PieceType,
    Shape,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
    Track,
)
from engine.core.messages import msg

SPACES = [
    {"id": "capital", "name": "Capital", "type": "city", "x": 20, "y": 50, "adjacent": ["hills"]},
    {"id": "hills", "name": "Hills", "type": "province", "x": 50, "y": 30, "adjacent": ["capital", "jungle"]},
    {"id": "jungle", "name": "Jungle", "type": "province", "x": 80, "y": 60, "adjacent": ["hills"]},
]
CARDS = [{"number": 1, "title": "Harvest", "text": "Each side gains 1 resource."},
         {"number": 2, "title": "Election", "text": "Government gains 2 will."}]


class ToyRules(Rules):
    key = "toy"
    title = "Toy Insurgency"
    seats = (SeatInfo("govt", "Government", "#0072B2"), SeatInfo("rebels", "Rebels", "#D55E00"))
    min_players = 1
    max_players = 2

    def setup(self, seed, options=None):
        return {"turn": 0, "will": 5, "card": 0, "cache": "jungle", "rebels": {"hills": 2},
                "troops": {"capital": 3}, "done": False, "sub": None, "seed": seed}

    def prompt(self, state):
        if state["turn"] >= 4:
            return None
        seat = "govt" if state["turn"] % 2 == 0 else "rebels"
        if state["sub"] is None:
            return Prompt(seats=(seat,), text="Choose an operation.", rule="3.1", kind="op", turn=str(state["turn"]),
                          choices=[Choice("op:march", "March"), Choice("op:pass", "Pass")])
        return Prompt(seats=(seat,), text="Where to march?", rule="3.2", kind="space", turn=str(state["turn"]),
                      choices=[Choice(f"space:{s['id']}", s["name"], {"space": s["id"]}) for s in SPACES])

    def apply_unchecked(self, state, seat, choice_id):
        facts = []
        if choice_id == "op:march":
            state["sub"] = "march"
            return [fact("op", f"{seat} marches.")]
        if choice_id.startswith("space:"):
            sid = choice_id.split(":", 1)[1]
            bucket = state["troops"] if seat == "govt" else state["rebels"]
            bucket[sid] = bucket.get(sid, 0) + 1
            facts.append(fact("place", f"{seat} moves a piece to {sid}."))
            if seat == "rebels":
                state["cache"] = sid
                facts.append(fact("secret", f"The cache is moved to {sid}.", visible_to=["rebels"]))
        state["sub"] = None
        state["turn"] += 1
        state["card"] = (state["card"] + 1) % len(CARDS)
        state["will"] -= 1
        facts.append(fact("card", f"Card revealed: {CARDS[state['card']]['title']}", barrier=True))
        return facts

    def view(self, state, seat):
        spaces = {}
        for s in SPACES:
            pieces = {}
            if state["troops"].get(s["id"]):
                pieces["govt_troops"] = state["troops"][s["id"]]
            if state["rebels"].get(s["id"]):
                pieces["rebels_guerrilla_underground"] = state["rebels"][s["id"]]
            info = {"pieces": pieces}
            if seat in (None, "rebels") and state["cache"] == s["id"]:
                info["hidden_cache"] = True
            spaces[s["id"]] = info
        v = {"spaces": spaces, "tracks": {"will": state["will"]}, "card": CARDS[state["card"]],
             "capabilities": ["Curfew"]}
        if seat == "rebels":
            v["hand"] = {"cache_location": state["cache"]}
        return v

    def metrics(self, state):
        return {"will": state["will"]}

    def result(self, state):
        return {"winner": "govt"} if state["turn"] >= 4 else None

    def serialize(self, state):
        return state

    def deserialize(self, data):
        return dict(data)

    def board(self):
        return {"spaces": SPACES, "tracks": [{"id": "will", "name": "Will", "min": 0, "max": 10}]}

    def board_map(self):
        return BoardMap(
            "toy", 1000, 700,
            (FactionInfo("govt", msg("Government"), "#0072B2", "GOV"), FactionInfo("rebels", msg("Rebels"), "#D55E00")),
            (PieceType("troops", "govt", msg("Troops"), Shape.CUBE, "T"),
             PieceType("guerrilla", "rebels", msg("Guerrilla"), Shape.CYLINDER, "G")),
            tuple(SpaceGeometry(s["id"], msg(s["name"]), s["name"], s["type"],
                                SpaceShape.BOX if s["type"] == "city" else SpaceShape.CIRCLE,
                                s["x"] * 10, s["y"] * 7, 62, tuple(s["adjacent"])) for s in SPACES),
            has_control=True)

    def board_view(self, state, seat):
        return self.board_view_of(self.view(state, seat), seat)

    def board_view_of(self, view, seat):
        spaces = []
        for s in SPACES:
            info = view["spaces"][s["id"]]
            pieces = info["pieces"]
            stacks = []
            if pieces.get("govt_troops"):
                stacks.append(PieceStack("troops", "govt", pieces["govt_troops"]))
            if pieces.get("rebels_guerrilla_underground"):
                stacks.append(PieceStack("guerrilla", "rebels", pieces["rebels_guerrilla_underground"],
                                         PieceState.UNDERGROUND))
            markers = (Marker("hidden_cache", msg("Hidden cache")),) if info.get("hidden_cache") else ()
            spaces.append(SpaceView(s["id"], tuple(stacks), markers=markers))
        card = view["card"]
        return BoardView("toy", seat, tuple(spaces), (Track("will", msg("Will"), view["tracks"]["will"], 0, 10),),
                         cards=(CardShown(str(card["number"]), msg(card["title"]), "current", str(card["number"])),))
