"""Fixtures for the after-action review tests: people, a course, complete games
played through the real services, and one kaleido server for the test run."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from facilitation.reports import rendering

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


@pytest.fixture(scope="session")
def kaleido_server():
    """One warm kaleido server for the whole run, as in a worker process."""
    rendering.kaleido_start()
    yield
    rendering.kaleido_stop()


@pytest.fixture
def people(db):
    from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER, ROLE_STUDENT

    return {
        "instructor": make_user("ines", role=ROLE_INSTRUCTOR),
        "reviewer": make_user("rita", role=ROLE_REVIEWER),
        "student_a": make_user("sam", role=ROLE_STUDENT),
        "student_b": make_user("sol", role=ROLE_STUDENT),
        "outsider": make_user("otto", role=ROLE_INSTRUCTOR),
    }


@pytest.fixture
def finished_peru(people):
    return play_peru_game(instructor=people["instructor"], students=[people["student_a"], people["student_b"]],
                          reviewer=people["reviewer"])


@pytest.fixture
def no_enqueue(monkeypatch):
    """Requests create rows but send nothing to the broker (the test builds in-process)."""
    from facilitation.reports import services

    sent = []
    monkeypatch.setattr(services, "_enqueue", lambda rid: sent.append(rid))
    monkeypatch.setattr(services, "broker_check", lambda timeout=2.0: None)
    return sent
