"""A consistent rewrite of a whole chain passes the hash-chain check; a signed receipt of the
head, kept outside the database, catches it (facilitation/receipts.py, docs/security.md)."""

from __future__ import annotations

import io
import logging

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from facilitation import eventlog, receipts
from facilitation.models import SessionEvent
from tests.conftest import play_moves


def _rewrite_consistently(session, seq: int, rationale: str) -> None:
    """What someone with write access to the database can do: change a row and recompute every
    later hash, so the chain is consistent again (the model refuses updates: raw queryset)."""
    prev = SessionEvent.objects.get(session=session, seq=seq - 1).hash if seq > 1 else ""
    for ev in SessionEvent.objects.filter(session=session, seq__gte=seq).order_by("seq"):
        if ev.seq == seq:
            ev.rationale = rationale
        ev.prev_hash = prev
        ev.hash = eventlog.row_hash(ev)
        SessionEvent.objects.filter(pk=ev.pk).update(rationale=ev.rationale, prev_hash=ev.prev_hash, hash=ev.hash)
        prev = ev.hash
    type(session).objects.filter(pk=session.pk).update(head_hash=prev)
    session.refresh_from_db()


def test_a_receipt_catches_a_consistent_rewrite_that_the_chain_does_not(peru_session):
    g = peru_session
    play_moves(g, 4)
    kept = receipts.receipt(g.session)
    decided = SessionEvent.objects.filter(session=g.session, kind="decision").order_by("seq").first()
    assert receipts.check(g.session, kept).ok
    _rewrite_consistently(g.session, decided.seq, "a rationale the student never wrote")
    assert eventlog.verify(g.session).ok, "the rewrite is consistent: the chain alone cannot tell"
    checked = receipts.check(g.session, kept)
    assert not checked.ok and "rewritten" in checked.message
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_session", str(g.session.pk), "--receipt", kept, stdout=out)
    assert "receipt FAILED" in out.getvalue()


def test_a_receipt_cannot_be_made_without_the_key(peru_session):
    g = peru_session
    play_moves(g, 2)
    good = receipts.receipt(g.session)
    forged = good.rsplit(":", 1)[0] + ":" + "0" * 32
    assert not receipts.check(g.session, forged).ok
    with override_settings(COINLAB_LOG_RECEIPT_KEY="another key that the attacker chose, 40+ chars long"):
        assert not receipts.check(g.session, good).ok, "a receipt is bound to the server's key"


def test_receipts_are_published_outside_the_database_and_shown_to_the_instructor(peru_session, caplog,
                                                                                django_capture_on_commit_callbacks):
    from facilitation import services

    g = peru_session
    with caplog.at_level(logging.INFO, logger="coinlab.audit"), django_capture_on_commit_callbacks(execute=True):
        services.session_pause(session=g.session, user=g.people.instructor, reason="break")
    g.session.refresh_from_db()
    assert receipts.receipt(g.session) in caplog.text
    c = Client()
    c.force_login(g.people.instructor)
    assert receipts.receipt(g.session) in c.get(f"/sessions/{g.session.pk}/manage/").content.decode()
    student = Client()
    student.force_login(g.people.student_a)
    assert receipts.PREFIX not in student.get(f"/sessions/{g.session.pk}/play/").content.decode()
