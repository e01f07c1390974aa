"""A decision's reads and writes in few round trips (issue #8), with every guarantee kept: the
row lock, then the seats, the idempotency key's first answer and the head event's time read
after the lock is granted (one round trip together); the events, snapshot, key row and the
session row written together; the head state decoded once, in the canonical form a replay
starts from; the version published and the pre-draw queued once the transaction commits."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from facilitation import eventlog, live, selectors, services, tasks
from facilitation.errors import Conflict
from facilitation.models import ClassSession, SessionEvent, StateSnapshot, SubmissionKey
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db


def _prompt(session):
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    return rules.prompt(state)


def _statements(queries) -> list[str]:
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def test_a_decision_reads_in_one_round_trip_and_writes_in_another(tot):
    session, users = tot
    seat = TOT_SEATS[0]
    choice = _prompt(session).choices_for(seat)[0].id
    before = session.head_seq
    with CaptureQueriesContext(connection) as q:
        out = services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                                     choice=choice, seq=before, idempotency_key="rt-1")
    sql = _statements(q.captured_queries)
    assert len(sql) == 2, sql
    read, write = sql
    assert "FOR UPDATE" in read and "facilitation_submissionkey" in read and "json_agg" in read
    assert read.index("FOR UPDATE") < read.index("json_agg"), "the checks are read after the lock"
    assert write.count("INSERT INTO") == 2 and 'UPDATE "facilitation_classsession"' in write
    session.refresh_from_db()
    assert out == {"seq": session.head_seq, "events": [before + 1], "status": "live", "replayed": False}
    key = SubmissionKey.objects.get(session=session, key="rt-1")
    assert key.user_id == users[seat].pk and key.response == {k: v for k, v in out.items() if k != "replayed"}
    assert live.session_version(session.pk)["head_seq"] == session.head_seq, "post_save published the version"
    assert eventlog.verify(session).ok


def test_the_api_submit_needs_no_query_before_the_lock(tot, django_assert_max_num_queries):
    session, users = tot
    seat = TOT_SEATS[1]
    api = APIClient()
    api.force_authenticate(users[seat])
    body = {"seq": session.head_seq, "choice": _prompt(session).choices_for(seat)[0].id, "idempotency_key": "api-rt"}
    with django_assert_max_num_queries(4):  # savepoint, read, write, release (was 8 before issue #8's cut)
        r = api.post(f"/api/sessions/{session.pk}/seats/{seat}/submit/", body, format="json")
    assert r.status_code == 200, r.content
    with django_assert_max_num_queries(3):  # the repeat: savepoint, read, release
        again = api.post(f"/api/sessions/{session.pk}/seats/{seat}/submit/", body, format="json")
    assert again.status_code == 200 and again.json() == {**r.json(), "replayed": True}


def test_refusals_tell_an_outsider_nothing_more_than_before(tot, django_user_model):
    session, users = tot
    outsider = django_user_model.objects.create_user("outsider", password="pw-outsider-1")
    url = f"/api/sessions/{session.pk}/seats/liberators/submit/"
    body = {"seq": session.head_seq, "choice": "x"}

    def post(user, data, path=url):
        api = APIClient()
        api.force_authenticate(user)
        return api.post(path, data, format="json")

    r = post(outsider, body)  # as selectors.session_get_for_user answers, before any other check
    assert r.status_code == 403 and "not part of this session" in r.json()["detail"]
    r = post(outsider, {"seq": "not a number"})
    assert r.status_code == 403 and "not part of this session" in r.json()["detail"]
    assert post(outsider, body, f"/api/sessions/{session.pk + 999}/seats/liberators/submit/").status_code == 404
    teacher = session.created_by
    r = post(teacher, body)  # may see the session, plays no seat
    assert r.status_code == 403 and r.json()["error"] == "not_your_seat"
    r = post(users["advisors"], body)  # another team's seat
    assert r.status_code == 403 and r.json()["error"] == "not_your_seat"
    r = post(users["liberators"], {"seq": "not a number"})
    assert r.status_code == 400
    r = post(users["liberators"], {**body, "choice": "no-such-choice"})
    assert r.status_code == 400
    assert SessionEvent.objects.filter(session=session, kind="decision").count() == 0


@pytest.mark.parametrize("path", ["one round trip", "statement by statement", "orm"])
def test_random_play_through_each_path_replays_and_keeps_the_idempotency_keys(tot, monkeypatch, path):
    """Random legal decisions of the four teams (snapshots every 4 events): the log replays from
    the seed to the cached state and the snapshots; every key's repeat gives the first answer and
    applies nothing. The same on the driver paths SQLite and a server-side binding cursor take."""
    session, users = tot
    ClassSession.objects.filter(pk=session.pk).update(snapshot_every=4)
    if path != "one round trip":
        monkeypatch.setattr(eventlog, "merges_parameters", lambda cursor: False)
    if path == "orm":
        monkeypatch.setattr(connection, "vendor", "sqlite")
    rng = random.Random(11)
    answers = {}
    for n in range(24):
        p = _prompt(session)
        if p is None:
            break
        seat = rng.choice(p.seats)
        choice = rng.choice(p.choices_for(seat)).id
        key = f"{path}-{n}"
        answers[key] = (seat, choice, session.head_seq, services.choice_submit(
            session=ClassSession(pk=session.pk), user=users[seat], seat=seat, choice=choice,
            seq=session.head_seq, idempotency_key=key))
    session.refresh_from_db()
    assert session.head_seq >= 20
    report = eventlog.verify(session)
    assert report.ok, report.errors[:3]
    assert StateSnapshot.objects.filter(session=session).count() >= 4
    head = session.head_seq
    for key, (seat, choice, seq, out) in answers.items():
        again = services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                                       choice=choice, seq=seq, idempotency_key=key)
        assert again == {**out, "replayed": True}
    with pytest.raises(Conflict) as exc:
        seat, choice, seq, _out = answers[f"{path}-0"]
        services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                               choice=choice + "-other", seq=seq, idempotency_key=f"{path}-0")
    assert exc.value.code == "idempotency_key_reused"
    session.refresh_from_db()
    assert session.head_seq == head, "a repeat applies nothing"


def test_the_head_state_is_decoded_once_in_the_canonical_key_order(tot):
    """The row's jsonb text gives its keys in PostgreSQL's order; the head state the service plays
    on has them in sorted order, as ``json.loads(canonical(...))`` and a replay from a snapshot give
    them, and is a fresh object every time."""
    session, users = tot
    for seat in TOT_SEATS:
        services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                               choice=_prompt(session).choices_for(seat)[0].id, seq=session.head_seq)
    session.refresh_from_db()
    rules = eventlog.rules_for(session)
    expected = rules.deserialize(json.loads(eventlog.canonical(session.state)))
    with transaction.atomic():
        locked, _seats, _prior = services._lock_for_move(session.pk, users["liberators"], "")
        assert "state" not in locked.__dict__, "the row's state is not decoded by the read"
        first = eventlog.load_state(locked, locked.head_seq, rules)
        second = eventlog.load_state(locked, locked.head_seq, rules)
    assert json.dumps(first) == json.dumps(second) == json.dumps(expected)  # same keys, same order
    assert first is not second
    first["turn"] = -1
    assert eventlog.load_state(locked, locked.head_seq, rules)["turn"] != -1
    # once the cached state is set (append does it), the text read with the lock is not used
    locked.state = {**session.state, "turn": 99}
    assert eventlog.load_state(locked, locked.head_seq, rules)["turn"] == 99


@pytest.mark.django_db(transaction=True)
def test_the_predraw_is_queued_once_after_commit_and_a_failed_send_loses_only_the_predraw(
        tot, monkeypatch, settings):
    session, users = tot
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(tasks.live_predraw, "apply_async", lambda args=(), kwargs=None, **opts: sent.append(
        (args[0], opts, connection.in_atomic_block)))
    seat = TOT_SEATS[0]
    services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                           choice=_prompt(session).choices_for(seat)[0].id, seq=session.head_seq)
    assert [(sid, in_tx) for sid, _opts, in_tx in sent] == [(session.pk, False)], "once, after the commit"
    with tasks._send_lock:
        assert sent[0][1]["producer"] is tasks._producer(), "the process's own producer"

    def broken(*args, **kwargs):
        raise OSError("broker gone")

    monkeypatch.setattr(tasks.live_predraw, "apply_async", broken)
    seat = TOT_SEATS[1]
    out = services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                                 choice=_prompt(session).choices_for(seat)[0].id, seq=session.head_seq)
    assert not out["replayed"]
    session.refresh_from_db()
    assert session.head_seq == out["seq"]
    assert tasks._held["producer"] is None, "a failed send gives its producer back to the pool"
    with tasks._send_lock:
        assert tasks._producer() is not None, "the next send takes one from the pool again (maybe the same)"


@pytest.mark.django_db(transaction=True)
def test_a_repeat_waiting_for_the_lock_gets_the_first_answer(tot):
    """Two requests with one idempotency key, both waiting for the session row lock: the one that
    gets it second reads the key after the first one committed (the checks are not read by the
    locking statement, whose snapshot predates the wait) and answers the first answer."""
    session, users = tot
    seat = TOT_SEATS[0]
    choice = _prompt(session).choices_for(seat)[0].id
    seq = session.head_seq
    results, errors = [], []

    def submit():
        try:
            results.append(services.choice_submit(session=ClassSession(pk=session.pk), user=users[seat], seat=seat,
                                                  choice=choice, seq=seq, idempotency_key="race-1"))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    with transaction.atomic():
        ClassSession.objects.select_for_update().get(pk=session.pk)  # both will wait for it
        for t in threads:
            t.start()
        time.sleep(0.5)
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert sorted(r["replayed"] for r in results) == [False, True]
    assert results[0]["seq"] == results[1]["seq"] and results[0]["events"] == results[1]["events"]
    assert SessionEvent.objects.filter(session=session, kind="decision").count() == 1
