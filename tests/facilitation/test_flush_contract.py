"""``eventlog.flush`` writes a move's rows without ``Model.save`` (one round trip, issue #8);
what it must keep in step with is written once, above ``eventlog.defer_writes`` (issue 13.7).
These checks fail when a model it writes grows something ``flush`` would silently skip."""

from __future__ import annotations

from django.db import models
from django.db.models.signals import post_save, pre_save

from facilitation.models import ClassSession, SessionEvent, StateSnapshot, SubmissionKey

INSERTED = (SessionEvent, StateSnapshot, SubmissionKey)


def test_rows_flush_inserts_have_no_save_signal_receivers():
    for model in INSERTED:
        for signal in (pre_save, post_save):
            assert not signal.has_listeners(model), f"{model.__name__}: flush sends no {signal} for inserted rows"


def test_no_save_override_that_flush_would_skip():
    assert StateSnapshot.save is models.Model.save
    assert SubmissionKey.save is models.Model.save
    assert ClassSession.save is models.Model.save
    # SessionEvent's only override refuses updates (append-only); flush only inserts
    assert SessionEvent.save.__qualname__ == "SessionEvent.save"


def test_the_session_row_save_is_seen_by_its_receivers():
    """The session row's receivers (the version cache, the pre-draw) are what flush sends
    ``post_save`` for, by hand."""
    assert post_save.has_listeners(ClassSession)
