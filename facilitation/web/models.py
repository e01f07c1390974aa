"""Front-end data: replay bookmarks and annotations, per-session UI settings.

The after-action review reads :class:`Bookmark` and :class:`Annotation`; both are
deliberately plain (documented in ``facilitation/web/README.md``):

``Bookmark(session, seq, author, text, created_at)``
    "Look at this moment": ``seq`` is the ``SessionEvent.seq`` after which the
    moment is shown (0 = the set-up position); ``text`` is a short title.

``Annotation(session, seq, author, text, created_at)``
    A longer comment on the moment after event ``seq``.

``SessionUISettings(session, timer_expiry)``
    What happens when the optional per-decision timer
    (``ClassSession.decision_timer_seconds``) runs out: ``warn`` (the team sees
    it has run out and may still decide) or ``bot`` (the seat's bot decides).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Bookmark(models.Model):
    session = models.ForeignKey("facilitation.ClassSession", on_delete=models.CASCADE,
                                related_name="bookmarks")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                               related_name="+")
    text = models.CharField(_("title"), max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq", "id"]
        indexes = [models.Index(fields=["session", "seq"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.text}"


class Annotation(models.Model):
    session = models.ForeignKey("facilitation.ClassSession", on_delete=models.CASCADE,
                                related_name="annotations")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                               related_name="+")
    text = models.TextField(_("annotation"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq", "id"]
        indexes = [models.Index(fields=["session", "seq"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.text[:40]}"


class SessionUISettings(models.Model):
    class Expiry(models.TextChoices):
        WARN = "warn", _("Warn only")
        BOT = "bot", _("The seat's bot decides")

    session = models.OneToOneField("facilitation.ClassSession", on_delete=models.CASCADE,
                                   related_name="ui_settings")
    timer_expiry = models.CharField(max_length=8, choices=Expiry.choices, default=Expiry.WARN)

    def __str__(self) -> str:
        return f"UI settings for session {self.session_id}"
