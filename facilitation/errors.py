"""Errors raised by services; the API turns them into ``{"error", "detail"}`` 4xx answers."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message, code: str | None = None, status: int | None = None, **extra):
        """``message``: text, or an engine message (e.g. an ``IllegalChoice``'s), which is
        rendered in the active language and kept as ``message_msg`` for the API."""
        from facilitation.text import is_message, tr

        self.message_msg = message if is_message(message) else None
        message = tr(message) if self.message_msg is not None else message
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status
        self.extra = extra


class ValidationFailed(ServiceError):
    status = 400
    code = "invalid"


class NotAllowed(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    """The request was well formed but the session moved on (stale seq, paused, finished...)."""

    status = 409
    code = "conflict"
