"""The Celery app: ``celery -A coinlab worker``.

Broker and result backend come from the Django settings (``CELERY_*``), i.e. from
``REDIS_URL``/``CELERY_BROKER_URL``; with neither set, tasks run eagerly in the
calling process (embedded mode).
"""

from __future__ import annotations

import gc
import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")

app = Celery("coinlab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_loaded_objects(**_kwargs) -> None:
    """Each worker process leaves what it loaded out of the garbage collector's full passes
    (as coinlab/wsgi.py does for web processes): the live pre-draw allocates many small objects."""
    gc.freeze()
