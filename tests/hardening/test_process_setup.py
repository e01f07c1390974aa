"""Process settings of web and worker processes (issue #8): thread switch interval and the
loaded objects frozen out of the garbage collector's full passes."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHECK = {
    "wsgi": "import gc, sys, coinlab.wsgi; print(gc.get_freeze_count(), sys.getswitchinterval())",
    "celery": ("import gc, sys, django; django.setup(); from coinlab.celery import app; "
               "from celery.signals import worker_process_init; n = gc.get_freeze_count(); "
               "worker_process_init.send(sender=None); print(gc.get_freeze_count() - n, sys.getswitchinterval())"),
}


@pytest.mark.parametrize("kind", sorted(CHECK))
def test_loaded_objects_are_frozen_once_the_process_is_ready(kind, subprocess_env):
    out = subprocess.run([sys.executable, "-c", CHECK[kind]], env=subprocess_env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    frozen, switch = out.stdout.split()
    assert int(frozen) > 50_000, f"{kind}: only {frozen} objects frozen"
    if kind == "wsgi":
        assert float(switch) == pytest.approx(0.001)


WARM = {
    "wsgi": "import gc, sys, coinlab.wsgi\n",
    # a worker: its main process before forking (worker_init), then a pool process (worker_process_init)
    "celery": ("import gc, sys, django\ndjango.setup()\nfrom coinlab.celery import app\n"
               "from celery.signals import worker_init, worker_process_init\n"
               "worker_init.send(sender=None)\nworker_process_init.send(sender=None)\n"),
}


@pytest.mark.parametrize("kind", sorted(WARM))
def test_processes_load_urls_and_hot_templates_before_freezing(kind, subprocess_env):
    """Issue 20: the URL configuration (every view module) and the live region's and console's
    templates are loaded when the process is set up, before gc.freeze(), not at the first request
    or task: the first client of a new process does not wait for them, and the collector's full
    passes do not walk them. Checked before any request or task: the URL resolver's patterns
    loaded, the views' module imported, the templates in the cached loader, and more frozen."""
    code = WARM[kind] + (
        "from django.urls import get_resolver\n"
        "from django.template import engines\n"
        "from coinlab.warmup import WARM_TEMPLATES\n"
        "loaded = 'url_patterns' in get_resolver().__dict__\n"
        "views = 'facilitation.web.views.play' in sys.modules\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "cached = sorted(k for k in getattr(loader, 'get_template_cache', {}) if k in WARM_TEMPLATES)\n"
        "print(loaded, views, ','.join(cached), gc.get_freeze_count())\n")
    out = subprocess.run([sys.executable, "-c", code], env=subprocess_env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded, views, cached, frozen = out.stdout.split()
    assert loaded == "True" and views == "True", out.stdout
    assert cached.split(",") == sorted(["web/play/_live.html", "web/instructor/_console_session.html"]), out.stdout
    assert int(frozen) > 100_000, out.stdout
