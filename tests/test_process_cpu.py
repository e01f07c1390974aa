"""benchmarks/process_cpu.py: the CPU of every process a command runs, summed by kind."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time

from tests.conftest import ROOT

_spec = importlib.util.spec_from_file_location("process_cpu", ROOT / "benchmarks" / "process_cpu.py")
process_cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(process_cpu)

# a child process named "cpuburner" (its comm) that spends about 0.6 s of CPU, and a grandchild
# of its own that ends before its parent (counted up to its last reading, not lost)
BURN = (
    "import ctypes, subprocess, sys, time\n"
    "ctypes.CDLL(None).prctl(15, b'cpuburner', 0, 0, 0)\n"  # PR_SET_NAME
    "g = subprocess.Popen([sys.executable, '-c', "
    "'import ctypes, time\\nctypes.CDLL(None).prctl(15, b\"shortburner\", 0, 0, 0)\\n"
    "t = time.process_time()\\nwhile time.process_time() - t < 0.4: pass'])\n"
    "t = time.process_time()\n"
    "while time.process_time() - t < 0.6: pass\n"
    "g.wait(); time.sleep(0.3)\n"
)


def test_the_cpu_of_a_command_and_its_children_is_summed_by_process_name(tmp_path):
    out = tmp_path / "cpu.json"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "process_cpu.py"), "--interval", "0.05",
                          "--json", str(out), "--", sys.executable, "-c", BURN],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    figures = json.loads(out.read_text())
    cpu = figures["cpu_s"]
    assert 0.5 <= cpu.get("cpuburner", 0) <= 1.5, figures
    assert 0.3 <= cpu.get("shortburner", 0) <= 1.0, figures
    assert figures["started"]["cpuburner"] == 1 and figures["started"]["shortburner"] == 1, figures
    assert "cpuburner" in run.stderr and "by kind" in run.stderr


def test_a_failing_command_gives_its_exit_status(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "process_cpu.py"), "--",
                          sys.executable, "-c", "raise SystemExit(3)"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 3, run.stderr


def test_a_process_already_running_counts_only_its_cpu_since_the_start():
    """A process alive before the command started counts from the first reading on."""
    busy = subprocess.Popen([sys.executable, "-c", "import time\nt = time.process_time()\n"
                             "while time.process_time() - t < 0.5: pass\ntime.sleep(30)"])
    try:
        time.sleep(0.1)
        deadline = time.monotonic() + 10  # until it has burnt its 0.5 s and sleeps
        while time.monotonic() < deadline:
            start = process_cpu.read_all()
            key = next(k for k in start if k[0] == str(busy.pid))
            if start[key][1] >= 0.45:
                break
            time.sleep(0.05)
        assert start[key][1] >= 0.45
        later = process_cpu.read_all()
        assert later[key][1] - start[key][1] < 0.1  # asleep: nothing more to count
    finally:
        busy.kill()
        busy.wait()


def test_chromium_processes_are_told_apart_by_their_type(tmp_path, monkeypatch):
    """Chromium rewrites its command line with spaces between the arguments: the type is found either way."""
    real_open = open
    cmdlines = {
        "/proc/4242/cmdline": b"/usr/lib/chromium/chromium --type=renderer --lang=en-US\0",
        "/proc/4243/cmdline": b"/usr/lib/chromium/chromium\0--headless\0--user-data-dir=/tmp/playwright_chromiumdev_profile-x\0",
        "/proc/4245/cmdline": b"/usr/lib/chromium/chromium\0--headless\0--remote-debugging-pipe\0",
        "/proc/4246/cmdline": b"",  # a zombie: its command line is empty
    }

    def fake_open(path, *args, **kwargs):
        if path in cmdlines:
            f = tmp_path / path.replace("/", "_")
            f.write_bytes(cmdlines[path])
            return real_open(f, *args, **kwargs)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", fake_open)
    assert process_cpu.kind_of("4242", "chromium") == "chromium renderer"
    assert process_cpu.kind_of("4243", "chromium") == "chromium browser (Playwright)"
    assert process_cpu.kind_of("4245", "chromium") == "chromium browser (other)"  # kaleido's, for the charts
    assert process_cpu.kind_of("4246", "chromium") == "chromium"  # not known from an empty command line
    assert process_cpu.kind_of("4244", "postgres") == "postgres"


def test_an_exiting_chromium_process_keeps_its_kind_and_a_renamed_process_takes_its_new_name():
    start = {("7", "100"): ("chromium renderer", 1.0)}
    last: dict = {}
    process_cpu.merge(last, start, {("7", "100"): ("chromium", 1.5), ("8", "200"): ("chromium renderer", 0.2)})
    process_cpu.merge(last, start, {("8", "200"): ("chromium", 0.9), ("9", "300"): ("python", 0.1)})
    process_cpu.merge(last, start, {("9", "300"): ("cpuburner", 0.4)})
    assert last == {("7", "100"): ("chromium renderer", 1.5), ("8", "200"): ("chromium renderer", 0.9),
                    ("9", "300"): ("cpuburner", 0.4)}
