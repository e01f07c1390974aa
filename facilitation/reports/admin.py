from django.contrib import admin

from facilitation.reports.models import AARReport


@admin.register(AARReport)
class AARReportAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "seq", "status", "progress", "attempts", "build_seconds", "created_at")
    list_filter = ("status",)
    search_fields = ("session__title", "session__course__title")
    readonly_fields = ("session", "seq", "status", "progress", "stage", "error", "html", "pdf", "summary",
                       "attempts", "task_id", "build_seconds", "requested_by", "created_at", "updated_at",
                       "started_at", "finished_at")
