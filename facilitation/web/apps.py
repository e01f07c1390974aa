from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "facilitation.web"
    label = "web"
    verbose_name = "CoinLab web front end"
    default_auto_field = "django.db.models.BigAutoField"
