"""The choice service rebases a simultaneous phase's older seq (issue #8): the page and the API
share it, under the session lock. Only an unchanged question after other seats' decisions is
let through; the seat's own earlier decision, a repeat with the same idempotency key and a
question that changed stay as before (409 stale_seq, or the first answer replayed)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from facilitation import selectors, services
from facilitation.errors import Conflict
from facilitation.models import SessionEvent
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEATS = TOT_SEATS


def _prompt(session):
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    return rules.prompt(state)


def _submit(session, users, seat, choice, seq=None, key=""):
    session.refresh_from_db()
    return services.choice_submit(session=session, user=users[seat], seat=seat, choice=choice,
                                  seq=session.head_seq if seq is None else seq, idempotency_key=key)


def _player_window(session, users):
    for seat in SEATS:
        _submit(session, users, seat, _prompt(session).choices_for(seat)[0].id)
    p = _prompt(session)
    assert set(p.seats) == set(SEATS), "the player window: all four act"
    return p


def test_an_older_seq_after_other_seats_decided_is_rebased_by_the_service(tot):
    session, users = tot
    p = _player_window(session, users)
    old = session.head_seq
    lib = p.choices_for("liberators")[0].id
    _submit(session, users, "advisors", p.choices_for("advisors")[0].id)
    _submit(session, users, "partisans", p.choices_for("partisans")[0].id)
    out = _submit(session, users, "liberators", lib, seq=old, key="k-1")
    assert not out["replayed"]
    ev = SessionEvent.objects.filter(session=session, seat="liberators").order_by("-seq").first()
    assert ev.payload["choice"] == lib and ev.seq == old + 3
    # the same key again: the first answer, nothing applied twice
    session.refresh_from_db()
    head = session.head_seq
    again = _submit(session, users, "liberators", lib, seq=old, key="k-1")
    session.refresh_from_db()
    assert again["replayed"] and again["seq"] == out["seq"] and session.head_seq == head
    # the seat's own question has been answered: the old seq is stale now
    with pytest.raises(Conflict) as exc:
        _submit(session, users, "liberators", lib, seq=old, key="k-2")
    assert exc.value.code == "stale_seq"
    session.refresh_from_db()
    assert session.head_seq == head


def test_the_api_shares_the_rebase(tot):
    session, users = tot
    p = _player_window(session, users)
    old = session.head_seq
    _submit(session, users, "advisors", p.choices_for("advisors")[0].id)
    api = APIClient()
    api.force_authenticate(users["partisans"])
    r = api.post(f"/api/sessions/{session.pk}/seats/partisans/submit/",
                 {"seq": old, "choice": p.choices_for("partisans")[0].id, "idempotency_key": "api-1"}, format="json")
    assert r.status_code in (200, 201), r.content
    session.refresh_from_db()
    assert r.json()["seq"] == session.head_seq == old + 2


def test_a_facilitator_event_in_between_keeps_an_older_seq_stale(tot):
    session, users = tot
    p = _player_window(session, users)
    old = session.head_seq
    _submit(session, users, "advisors", p.choices_for("advisors")[0].id)
    services.facilitator_note(session=session, user=session.course.instructors.first(), text="Two minutes left.")
    session.refresh_from_db()
    head = session.head_seq
    with pytest.raises(Conflict) as exc:
        _submit(session, users, "partisans", p.choices_for("partisans")[0].id, seq=old)
    assert exc.value.code == "stale_seq"
    session.refresh_from_db()
    assert session.head_seq == head
