"""A live region is drawn once per version and seat (issue 20, docs/benchmarks.md "Capacity"):
whichever of the pre-draw worker, a poll or the page's decision comes first claims the drawing
(``regions.claim``) and the others wait for it; the page's decision draws the deciding seat's
region before the pre-draw of the other seats is queued; a poll on the checked path puts a
missing session version back in the cache, so the next polls answer from it again.

Real PostgreSQL and Redis, as in tests/web/test_live_predraw.py.
"""

import json
import threading
import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from facilitation import live, services, tasks
from facilitation.rendering import regions as live_regions
from facilitation.web.views import play

from .test_live_polling import _client_for, _poll
from .test_live_predraw import _keys, sent  # noqa: F401 - a fixture
from .test_page_submit import _choose
from .test_pages import _start

pytestmark = pytest.mark.django_db


def _tag(session, seat):
    session.refresh_from_db()
    with translation.override("en"):
        return live_regions.etag(session, seat)


def test_a_poll_on_the_checked_path_puts_a_missing_version_back(toy_session, instructor, students,
                                                                 django_assert_num_queries):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[1])
    tag = _poll(c, toy_session)["ETag"]
    with django_assert_num_queries(0):
        assert _poll(c, toy_session, tag).status_code == 304
    cache.delete(live._key(toy_session.pk))  # its TTL ran out (no move for 10 minutes), or Redis restarted
    assert _poll(c, toy_session, tag).status_code == 304  # the checked path, once
    with django_assert_num_queries(0):
        assert _poll(c, toy_session, tag).status_code == 304


@pytest.mark.django_db(transaction=True)
def test_the_page_decision_draws_its_region_before_the_predraw_is_queued(toy_session, instructor, students,
                                                                         sent, monkeypatch):  # noqa: F811
    _start(Client(), instructor, toy_session)
    c = _client_for(students[0])
    assert _poll(c, toy_session).status_code == 200  # remembers the seats
    sent.clear()
    drawn_when_queued = []
    real = tasks._send_predraw

    def spy(session_id):
        drawn_when_queued.append({seat: cache.get(k) is not None for seat, k in _keys(toy_session).items()})
        real(session_id)

    monkeypatch.setattr(tasks, "_send_predraw", spy)
    r = _choose(c, toy_session, "govt", "op:pass")
    assert r.status_code == 200 and json.loads(r["HX-Trigger"]) == {"coinlab:accepted": {"target": "body"}}
    assert drawn_when_queued == [{"govt": True, "rebels": False}], "the deciding seat's region first, then the queue"
    assert [sid for sid, _ in sent] == [toy_session.pk]
    assert live_regions.predraw_regions(toy_session.pk) == 1, "the worker draws the rebels' region only"


def test_the_predraw_leaves_a_seat_another_process_is_drawing(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    assert live_regions.claim(toy_session.pk, _tag(toy_session, "govt"))  # a poll is drawing it
    assert live_regions.predraw_regions(toy_session.pk) == 1
    keys = _keys(toy_session)
    assert cache.get(keys["govt"]) is None and cache.get(keys["rebels"]) is not None


def test_a_poll_waits_for_the_region_another_process_is_drawing(toy_session, instructor, students, monkeypatch):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[1])
    old = _poll(c, toy_session)["ETag"]
    services.facilitator_note(session=toy_session, user=instructor, text="Mind the hills")
    tag = _tag(toy_session, "rebels")
    assert live_regions.claim(toy_session.pk, tag)  # the pre-draw worker is drawing it
    monkeypatch.setattr(play, "POLL_WAIT", 5.0)
    drawn_here = []
    monkeypatch.setattr(play, "shared_region", lambda *a, **k: drawn_here.append(a) or "drawn by the poll")

    def worker():
        time.sleep(0.2)
        cache.set(live.fragment_key(toy_session.pk, tag), live_regions.pack("<p>drawn by the worker</p>"))

    t = threading.Thread(target=worker)
    t.start()
    r = _poll(c, toy_session, old)
    t.join()
    assert r.status_code == 200 and r["ETag"] == tag and "drawn by the worker" in r.content.decode()
    assert drawn_here == []


def test_a_page_keeps_its_copy_while_its_region_is_drawn_elsewhere(toy_session, instructor, students, monkeypatch,
                                                                   django_assert_num_queries):
    """The drawing takes longer than a poll waits: a page that shows the previous version
    gets a 304 with its own tag (it polls again), never a second drawing of the region; a
    client with nothing to show draws it."""
    _start(Client(), instructor, toy_session)
    c = _client_for(students[1])
    old = _poll(c, toy_session)["ETag"]
    services.facilitator_note(session=toy_session, user=instructor, text="Mind the hills")
    tag = _tag(toy_session, "rebels")
    assert live_regions.claim(toy_session.pk, tag)
    monkeypatch.setattr(play, "POLL_WAIT", 0.05)
    drawn_here = []
    real = play.shared_region
    monkeypatch.setattr(play, "shared_region", lambda *a, **k: drawn_here.append(1) or real(*a, **k))
    with django_assert_num_queries(0):  # answered from the cache (the version, the seats, the claim)
        r = _poll(c, toy_session, old)
    assert r.status_code == 304 and r["ETag"] == old and drawn_here == []
    # a tag of another form is not echoed back
    r = _poll(c, toy_session, 'W/"not-a-tag"\r\nX-Evil: 1')
    assert r.status_code == 200 and r["ETag"] == tag and "Mind the hills" in r.content.decode()
    assert drawn_here == [1]
