"""Input validation and output shapes of the REST API (no business logic here)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from facilitation.models import ClassSession, Course, JoinCode, Seat, Team, TeamIntent

# ---- output -------------------------------------------------------------------------------


# A decision timer of at most a week (the column is a 32-bit integer; fuzzing found the overflow).
MAX_TIMER_SECONDS = 7 * 24 * 3600


@extend_schema_field(OpenApiTypes.STR)
class UserRefField(serializers.RelatedField):
    def to_representation(self, value):
        return value.get_username()


class CourseOut(serializers.ModelSerializer):
    instructors = UserRefField(many=True, read_only=True)
    reviewers = UserRefField(many=True, read_only=True)

    class Meta:
        model = Course
        fields = ["id", "title", "description", "instructors", "reviewers", "created_at"]


class TeamOut(serializers.ModelSerializer):
    members = UserRefField(many=True, read_only=True)
    seats = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "session", "name", "color", "members", "seats"]

    def get_seats(self, obj) -> list[str]:
        return [s.seat_key for s in obj.seats.all()]


class SeatOut(serializers.ModelSerializer):
    team_name = serializers.CharField(source="team.name", default=None, read_only=True)

    class Meta:
        model = Seat
        fields = ["id", "seat_key", "team", "team_name", "bot_kind"]


class SessionOut(serializers.ModelSerializer):
    """``seed`` and ``options`` only for instructors and reviewers: with the open engine they
    would let a student recompute hidden information."""

    seats = SeatOut(many=True, read_only=True)
    teams = TeamOut(many=True, read_only=True)
    seed = serializers.SerializerMethodField()
    options = serializers.SerializerMethodField()
    my_seats = serializers.SerializerMethodField()

    class Meta:
        model = ClassSession
        fields = ["id", "course", "title", "scenario_key", "options", "seed", "scheduled_start",
                  "scheduled_end", "location", "status", "decision_timer_seconds", "require_rationale",
                  "snapshot_every", "head_seq", "result", "started_at", "finished_at", "teams", "seats",
                  "my_seats"]

    def _privileged(self, obj) -> bool:
        return bool(self.context.get("privileged"))

    def get_seed(self, obj) -> int | None:
        return obj.seed if self._privileged(obj) else None

    def get_options(self, obj) -> dict | None:
        return obj.options if self._privileged(obj) else None

    def get_my_seats(self, obj) -> list[str]:
        """The seats the requesting user's team plays in this session."""
        uid = self.context.get("user_id")
        return [s.seat_key for s in obj.seats.all() if s.team_id and uid in {m.pk for m in s.team.members.all()}]


class JoinCodeOut(serializers.ModelSerializer):
    class Meta:
        model = JoinCode
        fields = ["id", "course", "team", "code", "expires_at", "max_uses", "uses", "revoked", "created_at"]


class TeamIntentOut(serializers.ModelSerializer):
    author = UserRefField(read_only=True)

    class Meta:
        model = TeamIntent
        fields = ["id", "session", "team", "author", "statement", "seq", "created_at"]


# ---- input ----------------------------------------------------------------------------------


class StrictSerializer(serializers.Serializer):
    """Rejects unknown fields, so a typo is an error rather than silently ignored."""

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["Expected a JSON object."]})
        unknown = set(data) - set(self.fields)
        if unknown:
            raise serializers.ValidationError({k: ["Unknown field."] for k in sorted(unknown)})
        return super().to_internal_value(data)


class CourseIn(StrictSerializer):
    title = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")


class JoinCodeIn(StrictSerializer):
    team = serializers.IntegerField(required=False, allow_null=True, default=None)
    days = serializers.IntegerField(required=False, min_value=1, max_value=365, default=None)
    max_uses = serializers.IntegerField(required=False, min_value=1, max_value=1000, default=None,
                                        help_text="How many students may use it (default 40).")


class UsernameIn(StrictSerializer):
    username = serializers.CharField(max_length=150)


class ReplaceMemberIn(StrictSerializer):
    old = serializers.CharField(max_length=150)
    new = serializers.CharField(max_length=150)


class RegisterIn(StrictSerializer):
    code = serializers.CharField(max_length=64)
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    first_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    last_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class JoinIn(StrictSerializer):
    code = serializers.CharField(max_length=64)


