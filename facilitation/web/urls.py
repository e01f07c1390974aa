from django.urls import include, path

from .views import course, glossary, home, instructor, plan, play, review, vignettes

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("join/", home.join, name="join"),
    path("join/<str:code>/", home.join_code, name="join_code"),
    path("courses/", course.course_list, name="courses"),
    path("courses/<int:course_id>/", course.course_page, name="course"),
    path("courses/<int:course_id>/vignettes/", vignettes.course_vignettes, name="course_vignettes"),
    path("vignettes/runs/<int:run_id>/", vignettes.vignette_run, name="vignette_run"),
    path("sessions/<int:session_id>/save-vignette/", vignettes.vignette_save, name="vignette_save"),
    path("sessions/new/", instructor.session_new, name="session_new"),
    path("sessions/pace/", instructor.session_pace, name="session_pace"),
    path("console/", instructor.console, name="console"),
    path("console/live/", instructor.console_live, name="console_live"),
    path("sessions/<int:session_id>/manage/", instructor.manage, name="manage"),
    path("sessions/<int:session_id>/control/<slug:action>/", instructor.control, name="control"),
    path("sessions/<int:session_id>/play/", play.play, name="play"),
    path("sessions/<int:session_id>/play/live/", play.play_live, name="play_live"),
    path("sessions/<int:session_id>/play/choose/", play.choose, name="play_choose"),
    path("sessions/<int:session_id>/play/undo/", play.undo, name="play_undo"),
    path("sessions/<int:session_id>/play/plan/", plan.plan, name="play_plan"),
    path("sessions/<int:session_id>/play/intent/", play.intent, name="play_intent"),
    path("sessions/<int:session_id>/watch/", review.watch, name="watch"),
    path("sessions/<int:session_id>/replay/", review.replay, name="replay"),
    path("sessions/<int:session_id>/replay/annotate/", review.annotate, name="annotate"),
    path("games/<slug:game>/glossary/", glossary.glossary, name="glossary"),
    path("i18n/", include("django.conf.urls.i18n")),
]
