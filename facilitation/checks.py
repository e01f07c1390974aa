"""System checks for the running mode (``manage.py check --deploy``)."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def production_environment(app_configs, **kwargs):
    out = []
    if not getattr(settings, "PRODUCTION", False):
        return out
    if not os.environ.get("SECRET_KEY"):
        out.append(Warning(
            "SECRET_KEY is not set: this machine uses the key generated under var/. Several web machines "
            "must share one SECRET_KEY (docs/operations.md).", id="coinlab.W001"))
    if not (os.environ.get("REDIS_URL") or os.environ.get("CELERY_BROKER_URL")):
        out.append(Warning(
            "No REDIS_URL: Celery tasks (after-action reviews) run inside the web process and there is no "
            "shared cache. Set REDIS_URL and run Celery workers (docs/operations.md).", id="coinlab.W002"))
    if set(settings.ALLOWED_HOSTS) <= {"127.0.0.1", "localhost", "[::1]", "testserver"}:
        out.append(Warning("ALLOWED_HOSTS only names this machine; set it to the site's host names.",
                           id="coinlab.W003"))
    return out
