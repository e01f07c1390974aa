"""Where the whole test suite's Python time goes: a py-spy recording summed by test and by part.

Record the suite's test command (``scripts/test``: both xdist workers and every process they
start: live servers, Celery workers, ``scripts/run``, child games) with py-spy, a sampling
profiler that reads the processes from outside (install it apart from the project's venv, it is
not one of its dependencies):

    python3 -m venv /tmp/pyspy && /tmp/pyspy/bin/pip install py-spy
    /tmp/pyspy/bin/py-spy record --subprocesses -r 25 -f raw -o suite.raw -- ./scripts/test -q
    .venv/bin/python benchmarks/suite_profile.py suite.raw --rate 25

Prints the seconds sampled (samples / rate), the part of them spent waiting (a stack whose
innermost frame is a socket read, a lock or condition wait, a select, a child's wait: py-spy
counts some of those as active), then the active seconds by part (the innermost frame of the
stack that belongs to a known library or layer: WeasyPrint, the engine, the ORM, imports ...)
and by test (the test function or fixture on the stack; the request threads of a live server
and the processes a test starts carry no test frame and are summed as "no test frame").

Chromium's own CPU (the browser tests' pages, kaleido's charts) is not Python and is not seen.
Sampling pauses each process for a moment: the suite runs slower under py-spy (about 1.35
times here) and a test with a time limit close to its run time may fail; the figures are
shares, to find where to look, not timings.
"""

from __future__ import annotations

import argparse
import collections
import re
from collections.abc import Iterator

#: innermost frames that are a wait, not work
WAITS = ("SocketIO.readinto", "Condition.wait", "Event.wait", "select (selectors", "Popen._try_wait",
         "Popen.wait", "ClientCursorMixin._execute_send", "Connection.wait", "Popen2IO.read",
         "Pipe.read_jsons", "_do_waitpid", "read_pipe", "SocketBuffer._read_from_socket",
         "_worker (concurrent", "send_packed_command", "_wait_for_tstate_lock", "sleep", "accept", "recv")

#: (part, pattern of a frame's file): the innermost frame that matches one names the part
PARTS = (
    ("WeasyPrint (PDF)", r"\((weasyprint|pydyf|tinycss2|cssselect2|fontTools|pyphen)/"),
    ("kaleido, Plotly", r"\((kaleido|choreographer|plotly)/"),
    ("engine: bots", r"\(engine/.*bots?\.py"),
    ("engine", r"\(engine/"),
    ("Django templates", r"\(django/template/"),
    ("reports builder", r"\(facilitation/reports/"),
    ("event log (JSON, hashes)", r"\(facilitation/eventlog\.py"),
    ("Django ORM", r"\(django/db/"),
    ("psycopg", r"\(psycopg/"),
    ("imports", r"_find_and_load|_compile_bytecode|exec_module"),
    ("Playwright (test side)", r"\((playwright|greenlet)/"),
    ("hypothesis", r"\(hypothesis/"),
    ("schemathesis", r"\(schemathesis/"),
    ("facilitation web", r"\(facilitation/web/"),
    ("facilitation, other", r"\(facilitation/"),
    ("Django, other", r"\(django/"),
    ("pytest, xdist", r"\((_pytest|pluggy|xdist|execnet)/"),
)
_PARTS = [(name, re.compile(pattern)) for name, pattern in PARTS]
#: a test function, or a fixture defined in a conftest.py or a test module
_TEST_FRAME = re.compile(r"([\w.]+) \(((?:\w+/)*(?:test_\w+|conftest|aar_world)\.py)")


def stacks(path: str) -> Iterator[tuple[list[str], int]]:
    """py-spy's raw format: one ``frame;frame;...;frame count`` line per distinct stack. A process's
    command line may hold a newline: the part of such a line before it has no count and is
    skipped, the rest still counts (its samples, with the frames before the newline lost)."""
    with open(path, errors="replace") as f:
        for line in f:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if not stack or not n.isdigit():
                continue
            yield stack.split(";"), int(n)


def is_wait(frames: list[str]) -> bool:
    return any(w in frames[-1] for w in WAITS)


def part_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, pattern in _PARTS:
            if pattern.search(frame):
                return name
    return "other"


def test_of(frames: list[str]) -> str:
    """The test (or fixture) on the stack; else what ran it: a live server's request thread, or the
    process a test started (py-spy names each process by its command line)."""
    for frame in frames:
        m = _TEST_FRAME.match(frame)
        if m:
            return f"{m.group(2)}::{m.group(1)}"
    if any("process_request_thread" in f for f in frames):
        return "(no test frame) a live server's request threads"
    started = [f for f in frames if f.startswith("process ") and not _is_runner(f)]
    if started:
        command = started[-1].split(":", 1)[1].strip('"')
        words = [w.rsplit("/", 1)[-1] for w in command.split()[:4]]  # file names, not paths
        return f"(no test frame) process: {' '.join(words)[:90]}"
    return "(no test frame) in the pytest process: collection, set-up, other threads"


def _is_runner(process_frame: str) -> bool:
    """A process of the test run itself, not one a test started: py-spy's root (its command line
    reads empty), ``scripts/test``'s bash, pytest, and the xdist workers (execnet starts each as
    ``python -u -c import sys;exec(...)``; py-spy's ``;`` cuts that frame after ``import sys``)."""
    command = process_frame.split(":", 1)[1].strip('"')
    return (not command or command.endswith("-c import sys") or "/pytest " in command
            or command.endswith("/pytest") or command.endswith("scripts/test"))


def summarize(path: str) -> tuple[int, int, collections.Counter, collections.Counter]:
    """(samples, of them waiting, active samples by part, active samples by test) of a raw file."""
    total = waits = 0
    parts: collections.Counter[str] = collections.Counter()
    tests: collections.Counter[str] = collections.Counter()
    for frames, n in stacks(path):
        total += n
        if is_wait(frames):
            waits += n
            continue
        parts[part_of(frames)] += n
        tests[test_of(frames)] += n
    return total, waits, parts, tests


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw", help="py-spy record -f raw output")
    ap.add_argument("--rate", type=float, default=100, help="the -r given to py-spy (samples a second)")
    ap.add_argument("--top", type=int, default=25, help="how many tests to list")
    args = ap.parse_args()
    total, waits, parts, tests = summarize(args.raw)
    active = total - waits
    if not active:
        raise SystemExit(f"{args.raw}: no active samples")
    s = args.rate
    print(f"sampled {total / s:.0f} s, of which waiting {waits / s:.0f} s, active {active / s:.0f} s")
    print("\nactive seconds by part (innermost frame)")
    for name, n in parts.most_common():
        print(f"{n / s:8.1f} s {100 * n / active:5.1f} %  {name}")
    print(f"\nactive seconds by test (top {args.top})")
    for name, n in tests.most_common(args.top):
        print(f"{n / s:8.1f} s {100 * n / active:5.1f} %  {name}")


if __name__ == "__main__":
    main()
