"""Tears of Tyranny pages with four teams: each team's panel, hand and card text; what stays hidden;
simultaneous decisions from pages that another team's move has made one step old."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from facilitation import selectors, services
from facilitation.models import SessionEvent
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEATS = TOT_SEATS


def _submit(session, users, seat, choice, seq=None, rationale=""):
    session.refresh_from_db()
    return services.choice_submit(session=session, user=users[seat], seat=seat, choice=choice,
                                  seq=session.head_seq if seq is None else seq, rationale=rationale)


def _prompt(session):
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    return rules, state, rules.prompt(state)


def _to_keep(session, users):
    """Headquarters for all, then the Comrades refit until they must keep one of four drawn cards."""
    for seat in SEATS:
        _rules, _state, p = _prompt(session)
        _submit(session, users, seat, p.choices_for(seat)[0].id)
    while True:
        _rules, state, p = _prompt(session)
        ids = [c.id for c in p.choices_for("comrades")]
        if any(i.startswith("keep:") for i in ids):
            return state, ids
        _submit(session, users, "comrades", next(i for i in ids if i.startswith(("refit:reclaim", "deck:", "step:refit"))))


def _page(client, session, user, seat):
    client.force_login(user)
    return client.get(reverse("web:play", args=[session.pk]) + f"?seat={seat}").content.decode()


def test_each_team_sees_its_panel_hand_and_drawn_cards_with_card_text_and_no_other_teams(client, tot):
    session, users = tot
    state, keep_ids = _to_keep(session, users)
    drawn = state["frames"]["comrades"][-1]["drawn"]
    rules, state, _p = _prompt(session)
    from engine.scenarios.tears_of_tyranny.data import content

    cards = content().cards
    for seat in SEATS:
        html = _page(client, session, users[seat], seat)
        assert f'data-player-panel="{seat}"' in html and "Your player panel" in html
        assert html.count('data-seat-row="') == 4, "the table lists all four players"
        for other in SEATS:
            for cid in state["pl"][other]["hand"]:
                assert (f'data-card="{cid}"' in html) == (other == seat), (seat, other, cid)
        for cid in drawn:
            if seat == "comrades":
                assert f'data-card="{cid}"' in html and cards[cid]["title"] in html
            else:
                assert cards[cid]["title"] not in html, (seat, cid)
    # the keep question shows each card's cost, speed, range, target, effect and attributes
    html = _page(client, session, users["comrades"], "comrades")
    c = cards[drawn[0]]
    button = re.search(f'data-choice="keep:{re.escape(drawn[0])}">(.*?)</button>', html, re.S).group(1)
    for bit in (f"cost {c['cost']}", "target:", c["text"].rstrip(".")[:30], "Attributes:"):
        assert bit in button, bit
    assert len(keep_ids) == 4


def test_the_kept_card_is_not_named_in_another_teams_log(client, tot):
    session, users = tot
    _state, keep_ids = _to_keep(session, users)
    kept = keep_ids[0]
    _submit(session, users, "comrades", kept, rationale="the cheapest major card")
    rules, state, _p = _prompt(session)
    from engine.scenarios.tears_of_tyranny.data import content

    title = content().cards[kept.split(":", 1)[1]]["title"]
    mine = _page(client, session, users["comrades"], "comrades")
    assert f"Keep {title}" in mine and "the cheapest major card" in mine
    for seat in ("liberators", "advisors", "partisans"):
        html = _page(client, session, users[seat], seat)
        assert f"Keep {title}" not in html, seat
        assert "Comrades made a secret decision." in html


def test_a_page_one_move_behind_in_the_simultaneous_window_still_decides(client, tot):
    """The Liberators' page was drawn before the Advisors decided; its question is unchanged."""
    session, users = tot
    for seat in SEATS:
        _rules, _state, p = _prompt(session)
        _submit(session, users, seat, p.choices_for(seat)[0].id)
    rules, state, p = _prompt(session)
    assert set(p.seats) == set(SEATS), "the player window: all four act"
    page_seq = session.head_seq
    lib_choice = p.choices_for("liberators")[0].id
    _submit(session, users, "advisors", p.choices_for("advisors")[0].id)
    _submit(session, users, "partisans", p.choices_for("partisans")[0].id)
    client.force_login(users["liberators"])
    url = reverse("web:play_choose", args=[session.pk])
    r = client.post(url, {"seat": "liberators", "choice": lib_choice, "seq": str(page_seq), "key": "k-lib-1",
                          "rationale": "late but still valid"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "The game has moved on" not in r.content.decode()
    ev = SessionEvent.objects.filter(session=session, seat="liberators").order_by("-seq").first()
    assert ev.payload["choice"] == lib_choice and ev.rationale == "late but still valid"
    # the Liberators' own first question has been answered: the same old page is stale now
    session.refresh_from_db()
    before = session.head_seq
    r = client.post(url, {"seat": "liberators", "choice": lib_choice, "seq": str(page_seq), "key": "k-lib-2"},
                    HTTP_HX_REQUEST="true")
    assert "The game has moved on" in r.content.decode()
    session.refresh_from_db()
    assert session.head_seq == before


def test_the_panels_read_in_spanish(client, tot):
    session, users = tot
    client.force_login(users["advisors"])
    try:
        client.post(reverse("web:set_language"), {"language": "es", "next": "/"})
        html = client.get(reverse("web:play", args=[session.pk])).content.decode()
    finally:
        translation.activate("en")  # the request left Spanish active in this thread
    assert 'lang="es"' in html
    for words in ("Su panel de jugador", "La mesa: lo que cada jugador ha hecho este turno", "El adversario",
                  "Turno 0", "Preparación", "Selva", "Septeto"):
        assert words in html, words


def test_a_tile_choice_says_the_adversarys_defense_units_and_civilians():
    import engine
    from facilitation.rendering import board

    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=3, options={})
    tid = next(t for t in state["order"] if state["tiles"][t]["red"] and state["tiles"][t]["u"])
    t = state["tiles"][tid]
    t["tyr"] = 1
    view = rules.view(state, "liberators")
    with translation.override("en"):
        b = board.build(rules, view, choices=[{"id": f"tile:{tid}", "label": tid, "payload": {"tile": tid}}])
    info = b["game_panel"]["choice_cards"][f"tile:{tid}"]["tile"]
    from engine.scenarios.tears_of_tyranny.data import content

    assert info["defense"] == content().tiles[tid]["defense_modifier"] + t["red"] + 5
    assert info["health"] == sum({"cell": 1, "outpost": 2, "garrison": 3}[u[0]] for u in t["u"])
    assert info["red"] == t["red"] and "tyranny 5" in info["defense_parts"]
    assert any(s["choices"] for s in b["spaces"] if s["id"] == tid), "the tile is highlighted on the map"


def test_the_log_splits_an_event_into_its_phases():
    from facilitation.web.templatetags.coinlab_web import last_section
    from facilitation.web.views.common import event_lines

    facts = [{"type": "play", "text": "Liberators are done."}, {"type": "phase", "text": "Adversary phase (turn 1)."},
             {"type": "event", "text": "Event: Monsoon Floods."}, {"type": "deploy", "text": "A cell deployed."},
             {"type": "turn", "text": "Turn 2 begins."}, {"type": "roll", "text": "Partisans roll 7."}]
    [line] = event_lines([{"seq": 9, "kind": "system", "seat": None, "payload": {}, "facts": facts}], {})
    assert line["phase_breaks"] == [1, 4]
    assert [(s["type"], s["facts"]) for s in line["sections"]] == [
        ("phase", ["Event: Monsoon Floods.", "A cell deployed."]), ("turn", ["Partisans roll 7."])]
    adv = last_section([line], "phase")
    assert adv["title"] == "Adversary phase (turn 1)." and adv["seq"] == 9
    assert last_section([line], "propaganda") is None
