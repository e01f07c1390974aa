"""What a decision costs the choice service (issue #8), without weakening its guarantees: the
head event's time is read with the session row lock, the row's own state is not copied again,
and the save writes only what a move changes."""

from __future__ import annotations

import pytest

from facilitation import eventlog, selectors, services
from facilitation.models import ClassSession, SessionEvent
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEATS = TOT_SEATS


@pytest.fixture
def tot(tot_four):
    return tot_four.session, tot_four.users


def _prompt(session):
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    return rules.prompt(state)


def test_a_decision_takes_eight_queries_and_keeps_the_chain(tot, django_assert_max_num_queries):
    session, users = tot
    seat = SEATS[0]
    choice = _prompt(session).choices_for(seat)[0].id
    session.refresh_from_db()
    before = session.head_seq
    # lock (with the head event's time), seats, idempotency key, event, session row, key row
    with django_assert_max_num_queries(8):
        out = services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                                     choice=choice, seq=before, idempotency_key="cost-1")
    session.refresh_from_db()
    assert out["seq"] == session.head_seq > before
    ev = SessionEvent.objects.get(session=session, seq=before + 1)
    assert ev.decision_ms is not None and ev.decision_ms >= 0
    assert eventlog.verify(session).ok, "the hash chain and the cached state replay from the seed"
    # the cached state is the replayed one
    rules = eventlog.rules_for(session)
    assert eventlog.jsonable(rules.serialize(eventlog.load_state(session, session.head_seq, rules))) == session.state


def test_decision_ms_is_bounded_by_the_head_events_time_read_with_the_lock(tot):
    session, users = tot
    seat = SEATS[0]
    choice = _prompt(session).choices_for(seat)[0].id
    session.refresh_from_db()
    services.choice_submit(session=session, user=users[seat], seat=seat, choice=choice, seq=session.head_seq,
                           decision_ms=6 * 24 * 3600 * 1000)
    session.refresh_from_db()
    ev = SessionEvent.objects.filter(session=session, kind="decision").order_by("-seq").first()
    assert ev.decision_ms < 60_000, "the client's figure is capped by the server's clock (+2 s)"
