"""Running modes, the Celery app with a real worker, the calendar export, the API schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from facilitation import services
from facilitation.calendar import sessions_to_ics
from facilitation.models import ClassSession
from tests.conftest import ROOT, create_peru_game, play_moves

PRINT_SETTINGS = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'name': str(s.DATABASES['default']['NAME']),"
    " 'eager': s.CELERY_TASK_ALWAYS_EAGER, 'broker': s.CELERY_BROKER_URL, 'cache': s.CACHES['default']['BACKEND'],"
    " 'secure': s.SESSION_COOKIE_SECURE, 'csrf_secure': s.CSRF_COOKIE_SECURE, 'hosts': s.ALLOWED_HOSTS,"
    " 'debug': s.DEBUG, 'media': str(s.MEDIA_ROOT), 'key': s.SECRET_KEY}))"
)


def _settings(tmp_path, **env) -> dict:
    base = {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG",
                         "COINLAB_SECURE_COOKIES")}
    base.update({"DJANGO_SETTINGS_MODULE": "coinlab.settings", "COINLAB_VAR_DIR": str(tmp_path / "var"),
                 "PYTHONPATH": str(ROOT)})
    base.update(env)
    out = subprocess.run([sys.executable, "-c", PRINT_SETTINGS], env=base, cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_embedded_default_is_sqlite_under_var_with_eager_celery(tmp_path):
    s = _settings(tmp_path)
    assert s["engine"].endswith("sqlite3") and s["name"] == str(tmp_path / "var" / "coinlab.sqlite3")
    assert s["eager"] is True and s["broker"] == "memory://"
    assert s["cache"].endswith("LocMemCache")
    assert s["secure"] is False, "plain http on a laptop must keep working"
    assert s["media"] == str(tmp_path / "var" / "media")
    # The generated secret key is kept, so sessions survive a restart.
    assert _settings(tmp_path)["key"] == s["key"] and len(s["key"]) > 40


def test_production_settings_come_from_the_environment(tmp_path):
    s = _settings(tmp_path, DATABASE_URL="postgres://coinlab:pw@db.example:5432/coinlab",
                  REDIS_URL="redis://cache.example:6379/0", SECRET_KEY="k" * 50,
                  ALLOWED_HOSTS="coinlab.example.org,www.coinlab.example.org")
    assert s["engine"].endswith("postgresql") and s["name"] == "coinlab"
    assert s["eager"] is False and s["broker"] == "redis://cache.example:6379/0"
    assert s["cache"].endswith("RedisCache")
    assert s["secure"] is True and s["csrf_secure"] is True and s["debug"] is False
    assert s["hosts"] == ["coinlab.example.org", "www.coinlab.example.org"]
    assert s["key"] == "k" * 50


@pytest.mark.integration
def test_a_real_celery_worker_runs_the_verify_task(people, celery_worker):
    """``celery -A coinlab worker`` against the test database and Redis."""
    from django.conf import settings

    from facilitation.tasks import session_verify

    assert not settings.CELERY_TASK_ALWAYS_EAGER, "the test runner sets REDIS_URL"
    game = create_peru_game(people, seed=4)
    play_moves(game, 5)
    result = session_verify.delay(game.session.pk).get(timeout=60)
    assert result == {"session": game.session.pk, "ok": True, "events": game.session.head_seq, "errors": [],
                      "rules_changed": False, "rules_differences": []}
    ClassSession.objects.filter(pk=game.session.pk).update(state={"tampered": True})
    result = session_verify.delay(game.session.pk).get(timeout=60)
    assert result["ok"] is False and "cached session state differs" in " ".join(result["errors"])


def test_calendar_export_lists_scheduled_sessions(people, api_for):
    import datetime as dt

    game = create_peru_game(people, start=False, scheduled_start=dt.datetime(2030, 3, 4, 9, 0, tzinfo=dt.UTC),
                            scheduled_end=dt.datetime(2030, 3, 4, 10, 30, tzinfo=dt.UTC), location="Room 5, Hall B")
    services.session_create(course=game.course, user=people.instructor, title="Unscheduled", scenario_key="peru")
    r = api_for("student_a").get(f"/api/courses/{game.course.pk}/calendar.ics")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/calendar")
    text = r.content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert text.count("BEGIN:VEVENT") == 1, "sessions without a start time are left out"
    assert "DTSTART:20300304T090000Z" in text and "DTEND:20300304T103000Z" in text
    assert "LOCATION:Room 5\\, Hall B" in text and f"UID:coinlab-session-{game.session.pk}@" in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))


def test_ics_folds_long_lines_and_escapes(people):
    game = create_peru_game(people, start=False)
    s = game.session
    s.title = "Día de práctica; " + "x" * 120
    s.scheduled_start = s.created_at
    text = sessions_to_ics([s])
    unfolded = text.replace("\r\n ", "")
    assert "SUMMARY:Día de práctica\\; " + "x" * 120 in unfolded
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))


def test_openapi_schema_and_local_swagger_ui(api_for):
    r = api_for(None).get("/api/schema/")
    assert r.status_code == 200
    body = r.content.decode()
    for path in ("/api/sessions/{session_id}/seats/{seat_key}/submit/", "/api/join/",
                 "/api/sessions/{session_id}/seats/{seat_key}/events/", "/api/courses/{course_id}/calendar.ics"):
        assert path in body, path
    docs = api_for(None).get("/api/docs/").content.decode()
    assert "swagger-ui" in docs and "cdn" not in docs.lower() and "/static/drf_spectacular_sidecar/" in docs


def test_admin_registers_every_model():
    from django.apps import apps
    from django.contrib import admin

    missing = [m.__name__ for m in apps.get_app_config("facilitation").get_models()
               if not admin.site.is_registered(m)]
    assert not missing


def test_event_stream_supports_after_and_etag(peru_session, api_for):
    game = peru_session
    play_moves(game, 4)
    seat = game.seat_a
    role = "student_a"
    url = f"/api/sessions/{game.session.pk}/seats/{seat}/events/"
    full = api_for(role).get(url)
    assert full.status_code == 200 and full["ETag"] and full.json()["more"] is False
    seqs = [e["seq"] for e in full.json()["events"]]
    assert seqs == list(range(1, game.session.head_seq + 1))
    part = api_for(role).get(url + "?after=3").json()["events"]
    assert [e["seq"] for e in part] == seqs[3:]
    again = api_for(role).get(url, HTTP_IF_NONE_MATCH=full["ETag"])
    assert again.status_code == 304
    play_moves(game, 1)
    assert api_for(role).get(url, HTTP_IF_NONE_MATCH=full["ETag"]).status_code == 200
    assert api_for(role).get(url + "?after=x").status_code == 400
