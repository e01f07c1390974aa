"""The Celery app: ``celery -A coinlab worker``.

Broker and result backend come from the Django settings (``CELERY_*``), i.e. from
``REDIS_URL``/``CELERY_BROKER_URL``; with neither set, tasks run eagerly in the
calling process (embedded mode).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")

app = Celery("coinlab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
