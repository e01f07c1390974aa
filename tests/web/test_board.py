"""The generic board drawing works for every installed game and every seat."""

import pytest
from django.template.loader import render_to_string

import engine
from engine.core.registry import scenarios
from facilitation.rendering import board


@pytest.mark.parametrize("key", [s["key"] for s in scenarios()])
def test_every_game_draws_for_every_seat(key):
    rules = engine.load(key)
    state = rules.setup(seed=5, options={})
    for seat in [None, *rules.seat_ids()]:
        b = board.build(rules, rules.view(state, seat), metrics=rules.metrics(state))
        assert b["spaces"], key
        html = render_to_string("web/partials/board.html", {"board": b})
        assert html.count('class="space ') == len(b["spaces"])
        for sp in b["spaces"]:
            assert 0 <= sp["x"] <= b["width"] and 0 <= sp["y"] <= b["height"], (key, sp["id"])
        if key in ("tears_of_tyranny", "andean_abyss", "peru"):  # set-up pieces are drawn, with counts
            pieces = [p for sp in b["spaces"] for p in sp["pieces"]]
            drawn = html[html.index('<svg class="board-svg'):html.index("</svg><figcaption")]  # the map, not the legend
            assert pieces and drawn.count('class="piece') == len(pieces), (key, seat)
            assert any(p["count"] > 1 for p in pieces), key


@pytest.mark.parametrize("key", [s["key"] for s in scenarios()])
def test_the_summary_shows_the_tracks_and_card_the_board_shows(key):
    """The instructor's console draws ``board.summary`` (no spaces), the play page ``board.build``:
    the same tracks and current card, at the start and a few moves in."""
    import random

    rules = engine.load(key)
    state = rules.setup(seed=5, options={})
    rnd = random.Random(5)
    for _ in range(6):
        view = rules.view(state, None)
        b, s = board.build(rules, view), board.summary(rules, view)
        assert s == {"tracks": b["tracks"], "has_key_tracks": b["has_key_tracks"], "card": b["card"]}, key
        assert s["tracks"], key
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        state, _facts = rules.apply(state, seat, rnd.choice(p.choices_for(seat)).id)
    assert board.summary(rules, None) == {"tracks": [], "has_key_tracks": False, "card": None}


def test_peru_government_board_never_marks_the_directives_base():
    rules = engine.load("peru")
    state = rules.setup(seed=7, options={})
    p = rules.prompt(state)
    state, _facts = rules.apply(state, p.seats[0], p.choices[0].id)
    gov = board.build(rules, rules.view(state, "government"), metrics=rules.metrics(state))
    sp = board.build(rules, rules.view(state, "shining_path"), metrics=rules.metrics(state))
    assert not any("Directives Base" in m for s in gov["spaces"] for m in s["markers"])
    assert sum("Directives Base" in m for s in sp["spaces"] for m in s["markers"]) == 1
    assert dict((h["key"], h["value"]) for h in gov["holdings"])["Guzman Directives Base"] == "-"


def test_choices_that_name_a_space_are_clickable_on_the_map():
    rules = engine.load("peru")
    state = rules.setup(seed=7, options={})
    p = rules.prompt(state)
    choices = [c.to_dict() for c in p.choices_for("shining_path")]
    b = board.build(rules, rules.view(state, "shining_path"), choices=choices)
    clickable = {s["id"]: s["choices"][0]["id"] for s in b["spaces"] if s["choices"]}
    assert clickable and all(cid.endswith(sid) for sid, cid in clickable.items())


def _drawn(b):
    return {(sp["id"], p["faction"], p["kind"], p["state"]): p["count"] for sp in b["spaces"] for p in sp["pieces"]}


