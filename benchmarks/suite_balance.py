"""Where a test run's time goes, per directory and per file, and which order of the longest files
(tests/conftest.py SLOWEST_FILES) lets scripts/test's two xdist workers finish together.

    ./scripts/test -q --durations=0 --durations-min=0 > run.log   # one full run (the lead's)
    python benchmarks/suite_balance.py run.log [more.log ...] [--workers 2] [--top 25]

Reads pytest's ``--durations`` lines ("12.34s call     tests/x.py::test_y", setup and teardown too)
of one or more logs (per-directory runs add up; a test seen twice keeps its last figures), and prints:

* the seconds of each directory and of the ``--top`` most costly files (setup + call + teardown:
  a module-scoped fixture is paid in the setup of the file's first test);
* the finish time of each worker when the files are handed out as pytest-xdist's ``--dist loadfile``
  does it (scripts/test: ``--no-loadscope-reorder``, the order of tests/conftest.py), for today's
  SLOWEST_FILES and for the files sorted longest first, and that order as a SLOWEST_FILES to paste.

The simulation follows xdist's LoadScopeScheduling (3.8): each worker is given one file, then
another whenever at most two of its tests are left to run, so a worker always holds the next file
before it finishes the current one. Durations below ``--durations-min`` (pytest default 0.005 s)
are missing from the log and count as 0.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\s*([0-9.]+)s\s+(setup|call|teardown)\s+(\S+?\.py)::(\S.*?)\s*$")


def read_durations(paths: list[Path]) -> dict[str, dict[str, float]]:
    """file -> test -> seconds (its setup, call and teardown)."""
    seen: dict[tuple[str, str, str], float] = {}
    for path in paths:
        for line in path.read_text(errors="replace").splitlines():
            m = LINE.match(line)
            if m:
                secs, phase, file, test = m.groups()
                seen[(file, test, phase)] = float(secs)
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (file, test, _phase), secs in seen.items():
        out[file][test] += secs
    return out


def slowest_files_now() -> list[str]:
    """SLOWEST_FILES as tests/conftest.py has it."""
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SLOWEST_FILES" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return []


def simulate(order: list[str], tests: dict[str, list[float]], workers: int) -> list[float]:
    """Finish time of each worker when the files are queued in ``order`` (xdist loadfile)."""
    queue = [f for f in order if tests.get(f)]
    pending: list[list[float]] = [[] for _ in range(workers)]  # the durations of each worker's tests
    clock = [0.0] * workers

    def assign(w: int) -> None:
        if queue:
            pending[w].extend(tests[queue.pop(0)])

    for w in range(workers):
        assign(w)
    for w in range(workers):
        if len(pending[w]) <= 2:
            assign(w)
    while any(pending):
        # the worker whose current test ends first
        w = min((w for w in range(workers) if pending[w]), key=lambda w: clock[w] + pending[w][0])
        clock[w] += pending[w].pop(0)
        if len(pending[w]) <= 2:
            assign(w)
    return clock


def improve(files: list[str], makespan) -> list[str]:
    """Longest first is not the best order when each worker holds its next file ahead (the two
    longest files can land on one worker): swap pairs while a swap shortens the run."""
    best, best_t = list(files), makespan(files)
    better = True
    while better:
        better = False
        for i in range(len(best)):
            for j in range(i + 1, len(best)):
                trial = list(best)
                trial[i], trial[j] = trial[j], trial[i]
                t = makespan(trial)
                if t < best_t - 0.5:
                    best, best_t, better = trial, t, True
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    durations = read_durations(args.logs)
    if not durations:
        print("no --durations lines found (run pytest with --durations=0)", file=sys.stderr)
        return 1
    totals = {f: sum(t.values()) for f, t in durations.items()}
    per_dir: dict[str, float] = defaultdict(float)
    for f, s in totals.items():
        per_dir[str(Path(f).parent)] += s
    total = sum(totals.values())
    print(f"{len(durations)} files, {sum(len(t) for t in durations.values())} tests, {total:.0f} s in all\n")
    print("per directory:")
    for d, s in sorted(per_dir.items(), key=lambda x: -x[1]):
        print(f"  {s:8.1f} s  {100 * s / total:4.1f} %  {d}")
    print(f"\nthe {args.top} most costly files:")
    for f, s in sorted(totals.items(), key=lambda x: -x[1])[: args.top]:
        print(f"  {s:8.1f} s  {len(durations[f]):4d} tests  {f}")

    tests = {f: list(t.values()) for f, t in durations.items()}
    # after SLOWEST_FILES the files keep their collection order (scripts/test: --no-loadscope-reorder),
    # the paths' order as pytest walks the directories
    def order(slowest: list[str]) -> list[str]:
        return [f for f in slowest if f in totals] + [f for f in sorted(totals) if f not in slowest]

    share = total / args.workers
    proposed = [f for f in sorted(totals, key=lambda f: -totals[f]) if totals[f] >= share / 20]  # 5 % of a share
    proposed = improve(proposed, lambda slowest: max(simulate(order(slowest), tests, args.workers)))
    print(f"\n{args.workers} workers, --dist loadfile (finish time of each worker; ideal {share:.1f} s):")
    for name, slowest in (("SLOWEST_FILES today", slowest_files_now()), ("proposed below", proposed)):
        clock = simulate(order(slowest), tests, args.workers)
        print(f"  {name:20s} " + "  ".join(f"{c:7.1f} s" for c in clock))
    print("\nSLOWEST_FILES = (")
    for f in proposed:
        print(f'    "{f}",  # {totals[f]:.0f} s')
    print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
