from django.apps import AppConfig


class FacilitationConfig(AppConfig):
    name = "facilitation"
    verbose_name = "Facilitation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Bind @shared_task to the project's Celery app in every Django process.
        import coinlab.celery  # noqa: F401
        import facilitation.checks  # noqa: F401
        import facilitation.live  # noqa: F401  (publishes session versions for ETag polls)
        import facilitation.tasks  # noqa: F401  (draws a new version's live regions ahead of the polls)
