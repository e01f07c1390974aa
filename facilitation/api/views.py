"""Thin API views: validate input, call a selector or a service, serialize the answer.

Errors: ``{"error": code, "detail": message}`` (see :mod:`facilitation.api.errors`).

Engine texts (prompts, choice labels, facts, seat and game titles) are answered in the
request's language (``Accept-Language``, or the ``django_language`` cookie) in their usual
fields (``"text"``, ``"label"``, ``"title"``...), and, when the game gives them as messages, also
as the structured message under the same key + ``_msg`` (``{"msg": template, "args": {...}}``)
for clients that render them themselves (``facilitation.text.with_texts``). ETags hold the
language.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.http import HttpResponse
from django.utils.crypto import salted_hmac
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from engine.core import registry
from facilitation import eventlog, plans, selectors, services
from facilitation.api import serializers as s
from facilitation.calendar import sessions_to_ics
from facilitation.errors import NotAllowed, NotFound, ServiceError, ValidationFailed
from facilitation.models import ClassSession, JoinCode, Seat, Team, TeamIntent
from facilitation.text import language, with_texts

User = get_user_model()
log = logging.getLogger(__name__)


def _valid(serializer_class, request) -> dict:
    ser = serializer_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def _require_instructor(user, course) -> None:
    """Before any user name is looked up (issue 14 item 11): a student or a reviewer never
    learns from a ``404 unknown_user`` which accounts exist."""
    if not selectors.course_is_instructor(user, course):
        raise NotAllowed("Only an instructor of this course may do that.")


def _user_by_name(username: str):
    u = User.objects.filter(username=username).first()
    if u is None:
        raise NotFound(f"There is no user {username!r}.", code="unknown_user")
    return u


def _session_out(request, session: ClassSession) -> dict:
    privileged = bool(selectors.session_roles(request.user, session) & {"instructor", "reviewer"})
    session = ClassSession.objects.prefetch_related("seats__team__members", "teams__members", "teams__seats").get(
        pk=session.pk)
    return s.SessionOut(session, context={"privileged": privileged, "user_id": request.user.pk}).data


def _etag_response(request, etag: str, build):
    tag = f'"{etag}"'
    inm = request.headers.get("If-None-Match", "")
    if tag in [t.strip().removeprefix("W/") for t in inm.split(",") if t.strip()]:
        resp = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        resp = Response(build())
    resp["ETag"] = tag
    resp["Cache-Control"] = "private, no-cache"
    return resp


ERRORS = {400: s.ErrorOut, 401: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut, 409: s.ErrorOut}


class ScenarioList(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The games that can be scheduled")
    def get(self, request):
        out = []
        for key in registry.keys():
            try:
                rules = engine.load(key)
                bots = rules.bot_kinds()
                options = rules.options()
            except Exception:  # noqa: BLE001 - a scenario that fails to load is left out, not fatal
                log.exception("scenario %s failed to load", key)
                continue
            out.append({"key": rules.key, "title": rules.title, "min_players": rules.min_players,
                        "max_players": rules.max_players,
                        "seats": [{"id": x.id, "title": x.title, "color": x.color} for x in rules.seats],
                        "bots": ["random", *bots],
                        "options": [{"key": o.key, "title": o.title, "kind": o.kind, "default": o.default,
                                     "choices": list(o.choices), "help": o.help} for o in options]})
        return Response(with_texts(out))


# ---- courses ---------------------------------------------------------------------------


class CourseList(APIView):
    @extend_schema(responses={200: s.CourseOut(many=True)}, summary="Courses you teach, take or review")
    def get(self, request):
        return Response(s.CourseOut(selectors.course_list_for_user(request.user), many=True).data)

    @extend_schema(request=s.CourseIn, responses={201: s.CourseOut, **ERRORS}, summary="Create a course")
    def post(self, request):
        data = _valid(s.CourseIn, request)
        course = services.course_create(user=request.user, **data)
        return Response(s.CourseOut(course).data, status=status.HTTP_201_CREATED)


class CourseDetail(APIView):
    @extend_schema(responses={200: s.CourseOut, **ERRORS})
    def get(self, request, course_id: int):
        return Response(s.CourseOut(selectors.course_get_for_user(request.user, course_id)).data)


class CourseJoinCodes(APIView):
    @extend_schema(responses={200: s.JoinCodeOut(many=True), **ERRORS}, summary="Join codes (instructors)")
    def get(self, request, course_id: int):
        course = selectors.course_get_for_user(request.user, course_id)
        if not selectors.course_is_instructor(request.user, course):
            raise NotAllowed("Only an instructor of this course may see its join codes.")
        return Response(s.JoinCodeOut(JoinCode.objects.filter(course=course), many=True).data)

    @extend_schema(request=s.JoinCodeIn, responses={201: s.JoinCodeOut, **ERRORS},
                   summary="Invite students: a new join code for the course or one team")
    def post(self, request, course_id: int):
        course = selectors.course_get_for_user(request.user, course_id)
        data = _valid(s.JoinCodeIn, request)
        team = None
        if data["team"] is not None:
            team = Team.objects.filter(pk=data["team"], session__course=course).first()
            if team is None:
                raise ValidationFailed("That team is not in this course.", code="unknown_team")
        jc = services.join_code_create(course=course, user=request.user, team=team, days=data["days"],
                                       max_uses=data["max_uses"])
        return Response(s.JoinCodeOut(jc).data, status=status.HTTP_201_CREATED)


class CourseReviewers(APIView):
    @extend_schema(request=s.UsernameIn, responses={200: s.CourseOut, **ERRORS},
                   summary="Grant a reviewer read-only access to the course's live and finished sessions")
    def post(self, request, course_id: int):
        course = selectors.course_get_for_user(request.user, course_id)
        _require_instructor(request.user, course)
        data = _valid(s.UsernameIn, request)
        services.course_reviewer_grant(course=course, user=request.user, reviewer=_user_by_name(data["username"]))
        return Response(s.CourseOut(course).data)


class CourseCalendar(APIView):
    @extend_schema(responses={(200, "text/calendar"): OpenApiTypes.STR, **ERRORS},
                   summary="The course's scheduled sessions as an iCalendar file")
    def get(self, request, course_id: int):
        course = selectors.course_get_for_user(request.user, course_id)
        sessions = selectors.session_list_for_user(request.user).filter(course=course)
        return _ics_response(sessions, f"CoinLab: {course.title}", f"coinlab-course-{course.pk}.ics")


class MyCalendar(APIView):
    @extend_schema(responses={(200, "text/calendar"): OpenApiTypes.STR}, summary="All your sessions (iCalendar)")
    def get(self, request):
        return _ics_response(selectors.session_list_for_user(request.user), "CoinLab sessions", "coinlab.ics")


def _ics_response(sessions, name: str, filename: str) -> HttpResponse:
    body = sessions_to_ics(sessions.select_related("course"), calendar_name=name)
    resp = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


class Join(APIView):
    @extend_schema(request=s.JoinIn, responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   summary="Join a course (and a team) with a join code")
    def post(self, request):
        data = _valid(s.JoinIn, request)
        jc = services.course_join(user=request.user, code=data["code"])
        return Response({"course": jc.course_id, "team": jc.team_id,
                         "session": jc.team.session_id if jc.team_id else None})


class Register(APIView):
    """Students sign up with the join code their instructor gave them (no account needed before)."""

    permission_classes = [AllowAny]

    @extend_schema(request=s.RegisterIn, responses={201: OpenApiTypes.OBJECT, **ERRORS},
                   summary="Create a student account with a join code (and log in)")
    def post(self, request):
        data = _valid(s.RegisterIn, request)
        user, jc = services.student_register(**data)
        auth_login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
        return Response({"username": user.get_username(), "course": jc.course_id, "team": jc.team_id,
                         "session": jc.team.session_id if jc.team_id else None},
                        status=status.HTTP_201_CREATED)


# ---- sessions -------------------------------------------------------------------------------


class SessionList(APIView):
    @extend_schema(responses={200: s.SessionOut(many=True)}, summary="Sessions you may open")
    def get(self, request):
        qs = selectors.session_list_for_user(request.user).prefetch_related(
            "seats__team__members", "teams__members", "teams__seats")
        out = []
        for sess in qs:
            privileged = bool(selectors.session_roles(request.user, sess) & {"instructor", "reviewer"})
            out.append(s.SessionOut(sess, context={"privileged": privileged, "user_id": request.user.pk}).data)
        return Response(out)

    @extend_schema(request=s.SessionIn, responses={201: s.SessionOut, **ERRORS}, summary="Schedule a session")
    def post(self, request):
        data = _valid(s.SessionIn, request)
        course = selectors.course_get_for_user(request.user, data.pop("course"))
        sess = services.session_create(course=course, user=request.user, **data)
        return Response(_session_out(request, sess), status=status.HTTP_201_CREATED)


class SessionDetail(APIView):
    @extend_schema(responses={200: s.SessionOut, **ERRORS})
    def get(self, request, session_id: int):
        return Response(_session_out(request, selectors.session_get_for_user(request.user, session_id)))

    @extend_schema(request=s.SessionPatchIn, responses={200: s.SessionOut, **ERRORS},
                   summary="Reschedule or change timer/rationale settings")
    def patch(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        selectors.session_require_instructor(request.user, sess)
        data = _valid(s.SessionPatchIn, request)
        sess = services.session_update(session=sess, user=request.user, **data)
        return Response(_session_out(request, sess))


def _session_action(service, serializer=None):
    class _View(APIView):
        @extend_schema(request=serializer, responses={200: s.SessionOut, **ERRORS},
                       summary=service.__doc__.splitlines()[0] if service.__doc__ else service.__name__)
        def post(self, request, session_id: int):
            sess = selectors.session_get_for_user(request.user, session_id)
            selectors.session_require_instructor(request.user, sess)
            kwargs = _valid(serializer, request) if serializer else {}
            sess = service(session=sess, user=request.user, **kwargs)
            return Response(_session_out(request, sess))

    _View.__name__ = f"Session_{service.__name__}"
    return _View


SessionStart = _session_action(services.session_start)
SessionPause = _session_action(services.session_pause, s.ReasonIn)
SessionResume = _session_action(services.session_resume)
SessionEnd = _session_action(services.session_end, s.ReasonIn)


class SessionNotes(APIView):
    @extend_schema(request=s.NoteIn, responses={201: OpenApiTypes.OBJECT, **ERRORS},
                   summary="Log a facilitator note")
    def post(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        selectors.session_require_instructor(request.user, sess)
        ev = services.facilitator_note(session=sess, user=request.user, **_valid(s.NoteIn, request))
        return Response(selectors.event_to_dict(ev, None), status=status.HTTP_201_CREATED)


class SessionOverrides(APIView):
    @extend_schema(request=s.OverrideIn, responses={201: OpenApiTypes.OBJECT, **ERRORS},
                   summary="Adjudicated override (undo the last decision, or adjust a track), with a reason")
    def post(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        selectors.session_require_instructor(request.user, sess)
        data = _valid(s.OverrideIn, request)
        ev = services.facilitator_override(session=sess, user=request.user, action=data["action"],
                                           reason=data["reason"], track=data.get("track"),
                                           value=data.get("value"))
        return Response(selectors.event_to_dict(ev, None), status=status.HTTP_201_CREATED)


class SessionDirections(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   summary="The Non-player decision a facilitator may direct now, with its legal choices")
    def get(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        selectors.session_require_instructor(request.user, sess)
        return Response({"directable": selectors.session_directable(sess)})

    @extend_schema(request=s.DirectIn, responses={201: OpenApiTypes.OBJECT, **ERRORS},
                   summary="Direct a Non-player to a legal decision instead of its flowchart's, with a reason")
    def post(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        selectors.session_require_instructor(request.user, sess)
        data = _valid(s.DirectIn, request)
        ev = services.facilitator_direct(session=sess, user=request.user, seat=data["seat"], choice=data["choice"],
                                         reason=data["reason"])
        return Response(selectors.event_to_dict(ev, None), status=status.HTTP_201_CREATED)


AFTER = OpenApiParameter("after", int, description="only events with seq greater than this")


def _after(request) -> int:
    raw = request.query_params.get("after", "0")
    try:
        after = int(raw)
    except ValueError:
        raise ValidationFailed("after must be an integer seq.", code="malformed") from None
    if after < 0:
        raise ValidationFailed("after must be 0 or more.", code="malformed")
    return after


class SessionEvents(APIView):
    @extend_schema(parameters=[AFTER], responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   summary="The full, unredacted log (instructors; reviewers once the session has started)")
    def get(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        if not selectors.session_roles(request.user, sess) & {"instructor", "reviewer"}:
            raise NotAllowed("Students see the log through their seat's event stream.")
        after = _after(request)
        return _etag_response(request, _tag(sess, "*", after),
                              lambda: _page(sess, None, after))


PAGE = 500


def _page(sess: ClassSession, seat_key: str | None, after: int) -> dict:
    """Events after ``after`` (at most PAGE); ``more`` says whether to ask again with the last seq."""
    events = selectors.session_events(sess, seat_key=seat_key, after=after, limit=PAGE)
    last = events[-1]["seq"] if events else after
    return {"seq": sess.head_seq, "status": sess.status, "events": with_texts(events), "more": last < sess.head_seq}


def _tag(sess: ClassSession, seat: str, after: int) -> str:
    """An ETag that changes with the session's version (``head_seq``, ``status``, ``updated_at``)
    and the language of its texts, and says nothing else: an HMAC keyed with the server's secret, never a hash of the log's head
    hash (which covers hidden payloads: a guessable hash over it let a student test guesses of
    the other side's secret moves offline, issue 14 item 1)."""
    raw = f"{sess.pk}:{seat}:{after}:{sess.head_seq}:{sess.status}:{sess.updated_at.isoformat()}:{language()}"
    return salted_hmac("coinlab.api.etag", raw, algorithm="sha256").hexdigest()[:32]


class SessionTeams(APIView):
    @extend_schema(responses={200: s.TeamOut(many=True), **ERRORS})
    def get(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        return Response(s.TeamOut(sess.teams.prefetch_related("members", "seats"), many=True).data)

    @extend_schema(request=s.TeamIn, responses={201: s.TeamOut, **ERRORS}, summary="Create a team")
    def post(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        team = services.team_create(session=sess, user=request.user, **_valid(s.TeamIn, request))
        return Response(s.TeamOut(team).data, status=status.HTTP_201_CREATED)


def _team_for(request, team_id: int) -> Team:
    team = Team.objects.select_related("session__course").filter(pk=team_id).first()
    if team is None:
        raise NotFound(f"There is no team {team_id}.")
    selectors.session_get_for_user(request.user, team.session_id)
    _require_instructor(request.user, team.session.course)  # every team endpoint here is an instructor's
    return team


class TeamMembers(APIView):
    @extend_schema(request=s.UsernameIn, responses={200: s.TeamOut, **ERRORS}, summary="Add a student")
    def post(self, request, team_id: int):
        team = _team_for(request, team_id)
        data = _valid(s.UsernameIn, request)
        services.team_member_add(team=team, user=request.user, member=_user_by_name(data["username"]))
        return Response(s.TeamOut(team).data)


class TeamMemberDetail(APIView):
    @extend_schema(responses={200: s.TeamOut, **ERRORS}, summary="Remove a student")
    def delete(self, request, team_id: int, username: str):
        team = _team_for(request, team_id)
        services.team_member_remove(team=team, user=request.user, member=_user_by_name(username))
        return Response(s.TeamOut(team).data)


class TeamReplaceMember(APIView):
    @extend_schema(request=s.ReplaceMemberIn, responses={200: s.TeamOut, **ERRORS},
                   summary="Replace one student by another")
    def post(self, request, team_id: int):
        team = _team_for(request, team_id)
        data = _valid(s.ReplaceMemberIn, request)
        services.team_member_replace(team=team, user=request.user, old_member=_user_by_name(data["old"]),
                                     new_member=_user_by_name(data["new"]))
        return Response(s.TeamOut(team).data)


class SessionIntents(APIView):
    @extend_schema(responses={200: s.TeamIntentOut(many=True), **ERRORS})
    def get(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        qs = TeamIntent.objects.filter(session=sess)
        if not selectors.session_roles(request.user, sess) & {"instructor", "reviewer"}:
            qs = qs.filter(team__members=request.user)
        return Response(s.TeamIntentOut(qs, many=True).data)

    @extend_schema(request=s.IntentIn, responses={201: s.TeamIntentOut, **ERRORS},
                   summary="State the team's intent")
    def post(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        data = _valid(s.IntentIn, request)
        team = Team.objects.filter(pk=data["team"], session=sess).first()
        if team is None:
            raise ValidationFailed("That team is not in this session.", code="unknown_team")
        intent = services.team_intent_set(session=sess, team=team, user=request.user,
                                          statement=data["statement"])
        return Response(s.TeamIntentOut(intent).data, status=status.HTTP_201_CREATED)


class SessionSeats(APIView):
    @extend_schema(responses={200: s.SeatOut(many=True), **ERRORS})
    def get(self, request, session_id: int):
        sess = selectors.session_get_for_user(request.user, session_id)
        return Response(s.SeatOut(sess.seats.select_related("team"), many=True).data)


def _seat(request, session_id: int, seat_key: str) -> tuple[ClassSession, Seat]:
    sess = selectors.session_get_for_user(request.user, session_id)
    return sess, selectors.seat_require_readable(request.user, sess, seat_key)


class SeatDetail(APIView):
    @extend_schema(responses={200: s.SeatOut, **ERRORS})
    def get(self, request, session_id: int, seat_key: str):
        sess = selectors.session_get_for_user(request.user, session_id)
        seat = Seat.objects.filter(session=sess, seat_key=seat_key).first()
        if seat is None:
            raise NotFound(f"This session has no seat {seat_key!r}.")
        return Response(s.SeatOut(seat).data)

    @extend_schema(request=s.SeatAssignIn, responses={200: s.SeatOut, **ERRORS},
                   summary="Give the seat to a team or a bot")
    def patch(self, request, session_id: int, seat_key: str):
        sess = selectors.session_get_for_user(request.user, session_id)
        selectors.session_require_instructor(request.user, sess)
        seat = Seat.objects.filter(session=sess, seat_key=seat_key).first()
        if seat is None:
            raise NotFound(f"This session has no seat {seat_key!r}.")
        data = _valid(s.SeatAssignIn, request)
        team = None
        if data["team"] is not None:
            team = Team.objects.filter(pk=data["team"], session=sess).first()
            if team is None:
                raise ValidationFailed("That team is not in this session.", code="unknown_team")
        seat = services.seat_assign(seat=seat, user=request.user, team=team, bot_kind=data["bot_kind"])
        return Response(s.SeatOut(seat).data)


class SeatPrompt(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   summary="The seat's current prompt (its own choices only) and its view of the game")
    def get(self, request, session_id: int, seat_key: str):
        sess, seat = _seat(request, session_id, seat_key)
        return _etag_response(request, _tag(sess, f"prompt:{seat_key}", 0),
                              lambda: with_texts(_prompt_with_board(sess, seat_key)))


def _prompt_with_board(sess: ClassSession, seat_key: str) -> dict:
    """The seat's prompt and view, and the typed board of that same view (``board``:
    ``engine.core.boardview.BoardView.to_dict()``, so it holds nothing the view withholds)."""
    data = selectors.seat_prompt(sess, seat_key)
    data["board"] = None
    if data.get("view") is not None:
        try:
            data["board"] = eventlog.rules_for(sess).board_view_of(data["view"], seat_key).to_dict()
        except NotImplementedError:  # a game without a typed board
            pass
    return data


class SeatSubmit(APIView):
    @extend_schema(request=s.SubmitIn, responses={200: s.SubmitOut, **ERRORS},
                   parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
                   summary="Submit a choice made against prompt `seq`")
    def post(self, request, session_id: int, seat_key: str):
        # The service checks under the session lock that the user's team plays the seat, so a
        # decision needs no query before it (issue #8). A refusal of any kind is answered as
        # before, when the role check came first: a user who is not on one of the session's
        # teams gets the answer of ``session_ref_for_player`` (404/403) whatever else was wrong.
        try:
            data = _valid(s.SubmitIn, request)
            key = data["idempotency_key"] or request.headers.get("Idempotency-Key", "")
            out = services.choice_submit(session=ClassSession(pk=session_id), user=request.user, seat=seat_key,
                                         choice=data["choice"], seq=data["seq"], idempotency_key=key,
                                         rationale=data["rationale"], decision_ms=data["decision_ms"])
        except (ServiceError, APIException):
            selectors.session_ref_for_player(request.user, session_id)
            raise
        return Response(out)


class SeatPlan(APIView):
    @extend_schema(request=s.PlanIn, responses={200: s.PlanOut, **ERRORS},
                   parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
                   summary="Submit a whole plan (a list of choice ids) as one decision, made against prompt `seq`")
    def post(self, request, session_id: int, seat_key: str):
        try:
            data = _valid(s.PlanIn, request)
            key = data["idempotency_key"] or request.headers.get("Idempotency-Key", "")
            out = plans.plan_submit(session=ClassSession(pk=session_id), user=request.user, seat=seat_key,
                                    plan=data["plan"], seq=data["seq"], idempotency_key=key,
                                    rationale=data["rationale"], decision_ms=data["decision_ms"])
        except (ServiceError, APIException):
            selectors.session_ref_for_player(request.user, session_id)
            raise
        return Response(out)


class SeatPlanDraft(APIView):
    @extend_schema(request=s.PlanDraftIn, responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   summary="The seat's next question after the draft steps `steps` (nothing is stored)")
    def post(self, request, session_id: int, seat_key: str):
        sess = selectors.session_get_for_user(request.user, session_id)
        data = _valid(s.PlanDraftIn, request)
        return Response(with_texts(plans.plan_draft(session=sess, user=request.user, seat=seat_key,
                                                    steps=data["steps"])))


class SeatUndo(APIView):
    @extend_schema(request=s.UndoIn, responses={200: s.SubmitOut, **ERRORS},
                   summary="Take back your last decision of this turn")
    def post(self, request, session_id: int, seat_key: str):
        sess = selectors.session_get_for_user(request.user, session_id)
        data = _valid(s.UndoIn, request)
        return Response(services.choice_undo(session=sess, user=request.user, seat=seat_key, seq=data["seq"]))


class SeatEvents(APIView):
    @extend_schema(parameters=[AFTER], responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   summary="The event stream as this seat may see it (ETag: If-None-Match -> 304)")
    def get(self, request, session_id: int, seat_key: str):
        sess, seat = _seat(request, session_id, seat_key)
        after = _after(request)
        return _etag_response(request, _tag(sess, seat_key, after),
                              lambda: _page(sess, seat_key, after))


class Me(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        u = request.user
        return Response({"username": u.get_username(), "groups": list(u.groups.values_list("name", flat=True)),
                         "is_staff": u.is_staff})
