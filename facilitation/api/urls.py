"""REST API routes (mounted at /api/). Schema at /api/schema/, Swagger UI at /api/docs/."""

from django.urls import path

from facilitation.api import views as v

urlpatterns = [
    path("me/", v.Me.as_view(), name="api-me"),
    path("scenarios/", v.ScenarioList.as_view(), name="api-scenarios"),
    path("courses/", v.CourseList.as_view(), name="api-courses"),
    path("courses/<int:course_id>/", v.CourseDetail.as_view(), name="api-course"),
    path("courses/<int:course_id>/join-codes/", v.CourseJoinCodes.as_view(), name="api-course-join-codes"),
    path("courses/<int:course_id>/reviewers/", v.CourseReviewers.as_view(), name="api-course-reviewers"),
    path("courses/<int:course_id>/calendar.ics", v.CourseCalendar.as_view(), name="api-course-calendar"),
    path("calendar.ics", v.MyCalendar.as_view(), name="api-calendar"),
    path("join/", v.Join.as_view(), name="api-join"),
    path("register/", v.Register.as_view(), name="api-register"),
    path("sessions/", v.SessionList.as_view(), name="api-sessions"),
    path("sessions/<int:session_id>/", v.SessionDetail.as_view(), name="api-session"),
    path("sessions/<int:session_id>/start/", v.SessionStart.as_view(), name="api-session-start"),
    path("sessions/<int:session_id>/pause/", v.SessionPause.as_view(), name="api-session-pause"),
    path("sessions/<int:session_id>/resume/", v.SessionResume.as_view(), name="api-session-resume"),
    path("sessions/<int:session_id>/end/", v.SessionEnd.as_view(), name="api-session-end"),
    path("sessions/<int:session_id>/notes/", v.SessionNotes.as_view(), name="api-session-notes"),
    path("sessions/<int:session_id>/overrides/", v.SessionOverrides.as_view(), name="api-session-overrides"),
    path("sessions/<int:session_id>/directions/", v.SessionDirections.as_view(), name="api-session-directions"),
    path("sessions/<int:session_id>/events/", v.SessionEvents.as_view(), name="api-session-events"),
    path("sessions/<int:session_id>/teams/", v.SessionTeams.as_view(), name="api-session-teams"),
    path("sessions/<int:session_id>/intents/", v.SessionIntents.as_view(), name="api-session-intents"),
    path("sessions/<int:session_id>/seats/", v.SessionSeats.as_view(), name="api-session-seats"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/", v.SeatDetail.as_view(), name="api-seat"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/prompt/", v.SeatPrompt.as_view(), name="api-seat-prompt"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/submit/", v.SeatSubmit.as_view(), name="api-seat-submit"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/plan/", v.SeatPlan.as_view(), name="api-seat-plan"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/plan/draft/", v.SeatPlanDraft.as_view(),
         name="api-seat-plan-draft"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/undo/", v.SeatUndo.as_view(), name="api-seat-undo"),
    path("sessions/<int:session_id>/seats/<str:seat_key>/events/", v.SeatEvents.as_view(), name="api-seat-events"),
    path("teams/<int:team_id>/members/", v.TeamMembers.as_view(), name="api-team-members"),
    path("teams/<int:team_id>/members/<str:username>/", v.TeamMemberDetail.as_view(), name="api-team-member"),
    path("teams/<int:team_id>/replace-member/", v.TeamReplaceMember.as_view(), name="api-team-replace-member"),
]
