"""Log receipts: the head of a session's hash chain, signed with a key the database does not
hold (issue 14, "what the hash chain does and does not prove").

The hash chain (:mod:`facilitation.eventlog`) shows that the rows agree with one another; it
cannot show that they are the rows that were written: someone with write access to the
database can rewrite a whole session consistently (change one decision, recompute every later
hash) and ``verify_session`` passes. A receipt pins the chain down from outside the database:

    coinlab-log:<session id>:<seq>:<hash of event seq>:<signature>

The signature is an HMAC-SHA256 of the first four parts keyed with ``COINLAB_LOG_RECEIPT_KEY``
(default: a key derived from ``SECRET_KEY``; both live in the environment or under ``var/``,
never in the database), so nobody with only database access can make a receipt for a rewritten
chain. Receipts are published where the database cannot reach them: written to the
``coinlab.audit`` log (the server's log files) when a session starts, is paused, resumed or
ends, and shown to the instructor on the session's page, to keep (print, e-mail, notes).
``manage.py verify_session ID --receipt TEXT`` checks that the log still holds that event with
that hash: a rewrite of anything up to that event is caught.

What receipts do not catch: a change after the newest receipt anyone kept; someone who also
holds the key (the server's environment) and the kept receipts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from facilitation.models import ClassSession, SessionEvent

PREFIX = "coinlab-log"
audit = logging.getLogger("coinlab.audit")


def _signature(session_id: int, seq: int, head_hash: str) -> str:
    key = getattr(settings, "COINLAB_LOG_RECEIPT_KEY", "") or settings.SECRET_KEY
    return salted_hmac("coinlab.log.receipt", f"{session_id}:{seq}:{head_hash}", secret=key,
                       algorithm="sha256").hexdigest()[:32]


def receipt(session: ClassSession) -> str:
    """The signed receipt of the session's current head (``head_seq``, ``head_hash``)."""
    return f"{PREFIX}:{session.pk}:{session.head_seq}:{session.head_hash}:" \
           f"{_signature(session.pk, session.head_seq, session.head_hash)}"


def publish(session: ClassSession, moment: str) -> str:
    """Write the session's receipt to the audit log (outside the database) once the current
    transaction commits (a rolled-back head is never published); returns it."""
    from django.db import transaction

    text = receipt(session)
    transaction.on_commit(lambda: audit.info("session %s %s: %s", session.pk, moment, text))
    return text


@dataclass
class ReceiptCheck:
    ok: bool
    message: str


def check(session: ClassSession, text: str) -> ReceiptCheck:
    """Whether the log of ``session`` still holds the event a receipt names, with its hash."""
    parts = (text or "").strip().split(":")
    if len(parts) != 5 or parts[0] != PREFIX:
        return ReceiptCheck(False, "not a CoinLab log receipt")
    _prefix, sid, seq, head_hash, sig = parts
    if not (sid.isdigit() and seq.isdigit()):
        return ReceiptCheck(False, "not a CoinLab log receipt")
    if int(sid) != session.pk:
        return ReceiptCheck(False, f"the receipt is for session {sid}")
    if not constant_time_compare(sig, _signature(int(sid), int(seq), head_hash)):
        return ReceiptCheck(False, "the receipt's signature is wrong (forged, or made with another key)")
    if int(seq) == 0:
        return ReceiptCheck(True, "receipt of the empty log")
    ev = SessionEvent.objects.filter(session=session, seq=int(seq)).only("hash").first()
    if ev is None:
        return ReceiptCheck(False, f"event {seq} of the receipt is missing from the log")
    if ev.hash != head_hash:
        return ReceiptCheck(False, f"event {seq} no longer has the hash of the receipt: the log was rewritten "
                                   f"up to or before it")
    return ReceiptCheck(True, f"event {seq} has the receipt's hash")
