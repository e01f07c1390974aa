"""Dates and times in the viewer's time zone, with the zone named (issue 19 item 3)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from facilitation import services

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 12, 1, 14, 0, tzinfo=dt.UTC)


@pytest.fixture
def scheduled(toy_rules, instructor):
    course = services.course_create(user=instructor, title="COIN 101")
    return services.session_create(course=course, user=instructor, title="Toy game", scenario_key="toy", seed=3,
                                   teams=["Blue"], seats={"govt": "Blue"}, scheduled_start=START)


def _start_shown(client, session) -> str:
    html = client.get(reverse("web:manage", args=[session.pk])).content.decode()
    head = html[html.index('class="status-bar"'):]
    return head[:head.index("</div>")]


def test_the_scheduled_start_is_written_in_the_browsers_time_zone_with_its_name(client, scheduled, instructor):
    client.force_login(instructor)
    client.cookies["coinlab_tz"] = "Europe/Madrid"
    madrid = _start_shown(client, scheduled)
    client.cookies["coinlab_tz"] = "Asia/Tokyo"
    tokyo = _start_shown(client, scheduled)
    assert "3 p.m. CET" in madrid  # 14:00 UTC is 15:00 in Madrid in December
    assert "11 p.m. JST" in tokyo


def test_an_unknown_time_zone_falls_back_to_the_servers(client, scheduled, instructor):
    client.force_login(instructor)
    client.cookies["coinlab_tz"] = "Mars/Olympus_Mons"
    assert "2 p.m. UTC" in _start_shown(client, scheduled)


def test_the_schedule_form_says_which_time_zone_it_reads(client, toy_rules, instructor):
    client.force_login(instructor)
    client.cookies["coinlab_tz"] = "America/Lima"
    html = client.get(reverse("web:session_new") + "?scenario=toy").content.decode()
    assert "In your time zone, America/Lima." in html
