"""The classroom model and the event log (ARCHITECTURE.md, "The event log").

Field names here are stable: the web front end and the AAR builder read them.

People and roles
    Django users in the groups ``instructor``, ``student`` and ``reviewer``
    (:data:`ROLE_GROUPS`). Rights are per course: ``Course.instructors`` run
    the course, ``Course.students`` are enrolled, ``Course.reviewers`` may read
    finished sessions of the course.

Course
    ``title``, ``description``, ``instructors`` (M2M User), ``students`` (M2M
    User), ``reviewers`` (M2M User), ``created_by``, ``created_at``.

JoinCode
    An invitation: ``course``, ``team`` (optional: joining puts the student on
    that team), ``code`` (unguessable, ``secrets.token_urlsafe``), ``expires_at``,
    ``max_uses`` (a limit on every new code; 0 = unlimited on older codes), ``uses``,
    ``revoked``, ``created_by``.

ClassSession
    One game played by a class: ``course``, ``title``, ``scenario_key``
    (``engine.load`` key), ``options`` (JSON, passed to ``Rules.setup``),
    ``seed`` (public, optional) or ``secret_seed`` (128 random bits, see
    ``engine_seed``), ``scheduled_start``/``scheduled_end``, ``location``, ``status``
    (scheduled/live/paused/finished), ``decision_timer_seconds`` (None = no
    timer), ``require_rationale``, ``snapshot_every``.
    Cache of the log: ``head_seq`` (seq of the last event, 0 = none),
    ``head_hash``, ``state`` (``Rules.serialize`` of the current state),
    ``result`` (``Rules.result`` once over), ``started_at``, ``finished_at``.

Team
    ``session``, ``name``, ``color``, ``members`` (M2M User).

Seat
    A scenario seat in a session: ``session``, ``seat_key`` (the engine's seat
    id), ``team`` (a Team) or ``bot_kind`` ("random", "heuristic", ... see
    ``engine.bots.base.make_bot``); exactly one of the two, or neither while
    the session is being set up.

SessionEvent
    Append-only log row: ``session``, ``seq`` (1, 2, 3 ... gap-free, unique per
    session), ``parent_seq`` (the event whose resulting state this event
    started from: the previous event, except for undo/override-undo events,
    which point back to the state they restore), ``kind``
    (decision/undo/system/facilitator/bot), ``seat``, ``actor`` (User or None
    for bots/system), ``payload`` (JSON: for decisions ``choice`` (id),
    ``label``, ``prompt`` (text), ``rule``, ``prompt_kind``, ``turn``; for bots
    also ``bot`` and ``reason``; for undo ``undone_seq``, ``back_to``; for
    facilitator events ``action`` and ``reason``/``text``), ``facts`` (the
    engine's facts, unredacted: redact per seat with ``engine.facts_for_seat``),
    ``metrics`` (``Rules.metrics`` after the event), ``rationale``,
    ``decision_ms`` (ms from the prompt being shown to the choice),
    ``created_at`` (server time), ``prev_hash``, ``hash`` (sha256 chain, see
    :func:`facilitation.eventlog.event_hash`).

StateSnapshot
    ``session``, ``seq``, ``state``: the state after event ``seq`` (every
    ``ClassSession.snapshot_every`` events).

SubmissionKey
    Idempotency keys of submissions: ``session``, ``key``, ``user``,
    ``request`` (what was asked), ``response`` (what was answered); a repeated
    key returns the stored response and applies nothing.

TeamIntent
    A team's statement of intent: ``session``, ``team``, ``author``,
    ``statement``, ``seq`` (head of the log when written), ``created_at``.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

ROLE_INSTRUCTOR = "instructor"
ROLE_STUDENT = "student"
ROLE_REVIEWER = "reviewer"
ROLE_GROUPS = (ROLE_INSTRUCTOR, ROLE_STUDENT, ROLE_REVIEWER)


#: Join codes are read aloud and typed from a projector: one case, and no characters that look
#: alike (no 0/O, 1/I/L). 12 of these 31 characters: about 59 bits.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 12


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def normalize_join_code(code: str) -> str:
    """A code as typed (any case, spaces or dashes between the groups) in its stored form.
    Codes made before readable codes (mixed case, ``-`` and ``_``) are kept as they are."""
    raw = (code or "").strip()
    squeezed = "".join(ch for ch in raw if ch not in " -").upper()
    if len(squeezed) == JOIN_CODE_LENGTH and all(ch in JOIN_CODE_ALPHABET for ch in squeezed):
        return squeezed
    return raw


def format_join_code(code: str) -> str:
    """``ABCDEFGHJKMN`` as ``ABCD-EFGH-JKMN`` (older codes as they are)."""
    if len(code) == JOIN_CODE_LENGTH and all(ch in JOIN_CODE_ALPHABET for ch in code):
        return "-".join(code[i:i + 4] for i in range(0, JOIN_CODE_LENGTH, 4))
    return code


class Course(models.Model):
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    instructors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="courses_taught",
                                         blank=True)
    students = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="courses_enrolled",
                                      blank=True)
    reviewers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="courses_reviewed",
                                       blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.title


class ClassSession(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        LIVE = "live", "Live"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="sessions")
    title = models.CharField(max_length=200)
    scenario_key = models.CharField(max_length=64)
    # eventlog.rules_fingerprint() of the engine that recorded the log (verify_session
    # uses it to tell rule changes apart from tampering).
    rules_version = models.CharField(max_length=32, blank=True)
    options = models.JSONField(default=dict, blank=True)
    # The game's seed (issue 14 item 3): ``secret_seed``, 128 random bits (hex) from ``secrets``,
    # never shown to anyone, for every session scheduled without an explicit seed; ``seed``, a
    # short public seed, only when the instructor asks for one (bot-only simulations, replaying a
    # known game), and for sessions made before secret seeds (they still replay from it).
    seed = models.BigIntegerField(null=True, blank=True, default=None)
    secret_seed = models.CharField(max_length=64, blank=True, default="")
    scheduled_start = models.DateTimeField(null=True, blank=True)
    scheduled_end = models.DateTimeField(null=True, blank=True)
    location = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    decision_timer_seconds = models.PositiveIntegerField(null=True, blank=True)
    require_rationale = models.BooleanField(default=False)
    snapshot_every = models.PositiveIntegerField(default=25)
    # cache of the log
    head_seq = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, blank=True)
    state = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # A session of a vignette run (issue #18): its start position and its short run's end.
    vignette_run = models.ForeignKey("VignetteRun", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="sessions")

    class Meta:
        ordering = ["scheduled_start", "id"]

    def __str__(self) -> str:
        return f"{self.title} ({self.scenario_key}, {self.status})"

    def engine_seed(self) -> int:
        """The seed handed to ``Rules.setup``: the secret one if any, else the public one."""
        if self.secret_seed:
            return int(self.secret_seed, 16)
        return int(self.seed or 0)

    def bot_seed(self, seat: str) -> int:
        """A bot's seed for its next move. From a secret seed: one-way (SHA-256), so a bot's
        observable random picks never lead back to the seed that shuffled the deck. From a
        public seed (nothing to hide): as before secret seeds, so those games play the same."""
        if not self.secret_seed:
            return int(self.seed or 0) * 100_003 + self.head_seq
        raw = f"coinlab-bot:{self.secret_seed}:{seat}:{self.head_seq}".encode()
        return int.from_bytes(hashlib.sha256(raw).digest()[:8], "big")


class Team(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100)
    color = models.CharField(max_length=16, blank=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="teams", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["session", "name"], name="team_unique_name")]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="seats")
    seat_key = models.CharField(max_length=64)
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    bot_kind = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seat_key"], name="seat_unique_key"),
            models.CheckConstraint(condition=Q(team__isnull=True) | Q(bot_kind=""),
                                   name="seat_team_or_bot"),
        ]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    def __str__(self) -> str:
        who = self.team.name if self.team_id else (f"bot:{self.bot_kind}" if self.bot_kind else "vacant")
        return f"{self.seat_key} -> {who}"


class JoinCode(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="join_codes")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="join_codes")
    code = models.CharField(max_length=64, unique=True, default=new_join_code)
    expires_at = models.DateTimeField()
    # How many students may use the code (issue 14 item 7: every new code has a limit, shown to
    # the instructor as "uses / max_uses"; 0, unlimited, only on codes made before that).
    max_uses = models.PositiveIntegerField(default=40)
    uses = models.PositiveIntegerField(default=0)
    revoked = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    @property
    def display(self) -> str:
        """The code as people read it (groups of four)."""
        return format_join_code(self.code)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"join code for {self.team or self.course}"


class SessionEvent(models.Model):
    """Append-only: rows are created by :mod:`facilitation.eventlog` and never changed."""

    class Kind(models.TextChoices):
        DECISION = "decision", "Decision"
        UNDO = "undo", "Undo"
        SYSTEM = "system", "System"
        FACILITATOR = "facilitator", "Facilitator"
        BOT = "bot", "Bot"

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    parent_seq = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat = models.CharField(max_length=64, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.PROTECT, related_name="+")
    payload = models.JSONField(default=dict)
    facts = models.JSONField(default=list)
    metrics = models.JSONField(default=dict)
    rationale = models.TextField(blank=True)
    decision_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="event_unique_seq")]

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise RuntimeError("SessionEvent rows are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise RuntimeError("SessionEvent rows are append-only.")

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} {self.seat}"


class StateSnapshot(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="snapshot_unique_seq")]


class SubmissionKey(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="submission_keys")
    key = models.CharField(max_length=128)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    request = models.JSONField(default=dict)
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "key"], name="submission_unique_key")]


class TeamIntent(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="intents")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="intents")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                               related_name="+")
    statement = models.TextField()
    seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "created_at", "id"]


class VignetteRun(models.Model):
    """One vignette scheduled for several teams at once (issue #18): each team its own session
    from the same position, with the same secret seed (the same cards), bots in the other seats.
    ``document`` keeps the vignette as it was scheduled (facilitation/vignettes)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="vignette_runs")
    vignette_id = models.CharField(max_length=64)
    title = models.CharField(max_length=200)
    seat_key = models.CharField(max_length=64)
    document = models.JSONField()
    # cards_played at the start position, for ``{"cards": N}`` runs
    start_cards = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title


class SavedVignette(models.Model):
    """A vignette an instructor saved from a session's position (issue #18 deliver 5): the same
    document shape as the shipped library, validated the same way."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="saved_vignettes")
    document = models.JSONField()
    from_session = models.ForeignKey(ClassSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    from_seq = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
