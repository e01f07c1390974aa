"""/reports/: after-action reviews, comparisons and event exports."""

from django.urls import path

from facilitation.reports import views

app_name = "reports"

urlpatterns = [
    path("", views.index, name="index"),
    path("sessions/<int:session_id>/", views.session_reports, name="session"),
    path("sessions/<int:session_id>/events.<str:fmt>", views.export_events, name="export"),
    path("compare/<slug:scenario_key>/", views.compare, name="compare"),
    path("<int:report_id>/", views.detail, name="detail"),
    path("<int:report_id>/status.json", views.status, name="status"),
    path("<int:report_id>/report.html", views.html, name="html"),
    path("<int:report_id>/report.pdf", views.pdf, name="pdf"),
    path("<int:report_id>/summary.pdf", views.summary_pdf, name="summary_pdf"),
]
