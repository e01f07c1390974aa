"""The Celery app: ``celery -A coinlab worker``.

Broker and result backend come from the Django settings (``CELERY_*``), i.e. from
``REDIS_URL``/``CELERY_BROKER_URL``; with neither set, tasks run eagerly in the
calling process (embedded mode).
"""

from __future__ import annotations

import gc
import os

from celery import Celery
from celery.signals import worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")

app = Celery("coinlab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _warm_before_forking(**_kwargs) -> None:
    """The worker's main process loads, before it forks its pool, what the tasks would load at
    their first run: the URL configuration (their templates' links need it) and the live
    region's and console's templates (``coinlab.warmup``). Each pool process inherits them and
    freezes them with the rest (below), and loads nothing in its own start-up, which Celery
    gives only ``worker_proc_alive_timeout`` (4 s) to report ready."""
    import django

    from coinlab.warmup import warm

    django.setup()
    warm()


@worker_process_init.connect
def _freeze_loaded_objects(**_kwargs) -> None:
    """Each worker process leaves what it loaded out of the garbage collector's full passes
    (as coinlab/wsgi.py does for web processes): the live pre-draw allocates many small objects."""
    gc.freeze()
