"""Drawing every seat's live region ahead of the polls (issue #8): one ``live_predraw``
task per committed state change, on the "live" queue; a poll that finds its region cached
is answered without a database query; a poll that comes first still draws its own.

Real PostgreSQL, Redis and (where it says so) a real Celery worker, as in
tests/web/test_live_polling.py and tests/facilitation/test_platform.py.
"""

import time

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from facilitation import live, services, tasks
from facilitation.models import ClassSession
from facilitation.rendering import regions as live_regions
from facilitation.web.views import play

from .test_live_polling import _client_for, _poll
from .test_pages import _start, login
from .test_tot_pages import SEATS as TOT_SEATS
from .test_tot_pages import _prompt, _submit

pytestmark = pytest.mark.django_db


def _keys(session):
    session.refresh_from_db()
    with translation.override("en"):
        return {seat: live.fragment_key(session.pk, live_regions.etag(session, seat)) for seat in ("govt", "rebels")}


def _region(key):
    raw = cache.get(key)
    return None if raw is None else play.gzip.decompress(raw).decode()


@pytest.fixture
def sent(monkeypatch):
    """The ``live_predraw`` messages sent to the broker (session ids), instead of sending them."""
    calls = []
    monkeypatch.setattr(tasks.live_predraw, "apply_async",
                        lambda args=(), kwargs=None, **opts: calls.append((args[0], opts)))
    return calls


@pytest.mark.integration
def test_a_real_worker_draws_every_seat_of_the_new_version(tot, celery_worker,  # noqa: F811
                                                           django_assert_num_queries):
    """Tears of Tyranny, four teams: after the decisions commit, the worker (consuming the
    "live" queue) fills the key of every seat for the newest version, each holding its own
    seat's hand and none of another seat's; the next poll of
    a team member is then answered from it without a database query."""
    session, users = tot
    clients = {seat: login(Client(), users[seat], "pw-student-1") for seat in TOT_SEATS}
    first = {seat: _poll(c, session, seat=seat) for seat, c in clients.items()}  # remembers the seats
    assert all(r.status_code == 200 for r in first.values())
    for seat in TOT_SEATS:  # every team places its headquarters: four commits, four tasks
        _rules, _state, p = _prompt(session)
        _submit(session, users, seat, p.choices_for(seat)[0].id)
    _rules, state, _p = _prompt(session)
    assert all(state["pl"][seat]["hand"] for seat in TOT_SEATS), "each team holds cards"
    with translation.override("en"):
        keys = {seat: live.fragment_key(session.pk, live_regions.etag(session, seat)) for seat in TOT_SEATS}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(cache.get(k) is None for k in keys.values()):
        time.sleep(0.1)
    regions = {seat: _region(k) for seat, k in keys.items()}
    assert all(regions.values()), f"the worker drew no region for {[s for s, r in regions.items() if not r]}"
    for seat, html in regions.items():
        assert f'data-player-panel="{seat}"' in html
        assert live_regions.CSRF_SENTINEL not in html and live_regions.KEY_SENTINEL not in html  # stored as sent
        for other in TOT_SEATS:
            for cid in state["pl"][other]["hand"]:
                assert (f'data-card="{cid}"' in html) == (other == seat), (seat, other, cid)
    for seat, c in clients.items():
        with django_assert_num_queries(0):
            r = _poll(c, session, first[seat]["ETag"], seat=seat)
        body = r.content.decode()
        assert r.status_code == 200 and r["ETag"] != first[seat]["ETag"], seat
        assert body == regions[seat], seat  # the worker's drawing, as it was stored
        # a browser (gzip accepted) gets the stored bytes themselves
        with django_assert_num_queries(0):
            z = c.get(f"/sessions/{session.pk}/play/live/?seat={seat}", HTTP_IF_NONE_MATCH=first[seat]["ETag"],
                      HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert z["Content-Encoding"] == "gzip" and "Accept-Encoding" in z["Vary"]
        assert z.content == cache.get(keys[seat]) and play.gzip.decompress(z.content).decode() == body


def test_a_cached_region_is_served_without_a_database_query(toy_session, instructor, students,
                                                           django_assert_num_queries):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[0])
    drawn = _poll(c, toy_session)
    # a second tab of the same browser (the same login session), no ETag yet; the seats are
    # remembered per login session (issue 20: read in the same cache round trip as it)
    tab = Client()
    tab.cookies[settings.SESSION_COOKIE_NAME] = c.cookies[settings.SESSION_COOKIE_NAME].value
    with django_assert_num_queries(0):
        again = _poll(tab, toy_session)
    # another login session of the same user (another browser) reads the database once
    other = _client_for(students[0])
    assert _poll(other, toy_session)["ETag"] == drawn["ETag"]
    with django_assert_num_queries(0):
        assert _poll(other, toy_session)["ETag"] == drawn["ETag"]
    assert again.status_code == 200 and again["ETag"] == drawn["ETag"]
    assert again.content.decode().count('name="key"') == drawn.content.decode().count('name="key"') > 0
    assert live_regions.KEY_SENTINEL not in again.content.decode() and live_regions.CSRF_SENTINEL not in again.content.decode()
    # the page with a stale ETag, after a change drawn ahead: served from the cache too
    toy_session.refresh_from_db()
    services.facilitator_note(session=toy_session, user=instructor, text="Mind the hills")
    assert live_regions.predraw_regions(toy_session.pk) == 2
    with django_assert_num_queries(0):
        r = _poll(c, toy_session, drawn["ETag"])
    assert r.status_code == 200 and r["ETag"] != drawn["ETag"] and "Mind the hills" in r.content.decode()


