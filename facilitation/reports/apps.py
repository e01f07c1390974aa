from django.apps import AppConfig
from django.db.models.signals import post_delete


class ReportsConfig(AppConfig):
    name = "facilitation.reports"
    label = "reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from facilitation.reports import checks  # noqa: F401 - registers the Celery settings check
        from facilitation.reports.models import AARReport, _on_report_deleted

        # Report files are deleted with their row, also when a session or course
        # deletion cascades to it (the signal is sent for every cascaded row).
        post_delete.connect(_on_report_deleted, sender=AARReport, dispatch_uid="reports-delete-files")
        # The final review of every session that ends (facilitation/reports/receivers.py).
        from facilitation.reports.receivers import build_final_report
        from facilitation.signals import session_finished

        session_finished.connect(build_final_report, dispatch_uid="reports-final-aar")