class SessionIn(StrictSerializer):
    course = serializers.IntegerField()
    title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    scenario_key = serializers.CharField(max_length=64)
    options = serializers.DictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62, default=None)
    scheduled_start = serializers.DateTimeField(required=False, allow_null=True, default=None)
    scheduled_end = serializers.DateTimeField(required=False, allow_null=True, default=None)
    location = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    decision_timer_seconds = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                                      max_value=MAX_TIMER_SECONDS, default=None)
    require_rationale = serializers.BooleanField(required=False, default=False)
    teams = serializers.ListField(child=serializers.CharField(max_length=100), required=False, default=list)
    seats = serializers.DictField(child=serializers.CharField(max_length=100), required=False, default=dict)


class SessionPatchIn(StrictSerializer):
    title = serializers.CharField(max_length=200, required=False)
    scheduled_start = serializers.DateTimeField(required=False, allow_null=True)
    scheduled_end = serializers.DateTimeField(required=False, allow_null=True)
    location = serializers.CharField(required=False, allow_blank=True, max_length=200)
    decision_timer_seconds = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                                      max_value=MAX_TIMER_SECONDS)
    require_rationale = serializers.BooleanField(required=False)
    options = serializers.DictField(required=False)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)


class ReasonIn(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class NoteIn(StrictSerializer):
    text = serializers.CharField(max_length=5000)


class OverrideIn(StrictSerializer):
    action = serializers.ChoiceField(choices=["undo_last", "adjust"])
    reason = serializers.CharField(max_length=2000)
    track = serializers.CharField(required=False, max_length=64)
    value = serializers.JSONField(required=False)


class DirectIn(StrictSerializer):
    seat = serializers.CharField(max_length=64)
    choice = serializers.CharField(max_length=200)
    reason = serializers.CharField(max_length=2000)


class TeamIn(StrictSerializer):
    name = serializers.CharField(max_length=100)
    color = serializers.CharField(max_length=16, required=False, allow_blank=True, default="")


class SeatAssignIn(StrictSerializer):
    team = serializers.IntegerField(required=False, allow_null=True, default=None)
    bot_kind = serializers.CharField(required=False, allow_blank=True, default="", max_length=32)


class IntentIn(StrictSerializer):
    team = serializers.IntegerField()
    statement = serializers.CharField(max_length=5000)


class SubmitIn(StrictSerializer):
    choice = serializers.CharField(max_length=200)
    seq = serializers.IntegerField(min_value=0)
    idempotency_key = serializers.CharField(required=False, allow_blank=True, default="", max_length=128)
    rationale = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)  # = services.TEXT_MAX
    decision_ms = serializers.IntegerField(required=False, allow_null=True, min_value=0, default=None)


class PlanIn(StrictSerializer):
    """A seat's plan (issue 16.7): the choice ids of its steps, in order (facilitation.plans)."""

    plan = serializers.ListField(child=serializers.CharField(max_length=1000), min_length=1, max_length=200)
    seq = serializers.IntegerField(min_value=0)
    idempotency_key = serializers.CharField(required=False, allow_blank=True, default="", max_length=128)
    rationale = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)
    decision_ms = serializers.IntegerField(required=False, allow_null=True, min_value=0, default=None)


class PlanDraftIn(StrictSerializer):
    steps = serializers.ListField(child=serializers.CharField(max_length=1000), min_length=0, max_length=200,
                                  required=False, default=list)


class PlanOut(serializers.Serializer):
    seq = serializers.IntegerField()
    events = serializers.ListField(child=serializers.IntegerField())
    status = serializers.CharField()
    replayed = serializers.BooleanField()
    steps = serializers.IntegerField()


class UndoIn(StrictSerializer):
    seq = serializers.IntegerField(min_value=0)


class SubmitOut(serializers.Serializer):
    seq = serializers.IntegerField()
    events = serializers.ListField(child=serializers.IntegerField())
    status = serializers.CharField()
    replayed = serializers.BooleanField(required=False)
    undone = serializers.IntegerField(required=False)


class ErrorOut(serializers.Serializer):
    error = serializers.CharField()
    detail = serializers.CharField()
