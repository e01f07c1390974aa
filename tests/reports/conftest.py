"""Fixtures for the after-action review tests: people, a course, complete games
played through the real services (the kaleido server they draw with: tests/conftest.py)."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from django.conf import settings

from .helpers import make_user, play_peru_game


@pytest.fixture(scope="session", autouse=True)
def report_root():
    """Report files of this test run go to a private temporary folder (shared with
    any worker subprocess through COINLAB_REPORT_ROOT)."""
    path = tempfile.mkdtemp(prefix="coinlab-aar-test-")
    old = os.environ.get("COINLAB_REPORT_ROOT")
    os.environ["COINLAB_REPORT_ROOT"] = path
    yield path
    if old is None:
        os.environ.pop("COINLAB_REPORT_ROOT", None)
    else:
        os.environ["COINLAB_REPORT_ROOT"] = old
    shutil.rmtree(path, ignore_errors=True)


class World:
    """Committed once per test module: people, a finished bot-played Peru game with its
    built report, and a second Peru session still in progress."""

    def __init__(self):
        from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER, ROLE_STUDENT
        from facilitation.reports import services

        self.people = {
            "instructor": make_user("ines", role=ROLE_INSTRUCTOR),
            "reviewer": make_user("rita", role=ROLE_REVIEWER),
            "student_a": make_user("sam", role=ROLE_STUDENT),
            "student_b": make_user("sol", role=ROLE_STUDENT),
            "outsider": make_user("otto", role=ROLE_INSTRUCTOR),
        }
        students = [self.people["student_a"], self.people["student_b"]]
        self.finished = play_peru_game(instructor=self.people["instructor"], students=students,
                                       reviewer=self.people["reviewer"], title="Peru lab")
        self.live = play_peru_game(instructor=self.people["instructor"], students=students,
                                   reviewer=self.people["reviewer"], title="Peru lab 2", seed=12,
                                   human_moves=4, finish=False, note=False)
        report = services.report_request(self.finished, user=self.people["instructor"], enqueue=False)
        self.report = services.report_build(report.pk)
        assert self.report.status == "done", self.report.error

    def delete(self):
        from facilitation.models import Course

        Course.objects.filter(sessions__in=[self.finished.pk, self.live.pk]).delete()
        for u in self.people.values():
            type(u).objects.filter(pk=u.pk).delete()


@pytest.fixture(scope="module")
def world(request, django_db_setup, django_db_blocker, kaleido_server, report_root):
    """Module-scoped and deleted afterwards, so other apps' tests never see it. Its report plays
    the road not taken with the test run's counts (tests/conftest.py: one key decision, one game),
    or with a module's ``AAR_WHATIFS = (decisions, rollouts)``."""
    from django.test import override_settings

    decisions, rollouts = getattr(request.module, "AAR_WHATIFS", (settings.COINLAB_AAR_WHATIF_DECISIONS,
                                                                  settings.COINLAB_AAR_WHATIF_ROLLOUTS))
    with django_db_blocker.unblock(), override_settings(COINLAB_AAR_WHATIF_DECISIONS=decisions,
                                                        COINLAB_AAR_WHATIF_ROLLOUTS=rollouts):
        w = World()
    yield w
    with django_db_blocker.unblock():
        w.delete()


@pytest.fixture
def people(world, db):
    for u in world.people.values():
        u.refresh_from_db()
    return world.people


@pytest.fixture
def finished_peru(world, db):
    world.finished.refresh_from_db()
    return world.finished


@pytest.fixture
def live_peru(world, db):
    world.live.refresh_from_db()
    return world.live


@pytest.fixture
def built(world, db):
    world.report.refresh_from_db()
    return world.report


@pytest.fixture
def fresh_people(db):
    """People of one transactional test (the session-wide world is not visible there)."""
    from facilitation.models import ROLE_INSTRUCTOR, ROLE_STUDENT

    return {"instructor": make_user("tina", role=ROLE_INSTRUCTOR),
            "student_a": make_user("tom", role=ROLE_STUDENT), "student_b": make_user("tess", role=ROLE_STUDENT)}


@pytest.fixture
def no_enqueue(monkeypatch):
    """Requests create rows but send nothing to the broker (the test builds in-process)."""
    from facilitation.reports import services

    sent = []
    monkeypatch.setattr(services, "_enqueue", lambda rid: sent.append(rid))
    monkeypatch.setattr(services, "broker_check", lambda timeout=2.0: None)
    return sent
