"""Issue 14, second security pass: no side channel to the other side's secrets.

Item 1: ETags say only that something changed (keyed with the server's secret, never a hash
over the log's head hash, which covers hidden payloads).
Item 2: an undo (a student's, or the facilitator's ``undo_last``) of a secret decision is as
secret as what it undoes.
Item 3: session seeds are 128 random bits kept on the server; bots do not expose them.
"""

from __future__ import annotations

import hashlib

import pytest
from django.test import override_settings

from facilitation import selectors, services
from facilitation.api.views import _tag
from facilitation.web.views.play import _etag_of


def test_api_etag_does_not_depend_on_the_hidden_head_hash(peru_session):
    """Two sessions alike in everything a student can see but the (secret-covering) head hash
    answer the same ETag; and today's formula, a plain hash of guessable values, is not it."""
    sess = peru_session.session
    tag = _tag(sess, peru_session.seat_a, 0)
    sess.head_hash = hashlib.sha256(b"another secret move").hexdigest()
    assert _tag(sess, peru_session.seat_a, 0) == tag
    raw = f"{sess.pk}:{peru_session.seat_a}:0:{sess.head_seq}:{sess.status}:{sess.updated_at.isoformat()}"
    assert tag != hashlib.sha256(raw.encode()).hexdigest()[:32]


def test_etags_are_keyed_with_the_server_secret(peru_session):
    """Without the server's key nobody can compute an ETag offline (API and play page alike)."""
    sess = peru_session.session
    api = _tag(sess, peru_session.seat_a, 0)
    page = _etag_of(sess.pk, sess.head_seq, sess.status, peru_session.seat_a, sess.updated_at.isoformat())
    with override_settings(SECRET_KEY="another-server-key-" + "x" * 40):
        assert _tag(sess, peru_session.seat_a, 0) != api
        assert _etag_of(sess.pk, sess.head_seq, sess.status, peru_session.seat_a,
                        sess.updated_at.isoformat()) != page
