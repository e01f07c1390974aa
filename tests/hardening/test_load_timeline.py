"""The load driver's second-by-second timeline (benchmarks/load/driver.py ``server_side`` and
``timeline``, issue 20): from the proxy's log (nginx's ``$msec`` as each line's last field) it
says which seconds hold the polls' tail, and how busy the machine was in them, so a ramp step
tells a tail spread over the run from bursts of saturation."""

from __future__ import annotations

import importlib.util

from tests.conftest import ROOT


def _driver():
    spec = importlib.util.spec_from_file_location("load_driver", ROOT / "benchmarks" / "load" / "driver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _line(status, method, uri, upstream_s, msec, addr=None):
    fields = [str(status), method, uri, f"{upstream_s:.3f}", f"{upstream_s:.3f}"]
    if addr:  # nginx-nodes.conf.in writes $upstream_addr before $msec
        fields.append(addr)
    return " ".join([*fields, f"{msec:.3f}"]) + "\n"


def test_the_timeline_finds_the_seconds_that_hold_the_poll_tail(tmp_path):
    driver = _driver()
    t0 = 1_800_000_000
    lines = []
    # second 0 and second 5 are the window's partial edges; 1, 2 and 4 are quiet; 3 is a burst
    for second in range(6):
        slow = second == 3
        for i in range(20):
            ms = 0.040 if slow and i >= 10 else 0.002
            lines.append(_line(304, "GET", "/sessions/7/play/live/", ms, t0 + second + i / 40,
                               addr="127.0.0.1:9001" if i % 2 else None))
        n_decisions = 4 if slow else 1
        for i in range(n_decisions):
            lines.append(_line(200, "POST", "/sessions/7/play/choose/", 0.030, t0 + second + 0.5 + i / 100))
    lines.append("200 GET /static/x.css 0.001 - 1800000001.000\n")  # no upstream time: not counted
    log = tmp_path / "access.log"
    log.write_text("".join(lines))

    seconds: dict = {}
    summary = driver.server_side(str(log), 0, seconds)
    assert summary["poll"]["requests"] == 120 and summary["submit_page"]["requests"] == 9
    samples = [{"wall": t0 + s + 0.3, "machine_cpu": 97.0 if s == 3 else 40.0} for s in range(6)]
    t = driver.timeline(seconds, samples, poll_target_ms=10)

    assert t["seconds"] == 4 and t["seconds_over"] == 1  # the partial first and last seconds left out
    assert t["polls"] == 80 and t["polls_in_seconds_over"] == 20
    assert t["cpu_over"] == 97.0 and t["cpu_rest"] == 40.0
    assert t["decisions_per_s_over"] == 4.0 and t["decisions_per_s_rest"] == 1.0
    assert t["worst"][0]["second"] == t0 + 3 and t["worst"][0]["poll_p95_ms"] == 40.0
    assert [r["second"] - t0 for r in t["rows"]] == list(range(6))


def test_a_log_without_times_gives_no_timeline(tmp_path):
    driver = _driver()
    log = tmp_path / "access.log"
    log.write_text("304 GET /sessions/7/play/live/ 0.002 0.002\n")  # the old format: no $msec
    seconds: dict = {}
    assert driver.server_side(str(log), 0, seconds)["poll"]["requests"] == 1
    assert seconds == {}
