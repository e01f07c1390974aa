"""Issue 14 item 12, the smaller findings: bare CR in iCalendar text, team names as links in
the AAR's chart SVG, all-digit passwords, the ``Server: gunicorn`` header, the embedded SQLite
file's mode. (The idempotency key reused with another rationale: test_input_limits.py.)"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import urllib.request
from types import SimpleNamespace

import pytest

from facilitation import services
from facilitation.errors import ServiceError
from tests.conftest import ROOT


def test_a_bare_cr_in_a_title_or_location_stays_inside_its_ics_property(peru_session):
    from facilitation.calendar import sessions_to_ics

    sess = peru_session.session
    sess.title = "Lab\rBEGIN:VEVENT\rSUMMARY:forged"
    sess.location = "Room 1\r\nATTENDEE:mailto:x@example.org\x0bEND:VCALENDAR"
    import datetime as dt

    from django.utils import timezone

    sess.scheduled_start = timezone.now() + dt.timedelta(days=1)
    ics = sessions_to_ics([sess])
    lines = ics.split("\r\n")
    assert "\r" not in ics.replace("\r\n", ""), "a bare CR reaches the file"
    assert "\n" not in ics.replace("\r\n", "")
    unfolded = ics.replace("\r\n ", "")
    props = [line.split(":", 1)[0].split(";", 1)[0] for line in unfolded.split("\r\n") if line]
    assert props.count("BEGIN") == 2 and props.count("END") == 2 and "ATTENDEE" not in props
    assert props.count("SUMMARY") == 1, lines
    assert all(len(line.encode()) <= 75 for line in lines)


def test_team_names_are_not_markup_in_chart_labels():
    from facilitation.reports.builder.charts import decision_time_chart

    name = '<a href="https://attacker.invalid/">Team A</a> & co'
    chart = decision_time_chart(SimpleNamespace(decision_times=[{"team": name, "times_ms": [1000, 2000]}], cards=3))
    label = chart.figure["data"][0]["name"]
    assert "<" not in label and ">" not in label
    assert label == "&lt;a href=\"https://attacker.invalid/\"&gt;Team A&lt;/a&gt; &amp; co"


def test_all_digit_passwords_are_refused(db):
    with pytest.raises(ServiceError) as exc:
        services.user_create(username="digits", password="20261127094512")
    assert exc.value.code == "bad_password"


def test_gunicorn_sends_no_server_header(web_processes):
    (base,) = web_processes(1)
    with urllib.request.urlopen(f"{base}/accounts/login/", timeout=20) as r:
        assert r.status == 200
        assert r.headers.get("Server") is None, r.headers.get("Server")


def test_the_embedded_sqlite_file_is_readable_by_its_owner_only(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(COINLAB_VAR_DIR=str(tmp_path / "var"), PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="coinlab.settings")
    code = ("import os; os.umask(0o022); import django; django.setup(); from django.db import connection; "
            "connection.ensure_connection(); connection.cursor().execute('create table t (x int)')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    db = tmp_path / "var" / "coinlab.sqlite3"
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    for extra in ("coinlab.sqlite3-wal", "coinlab.sqlite3-shm"):
        p = tmp_path / "var" / extra
        if p.exists():
            assert stat.S_IMODE(p.stat().st_mode) & 0o077 == 0, extra
