"""A key moment's "All changes" keep the order of the metrics, in every process.

The changes no fact explains (the residual, credited to the automatic part of a step) were
collected through a set of metric names, whose order follows Python's string hashing: the same
log gave another order of "All changes" in another process (found comparing two builds of one
Andean Abyss report). Each child process below runs with its own ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

CHILD = r"""
import json
from facilitation.reports.builder.effects import event_effects
from facilitation.reports.builder.specs import spec_for
names = ["political_will", "government_resources", "shining_path_resources", "hunt_track",
         "government_control_population", "shining_path_control_population", "rondas_bases"]
before = {n: 10 for n in names}
after = {n: 10 + i + 1 for i, n in enumerate(names)}
e = {"seq": 9, "kind": "system", "seat": None, "payload": {}, "facts": [{"type": "phase", "text": "Propaganda"}],
     "metrics": after, "rationale": "", "decision_ms": None, "created_at": "2026-11-27T00:00:00+00:00"}
effects = event_effects(e, spec_for("peru"), set(names), before, after)
print(json.dumps([list(ef.deltas) for ef in effects]))
"""


def test_the_changes_no_fact_explains_keep_the_metrics_order_under_any_hash_seed():
    names = ["political_will", "government_resources", "shining_path_resources", "hunt_track",
             "government_control_population", "shining_path_control_population", "rondas_bases"]
    seen = set()
    for seed in ("0", "1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT),
               "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "coinlab.settings")}
        out = subprocess.run([sys.executable, "-c", "import django; django.setup()\n" + CHILD], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-3000:]
        orders = json.loads(out.stdout.strip().splitlines()[-1])
        assert [o for o in orders if o] == [names], (seed, orders)
        seen.add(json.dumps(orders))
    assert len(seen) == 1
