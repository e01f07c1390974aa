"""CPU seconds of every process a command runs, summed by kind of process (issue 20).

    .venv/bin/python benchmarks/process_cpu.py [--interval 0.2] [--json FILE] -- COMMAND [ARGS...]

py-spy (``benchmarks/suite_profile.py``) sees the Python processes only; a browser test's
Chromium, PostgreSQL and Redis spend CPU too. This runs COMMAND and, every ``--interval``
seconds until it ends, reads every process's CPU time (user + system, ``/proc/PID/stat``) on the
machine; at the end it prints, per kind of process, the CPU seconds spent while the command ran and how
many such processes started meanwhile
(a process alive at the start counts from there; one that ended between two readings counts up
to its last reading, so a kind made of many short processes is undercounted by at most one
interval each). Kinds: the process name (``comm``), and for Chromium its process type
(``--type=renderer``, ``gpu-process``, ``utility``; none: the browser process), as first read: a
process that is exiting has an empty command line, and keeps the kind it had. Every process of
the machine is read, so what else runs beside the command is counted too (its own kinds).

Example (one browser test file, alone)::

    PYTHONPATH=$PWD COINLAB_TEST_WORKERS=0 .venv/bin/python benchmarks/process_cpu.py -- \\
        ./scripts/test tests/e2e/test_accessibility.py -q -p no:cacheprovider
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def kind_of(pid: str, comm: str) -> str:
    """The process's kind: its name, and for Chromium its ``--type`` (Chromium rewrites its
    command line in place, so the arguments may be separated by spaces rather than NULs)."""
    if not comm.startswith("chrom") or comm.startswith("chrome_crashpad"):
        return comm
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode(errors="replace").replace("\0", " ").split()
    except OSError:
        return "chromium"
    if not args:  # exiting (a zombie's command line is empty) or not yet started: not known from this reading
        return "chromium"
    kind = next((a[len("--type="):] for a in args if a.startswith("--type=")), None)
    if kind is None:  # a browser process: the browser tests' (Playwright's profile) or another's (kaleido's charts)
        kind = "browser (Playwright)" if any("playwright" in a for a in args) else "browser (other)"
    return f"chromium {kind}"


def read_all() -> dict[tuple[str, str], tuple[str, float]]:
    """(pid, start time) -> (kind, CPU seconds so far) of every process now running."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:  # ended meanwhile
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        # fields from the state on: utime is the 12th, stime the 13th, starttime the 20th
        cpu = (int(fields[11]) + int(fields[12])) / TICK
        out[(pid, fields[19])] = (kind_of(pid, comm), cpu)
    return out


def merge(last: dict, start: dict, readings: dict) -> None:
    """Into ``last``: the latest CPU time of each process of ``readings``, under its latest known
    kind. A Chromium process that is exiting has an empty command line (kind "chromium", not
    known), which must not move its CPU away from the kind it had (its first reading in ``last``,
    or ``start`` for a process running before the command)."""
    for key, (kind, cpu) in readings.items():
        if kind == "chromium":
            kind = last.get(key, start.get(key, (kind,)))[0]
        last[key] = (kind, cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--interval", type=float, default=0.2, help="seconds between two readings (default 0.2)")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command (after --)")
    args = ap.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no command given (put it after --)")
    start = read_all()
    last: dict[tuple[str, str], tuple[str, float]] = {}
    t0 = time.monotonic()
    proc = subprocess.Popen(command)
    try:
        while proc.poll() is None:
            merge(last, start, read_all())
            time.sleep(args.interval)
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
    merge(last, start, read_all())
    wall = time.monotonic() - t0
    by_kind: collections.Counter[str] = collections.Counter()
    started: collections.Counter[str] = collections.Counter()  # processes of each kind started meanwhile
    for key, (kind, cpu) in last.items():
        by_kind[kind] += cpu - (start[key][1] if key in start else 0.0)
        started[kind] += key not in start
    total = sum(by_kind.values())
    shown = [(kind, cpu) for kind, cpu in by_kind.most_common() if cpu >= 0.05]
    print(f"\n{total:.1f} CPU s in {wall:.1f} s wall (exit {proc.returncode}); by kind:", file=sys.stderr)
    for kind, cpu in shown:
        print(f"  {cpu:8.1f} s  {100 * cpu / max(total, 1e-9):5.1f} %  {started[kind]:5d} started  {kind}",
              file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": command, "wall_s": round(wall, 1), "exit": proc.returncode,
                       "cpu_s": {kind: round(cpu, 2) for kind, cpu in shown},
                       "started": {kind: started[kind] for kind, _cpu in shown}}, f, indent=1)
    return proc.returncode or 0


if __name__ == "__main__":
    sys.exit(main())
