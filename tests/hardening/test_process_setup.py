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