def test_tears_of_tyranny_pieces_are_drawn_with_counts_and_no_hidden_hand():
    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=5, options={})
    seats = rules.seat_ids()
    for seat in [None, *seats]:
        view = rules.view(state, seat)
        b = board.build(rules, view, metrics=rules.metrics(state))
        html = render_to_string("web/partials/board.html", {"board": b})
        drawn = _drawn(b)
        for tid, t in view["tiles"].items():
            want = {}
            for kind, *_ in t["units"]:
                want[(tid, "adversary", kind, "")] = want.get((tid, "adversary", kind, ""), 0) + 1
            for s_, n in t["presence"].items():
                if n:  # 6.3: two presence make an HQ; every Advisor presence is one
                    want[(tid, s_, "hq" if n >= 2 or s_ == "advisors" else "presence", "")] = n
            for s_, n in t["guerrillas"].items():
                if n:
                    want[(tid, s_, "guerrilla", "")] = n
            for key, kind, owner in (("red", "civilian_red", ""), ("blue", "civilian_blue", ""),
                                     ("tyranny", "tyranny", "adversary")):
                if t[key]:
                    want[(tid, owner, kind, "")] = t[key]
            got = {k: v for k, v in drawn.items() if k[0] == tid and k[2] != "base"}
            assert got == want, tid
            assert sum(v for k, v in drawn.items() if k[0] == tid and k[2] == "base") == len(t["bases"])
        assert sum(drawn.values()) > 50 and 'class="piece ' in html
        kinds = {k[2] for k in drawn}
        assert {"cell", "outpost", "garrison", "civilian_red", "civilian_blue"} <= kinds
        assert "Red Civilians" in html and "Adversary Cells" in html
        # a seat's own hand is shown with its card text (the game panel); another seat's never
        for other in seats:
            for card in state["pl"][other]["hand"]:
                assert (f'data-card="{card}"' in html) == (seat is not None and other == seat), (seat, other, card)
        assert any("Infrastructure" in f for sp in b["spaces"] for f in sp["static"])


def test_andean_abyss_map_is_laid_out_and_pieces_drawn_with_counts():
    rules = engine.load("andean_abyss")
    state = rules.setup(seed=5, options={})
    ids = {s["id"] for s in rules.board()["spaces"]}
    assert ids <= {g.id for g in rules.board_map().spaces}, "every space (Ecuador and Panama too) has a position"
    for seat in [None, *rules.seat_ids()]:
        view = rules.view(state, seat)
        b = board.build(rules, view, metrics=rules.metrics(state))
        html = render_to_string("web/partials/board.html", {"board": b})
        by_id = {sp["id"]: sp for sp in b["spaces"]}
        # roads drawn as lines between towns, no adjacency lines
        assert 'class="edges"' not in html and 'class="roads"' in html
        assert all(by_id[i]["line"] for i in ids if i.startswith("loc_") and i in by_id)
        assert all(not sp["small"] and sp["r"] >= 26 for sp in b["spaces"])
        assert set(by_id) == ids - {"ecuador", "panama"}, "Ecuador and Panama only when in play"
        # no two space centres closer than 60 units in a 1500-wide drawing
        pts = [(sp["x"], sp["y"]) for sp in b["spaces"]]
        assert min(((a[0] - c[0]) ** 2 + (a[1] - c[1]) ** 2) ** 0.5 for i, a in enumerate(pts) for c in pts[i + 1:]) >= 60
        drawn = {}
        for sp in b["spaces"]:
            for p in sp["pieces"]:
                drawn[sp["id"]] = drawn.get(sp["id"], 0) + p["count"]
        want = {sid: sum(pcs.values()) for sid, pcs in view["spaces"].items() if sum(pcs.values())}
        for sh in view["shipments"]:
            want[sh["space"]] = want.get(sh["space"], 0) + 1
        assert drawn == want
        assert "Troops" in html and "Police" in html and "FARC Guerrillas (underground)" in html
        assert any("GOV Control" in m for sp in b["spaces"] for m in sp["markers"])
        assert any("Support" in m or "Opposition" in m for sp in b["spaces"] for m in sp["markers"])


def test_andean_abyss_shipments_zones_and_sabotage_are_drawn():
    rules = engine.load("andean_abyss")
    state = rules.setup(seed=5, options={})
    view = rules.view(state, "govt")
    sid = next(s for s, pcs in view["spaces"].items() if any(k.startswith("farc") for k in pcs))
    view = {**view, "shipments": [{"space": sid, "owner": "farc"}], "farc_zones": [sid], "sabotage": ["loc_cali_pasto"],
            "terror": {**view["terror"], sid: 2}}
    b = board.build(rules, view)
    sp = next(s for s in b["spaces"] if s["id"] == sid)
    assert any(p["kind"] == "shipment" and p["faction"] == "farc" for p in sp["pieces"])
    assert "FARC Zone" in sp["markers"] and "Terror 2" in sp["markers"]
    assert "Sabotage" in next(s for s in b["spaces"] if s["id"] == "loc_cali_pasto")["markers"]


def test_andean_abyss_ecuador_and_panama_are_drawn_when_in_play():
    rules = engine.load("andean_abyss")
    state = rules.setup(seed=5, options={})
    view = {**rules.view(state, "farc"), "ecuador_is_space": True, "panama_is_space": True}
    ids = {s["id"] for s in board.build(rules, view)["spaces"]}
    assert {"ecuador", "panama"} <= ids
