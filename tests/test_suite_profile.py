"""benchmarks/suite_profile.py: a py-spy raw recording summed by part and by test."""

from __future__ import annotations

import importlib.util

from tests.conftest import ROOT

_spec = importlib.util.spec_from_file_location("suite_profile", ROOT / "benchmarks" / "suite_profile.py")
suite_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite_profile)

ROOT_PROC = 'process 9:"";process 10:"/venv/bin/python /venv/bin/pytest -n 2 --dist loadfile"'
WORKER = 'process 11:"/venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))"'
RAW = "\n".join([
    # a test playing a bot game: the engine's innermost frame names the part
    f"{ROOT_PROC};{WORKER};test_games (engine/test_x.py:12);play (engine/core/flow.py:40);"
    f"choose (engine/scenarios/peru/bots.py:7) 30",
    f"{ROOT_PROC};{WORKER};test_games (engine/test_x.py:12);play (engine/core/flow.py:40) 20",
    # a fixture typesetting a PDF
    f"{ROOT_PROC};{WORKER};world (reports/conftest.py:53);html_to_pdf (facilitation/reports/rendering.py:390);"
    f"HTML.write_pdf (weasyprint/__init__.py:264) 25",
    # a live server's request thread waiting on its socket: a wait, not work
    f"{ROOT_PROC};{WORKER};ThreadedWSGIServer.process_request_thread (django/core/servers/basehttp.py:103);"
    f"SocketIO.readinto (socket.py:706) 40",
    # the same thread drawing a page
    f"{ROOT_PROC};{WORKER};ThreadedWSGIServer.process_request_thread (django/core/servers/basehttp.py:103);"
    f"render (django/template/base.py:170) 10",
    # a process a test started
    f'{ROOT_PROC};{WORKER};process 12:"/venv/bin/python /venv/bin/celery -A coinlab worker";'
    f"execute_sql (django/db/models/sql/compiler.py:1500) 15",
    'process 13:"bash -c echo', "a command line broken by a newline\" 3",
])


def test_samples_are_summed_by_part_and_by_test_and_waits_kept_apart(tmp_path):
    raw = tmp_path / "suite.raw"
    raw.write_text(RAW + "\n")
    total, waits, parts, tests = suite_profile.summarize(str(raw))
    # the broken line's first part has no count; its rest keeps its 3 samples, frames lost
    assert (total, waits) == (143, 40)
    assert parts == {"engine: bots": 30, "engine": 20, "WeasyPrint (PDF)": 25, "Django templates": 10,
                     "Django ORM": 15, "other": 3}
    assert tests == {"engine/test_x.py::test_games": 50, "reports/conftest.py::world": 25,
                     "(no test frame) a live server's request threads": 10,
                     "(no test frame) process: python celery -A coinlab": 15,
                     "(no test frame) in the pytest process: collection, set-up, other threads": 3}
