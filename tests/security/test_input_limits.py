"""Issue 14 items 9 and 12 (part): one rationale limit (5,000 characters) on every path, NUL
characters refused with a 400 (never a database error), and an idempotency key reused with
another rationale answered 409."""

from __future__ import annotations

import pytest
from django.test import Client

from facilitation import selectors, services
from facilitation.errors import ServiceError
from facilitation.models import SessionEvent


def _first_choice(game):
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    seat = p.seats[0]
    return seat, p.choices_for(seat)[0].id


def _page_client(game, seat):
    c = Client()
    c.force_login(game.owner(seat))
    return c


def test_the_play_page_refuses_a_rationale_over_the_limit(peru_session):
    g = peru_session
    seat, choice = _first_choice(g)
    before = g.session.head_seq
    c = _page_client(g, seat)
    r = c.post(f"/sessions/{g.session.pk}/play/choose/", {"seat": seat, "choice": choice, "seq": before,
                                                          "rationale": "x" * 5001})
    assert r.status_code in (200, 302, 400)
    g.session.refresh_from_db()
    assert g.session.head_seq == before, "a 5,001-character rationale was stored"
    assert not SessionEvent.objects.filter(session=g.session, kind="decision").exists()
    r = c.post(f"/sessions/{g.session.pk}/play/choose/", {"seat": seat, "choice": choice, "seq": before,
                                                          "rationale": "y" * 5000})
    g.session.refresh_from_db()
    assert SessionEvent.objects.get(session=g.session, kind="decision").rationale == "y" * 5000


@pytest.mark.parametrize("path", ["page", "api", "service"])
def test_the_same_limit_on_every_path(peru_session, api_for, path):
    g = peru_session
    seat, choice = _first_choice(g)
    seq = g.session.head_seq
    role = "student_a" if seat == g.seat_a else "student_b"
    if path == "page":
        r = _page_client(g, seat).post(f"/sessions/{g.session.pk}/play/choose/",
                                       {"seat": seat, "choice": choice, "seq": seq, "rationale": "z" * 6000})
        assert r.status_code < 500
    elif path == "api":
        r = api_for(role).post(f"/api/sessions/{g.session.pk}/seats/{seat}/submit/",
                               {"choice": choice, "seq": seq, "rationale": "z" * 6000}, format="json")
        assert r.status_code == 400
    else:
        with pytest.raises(ServiceError) as exc:
            services.choice_submit(session=g.session, user=g.owner(seat), seat=seat, choice=choice, seq=seq,
                                   rationale="z" * 6000)
        assert exc.value.status == 400 and exc.value.code == "too_long"
    assert not SessionEvent.objects.filter(session=g.session, kind="decision").exists(), path


def test_a_nul_in_a_rationale_is_a_400_not_a_server_error(peru_session):
    g = peru_session
    seat, choice = _first_choice(g)
    c = _page_client(g, seat)
    c.raise_request_exception = False
    r = c.post(f"/sessions/{g.session.pk}/play/choose/", {"seat": seat, "choice": choice,
                                                          "seq": g.session.head_seq, "rationale": "a\x00b"},
               HTTP_HX_REQUEST="true")
    assert r.status_code < 500, r.status_code
    assert not SessionEvent.objects.filter(session=g.session, kind="decision").exists()
    for kwargs in ({"idempotency_key": "k\x00"}, {"rationale": "\x00"}):
        with pytest.raises(ServiceError) as exc:
            services.choice_submit(session=g.session, user=g.owner(seat), seat=seat, choice=choice,
                                   seq=g.session.head_seq, **kwargs)
        assert exc.value.status == 400
    for call in (lambda: services.facilitator_note(session=g.session, user=g.people.instructor, text="a\x00"),
                 lambda: services.session_pause(session=g.session, user=g.people.instructor, reason="\x00")):
        with pytest.raises(ServiceError) as exc:
            call()
        assert exc.value.status == 400


def test_an_idempotency_key_reused_with_another_rationale_is_a_conflict(peru_session, api_for):
    g = peru_session
    seat, choice = _first_choice(g)
    role = "student_a" if seat == g.seat_a else "student_b"
    url = f"/api/sessions/{g.session.pk}/seats/{seat}/submit/"
    body = {"choice": choice, "seq": g.session.head_seq, "idempotency_key": "key-1"}
    first = api_for(role).post(url, {**body, "rationale": "first thought"}, format="json")
    assert first.status_code == 200
    again = api_for(role).post(url, {**body, "rationale": "first thought"}, format="json")
    assert again.status_code == 200 and again.json()["replayed"] is True
    other = api_for(role).post(url, {**body, "rationale": "a different thought"}, format="json")
    assert other.status_code == 409 and other.json()["error"] == "idempotency_key_reused"