def test_a_poll_before_the_predraw_draws_itself_and_the_predraw_keeps_it(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[1])
    r = _poll(c, toy_session)
    assert r.status_code == 200 and "hidden cache" in r.content.decode().lower()
    # the rebels' key exists already: only the government's region is drawn
    assert live_regions.predraw_regions(toy_session.pk) == 1
    assert live_regions.predraw_regions(toy_session.pk) == 0


def test_each_seat_key_holds_only_its_own_seat(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    assert live_regions.predraw_regions(toy_session.pk) == 2
    keys = _keys(toy_session)
    assert keys["govt"] != keys["rebels"]
    govt, rebels = _region(keys["govt"]).lower(), _region(keys["rebels"]).lower()
    assert "hidden cache" in rebels
    assert "hidden cache" not in govt and "cache location" not in govt
    # and a government member is served the government's key, also when asking for the rebels' seat
    c = _client_for(students[0])
    _poll(c, toy_session)
    with CaptureQueriesContext(connection) as q:
        r = _poll(c, toy_session, seat="rebels")
    assert not q.captured_queries and "hidden cache" not in r.content.decode().lower()


def test_no_predraw_while_a_decision_timer_runs(toy_session, instructor, students):
    services.session_update(session=toy_session, user=instructor, decision_timer_seconds=300)
    _start(Client(), instructor, toy_session)
    assert live_regions.predraw_regions(toy_session.pk) == 0
    assert all(cache.get(k) is None for k in _keys(toy_session).values())


@pytest.mark.django_db(transaction=True)
def test_one_task_per_commit_and_none_on_rollback(toy_session, instructor, students, sent):
    _start(Client(), instructor, toy_session)
    assert [sid for sid, _ in sent] == [toy_session.pk], "the start committed once"
    sent.clear()
    toy_session.refresh_from_db()
    services.choice_submit(session=toy_session, user=students[0], seat="govt", choice="op:pass",
                           seq=toy_session.head_seq)
    assert [sid for sid, _ in sent] == [toy_session.pk]
    sent.clear()
    with transaction.atomic():  # several saves, one commit
        for _ in range(3):
            s = ClassSession.objects.select_for_update().get(pk=toy_session.pk)
            s.save(update_fields=["updated_at"])
    assert [sid for sid, _ in sent] == [toy_session.pk]
    sent.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        ClassSession.objects.get(pk=toy_session.pk).save(update_fields=["updated_at"])
        raise RuntimeError("rolled back")
    assert sent == []
    with transaction.atomic():  # a save in a rolled-back savepoint, then one that commits
        try:
            with transaction.atomic():
                ClassSession.objects.get(pk=toy_session.pk).save(update_fields=["updated_at"])
                raise RuntimeError("savepoint rolled back")
        except RuntimeError:
            pass
        assert sent == []
        ClassSession.objects.get(pk=toy_session.pk).save(update_fields=["updated_at"])
    assert [sid for sid, _ in sent] == [toy_session.pk]


def test_the_task_goes_to_the_live_queue():
    from coinlab.celery import app

    assert {q.name for q in app.conf.task_queues} == {"celery", "live", "pace"}
    route = app.amqp.router.route({}, tasks.live_predraw.name)
    assert route["queue"].name == "live"
    assert app.amqp.router.route({}, tasks.session_verify.name)["queue"].name == "celery"
    assert app.amqp.router.route({}, tasks.pace_games.name)["queue"].name == "pace"


def test_deactivating_a_user_ends_the_cached_answers(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[1])
    etag = _poll(c, toy_session)["ETag"]
    assert _poll(c, toy_session, etag).status_code == 304
    students[1].is_active = False
    students[1].save()
    r = _poll(c, toy_session)
    assert r.status_code != 200 or "hidden cache" not in r.content.decode().lower()
    assert _poll(c, toy_session, etag).status_code != 304


def test_the_predraw_also_draws_the_instructor_consoles_section(toy_session, instructor, students):
    """After a move the task also draws the session's console section of the new version, so
    an instructor's console answering 200 only joins cached sections."""
    console_views = live_regions  # the console's drawing (issue 13.7: out of the views)

    _start(Client(), instructor, toy_session)
    toy_session.refresh_from_db()
    token = live.membership_token(toy_session.pk)
    with translation.override("en"):
        key = console_views.section_key(toy_session.pk, live.version_of(toy_session), token)
    assert cache.get(key) is None
    assert tasks.live_predraw(toy_session.pk) >= 1
    assert "Toy game" in cache.get(key) and console_views.CSRF_SENTINEL in cache.get(key)
    assert console_views.predraw_console_summary(toy_session.pk) is False  # there already
    # a finished session gets no section
    toy_session.status = ClassSession.Status.FINISHED
    toy_session.save(update_fields=["status"])
    assert console_views.predraw_console_summary(toy_session.pk) is False
