"""Django admin for every facilitation model. The event log is read-only here."""

from django.contrib import admin

from facilitation import models as m


class TeamInline(admin.TabularInline):
    model = m.Team
    extra = 0
    fields = ("name", "color")
    show_change_link = True


class SeatInline(admin.TabularInline):
    model = m.Seat
    extra = 0
    fields = ("seat_key", "team", "bot_kind")


@admin.register(m.Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("title", "created_by", "created_at")
    search_fields = ("title", "description")
    filter_horizontal = ("instructors", "students", "reviewers")


@admin.register(m.ClassSession)
class ClassSessionAdmin(admin.ModelAdmin):
    list_display = ("title", "course", "scenario_key", "status", "scheduled_start", "head_seq")
    list_filter = ("status", "scenario_key")
    search_fields = ("title", "course__title")
    readonly_fields = ("head_seq", "head_hash", "state", "result", "started_at", "finished_at",
                       "created_at", "updated_at")
    inlines = [TeamInline, SeatInline]


@admin.register(m.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "session")
    filter_horizontal = ("members",)
    search_fields = ("name", "session__title")


@admin.register(m.Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("seat_key", "session", "team", "bot_kind")


@admin.register(m.JoinCode)
class JoinCodeAdmin(admin.ModelAdmin):
    list_display = ("course", "team", "expires_at", "uses", "max_uses", "revoked")
    readonly_fields = ("code", "uses", "created_at")


@admin.register(m.SessionEvent)
class SessionEventAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only and hash-chained."""

    list_display = ("session", "seq", "kind", "seat", "actor", "created_at")
    list_filter = ("kind",)
    search_fields = ("session__title", "seat")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(m.StateSnapshot)
class StateSnapshotAdmin(admin.ModelAdmin):
    list_display = ("session", "seq", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(m.SubmissionKey)
class SubmissionKeyAdmin(admin.ModelAdmin):
    list_display = ("session", "key", "user", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(m.TeamIntent)
class TeamIntentAdmin(admin.ModelAdmin):
    list_display = ("session", "team", "author", "seq", "created_at")


@admin.register(m.VignetteRun)
class VignetteRunAdmin(admin.ModelAdmin):
    list_display = ("title", "vignette_id", "course", "seat_key", "created_at")
    list_filter = ("vignette_id",)
    readonly_fields = ("document", "start_cards", "created_by", "created_at")


@admin.register(m.SavedVignette)
class SavedVignetteAdmin(admin.ModelAdmin):
    list_display = ("id", "course", "from_session", "from_seq", "created_at")
    # a saved position holds hidden information (the deck, hidden pieces): read-only here
    readonly_fields = ("document", "from_session", "from_seq", "created_by", "created_at")
