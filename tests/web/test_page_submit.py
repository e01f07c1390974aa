"""The page's decision (htmx POST .../play/choose/, issue #8): the seats come from the polls'
cache entry when it is valid, the service checks everything under the lock, and the region
it answers with is drawn once into the cache the team's next polls read."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from facilitation.models import SessionEvent

from .test_live_polling import _client_for, _poll
from .test_pages import _start

pytestmark = pytest.mark.django_db


def _choose(client, session, seat, choice, key="k1"):
    session.refresh_from_db()
    return client.post(reverse("web:play_choose", args=[session.pk]) + f"?seat={seat}",
                       {"seat": seat, "choice": choice, "seq": str(session.head_seq), "key": key},
                       HTTP_HX_REQUEST="true")


def test_the_submits_region_is_shared_with_the_next_poll(toy_session, instructor, students,
                                                         django_assert_num_queries):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[0])
    assert _poll(c, toy_session).status_code == 200  # remembers the seats
    r = _choose(c, toy_session, "govt", "op:march")
    assert r.status_code == 200 and json.loads(r["HX-Trigger"]) == {"coinlab:accepted": {"target": "body"}}
    assert "Where to march?" in r.content.decode()
    mate = _client_for(students[0])  # a second tab: no ETag yet
    _poll(mate, toy_session)  # its login session's first request
    with django_assert_num_queries(0):
        again = _poll(mate, toy_session)
    assert again.status_code == 200 and again["ETag"] == r["ETag"]


def test_a_member_removed_from_the_team_cannot_submit_with_cached_seats(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[0])
    assert _poll(c, toy_session).status_code == 200
    toy_session.teams.get(name="Blue").members.remove(students[0])
    r = _choose(c, toy_session, "govt", "op:pass")
    assert r.status_code == 403
    assert not SessionEvent.objects.filter(session=toy_session, kind="decision").exists()


def test_another_teams_seat_is_refused(toy_session, instructor, students):
    _start(Client(), instructor, toy_session)
    c = _client_for(students[1])  # plays the rebels
    assert _poll(c, toy_session).status_code == 200
    r = _choose(c, toy_session, "govt", "op:pass")
    assert r.status_code == 403
    assert not SessionEvent.objects.filter(session=toy_session, kind="decision").exists()


def test_the_intent_panel_is_open_until_the_team_decides_then_shows_the_statement(toy_session, instructor, students):
    from facilitation import services

    _start(Client(), instructor, toy_session)
    blue = _client_for(students[0])
    html = _poll(blue, toy_session).content.decode()
    assert '<details class="panel" open>' in html, "no decision of the team yet: the panel is open"
    assert _choose(blue, toy_session, "govt", "op:pass").status_code == 200
    html = _poll(blue, toy_session).content.decode()
    assert '<details class="panel" >' in html, "still offered, closed after the team's first decision"
    # the other team has not decided: its panel is still open
    red = _client_for(students[1])
    assert '<details class="panel" open>' in _poll(red, toy_session).content.decode()
    services.team_intent_set(session=toy_session, team=toy_session.teams.get(name="Blue"), user=students[0],
                             statement="Hold the capital, starve the hills.")
    html = _poll(blue, toy_session).content.decode()
    assert "Hold the capital, starve the hills." in html and "<details class=\"panel\"" not in html


def test_the_intents_answer_carries_the_version_it_shows(toy_session, instructor, students):
    """The intent's htmx answer shows the recorded intent, so its ETag is that of the version
    the intent published: the page's next poll is a 304 (an older tag made it a 200 that
    redrew the same position without the answer's message)."""
    _start(Client(), instructor, toy_session)
    blue = _client_for(students[0])
    shown = _poll(blue, toy_session)
    assert shown.status_code == 200
    r = blue.post(reverse("web:play_intent", args=[toy_session.pk]) + "?seat=govt",
                  {"statement": "Hold the capital."}, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and "Your team&#x27;s intent is recorded." in html and "Hold the capital." in html
    assert r["ETag"] != shown["ETag"]
    assert _poll(blue, toy_session, etag=r["ETag"]).status_code == 304
