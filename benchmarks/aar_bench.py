"""AAR build benchmark: time and peak memory to build the HTML + PDF of a full game.

    .venv/bin/python benchmarks/aar_bench.py [--scenario peru] [--seed 3] [--repeat 3] [--json]

Plays one complete bot game with the engine (the log a session would hold:
every decision with its facts and metrics, map views at each Propaganda
Round), then builds the report in two fresh processes:

* cold: no kaleido server (one Chromium started for the report's charts),
* warm: as in a Celery worker, a kaleido server already running
  (``worker_process_init``); the first build is a warm-up, then ``--repeat``
  builds are timed.

The timed build does what the worker does (``services._build``): with the code since
``start_pictures``, the summary PDF is typeset while the browser draws the pictures, so the
"charts" column holds both and "pdf" the full PDF alone; the code before it drew the charts'
SVG in "charts" and the maps' and charts' JPEGs and both PDFs in "pdf". The child processes
freeze what they loaded (``gc.freeze()``), as a worker process does.

Wall time and the worker's CPU time (``time.process_time``: Python, WeasyPrint;
Chromium's own CPU is not included) are printed with the load average, since
wall time on a shared machine mostly measures the other processes. Peak RSS is measured for the Python process (the worker) and, separately,
for its Chromium process tree as PSS (shared pages counted once; RSS sampled from /proc
every 20 ms, the browser's PSS every 0.5 s).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def full_game_bundle(scenario: str, seed: int, bots: str = "random") -> dict:
    """The data bundle of one complete bot game, shaped like ``selectors.report_bundle``: engine
    texts (facts, choice labels, titles, the result, the board's names) rendered to words, as
    the report builder reads them (it reads text, never messages). Needs ``django.setup()``."""
    import engine
    from engine.bots.base import make_bot
    from facilitation.reports.builder.analysis import _is_phase
    from facilitation.reports.builder.specs import spec_for
    from facilitation.text import rendered, tr

    rules = engine.load(scenario)
    spec = spec_for(scenario)
    state = rules.setup(seed=seed, options={})
    seat_ids = rules.seat_ids()
    players = {s: make_bot(rules, bots, s, seed) for s in seat_ids}
    teams = [{"name": f"Team {tr(s.title)}", "seats": [s.id], "members": [f"student {i + 1}"],
              "intents": [{"text": f"{tr(s.title)}: win by the victory conditions.", "seq": 1}]}
             for i, s in enumerate(rules.seats)]
    t = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
    events = [{"seq": 1, "kind": "system", "facts": [{"type": "session", "text": "The session starts."}],
               "metrics": rules.metrics(state), "created_at": t}]
    snapshots = {0: rules.board_view(state, None).to_dict()}  # as selectors.phase_views: start,
    seq = 1
    rng = 12345
    while (p := rules.prompt(state)) is not None:
        seat = p.seats[0]
        d = players[seat].choose(state, p)
        c = p.find(seat, d.choice_id)
        facts = rules.apply_inplace(state, seat, c.id)
        seq += 1
        rng = (rng * 1103515245 + 12345) % 2**31
        ms = 1500 + rng % 40000
        t += dt.timedelta(milliseconds=ms)
        e = {"seq": seq, "kind": "decision", "seat": seat, "payload": rendered({"choice": c.id, "label": c.label}),
             "facts": rendered(facts), "metrics": rules.metrics(state), "rationale": tr(d.reason) if seq % 7 == 0 else "",
             "decision_ms": ms, "created_at": t}
        events.append(e)
        if _is_phase({"payload": {}, "facts": facts}, spec):
            snapshots[seq] = rules.board_view(state, None).to_dict()  # each phase
    snapshots[seq] = rules.board_view(state, None).to_dict()  # and the end
    return {
        "scenario": {"key": rules.key, "title": tr(rules.title),
                     "seats": [{"id": s.id, "title": tr(s.title), "color": s.color} for s in rules.seats]},
        "course": {"title": "Benchmark course", "instructors": ["Instructor"]},
        "session": {"id": 1, "title": f"{tr(rules.title)} benchmark (seed {seed})", "seed": seed},
        "teams": teams, "seats": [], "events": events, "notes": [], "bookmarks": [],
        "result": rendered(rules.result(state)), "board": rendered(rules.board()), "snapshots": snapshots, "as_of_seq": seq,
    }


class RssSampler:
    """Peak RSS (MB) of this process and of its descendants (Chromium), from /proc."""

    def __init__(self, interval: float = 0.02):
        self.interval = interval
        self.peak_self = 0.0
        self.peak_children = 0.0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _rss(pid: int) -> float:
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    @staticmethod
    def _pss(pid: int) -> float:
        """Proportional set size: shared pages split between the processes sharing them."""
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    @staticmethod
    def _children(pid: int) -> list[int]:
        out = []
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as fh:
                    out.extend(int(x) for x in fh.read().split())
        except OSError:
            pass
        return out

    def _tree(self, pid: int) -> list[int]:
        todo, seen = self._children(pid), []
        while todo:
            c = todo.pop()
            seen.append(c)
            todo.extend(self._children(c))
        return seen

    def _run(self):
        me = os.getpid()
        n = 0
        while not self._stop.is_set():
            self.peak_self = max(self.peak_self, self._rss(me))
            if n % 25 == 0:  # PSS of the browser tree is costly to read (smaps): every 0.5 s
                self.peak_children = max(self.peak_children, sum(self._pss(c) for c in self._tree(me)))
            n += 1
            time.sleep(self.interval)

    def __enter__(self):
        self._t.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()


def build_once(bundle: dict) -> dict:
    from facilitation.reports import rendering
    from facilitation.reports.builder.baseline import bot_baseline
    from facilitation.reports.builder.report import build_report
    from facilitation.reports.builder.specs import spec_for

    c0 = time.process_time()
    t0 = time.perf_counter()
    # as report_bundle does: the bot-only game from the same seed for the comparison section
    key = bundle["scenario"]["key"]
    bundle = {**bundle, "comparison": {"earlier": [], "baseline": bot_baseline(
        key, bundle["session"]["seed"], {}, spec_for(key), bundle.get("outcome_params") or {})}}
    model = build_report(bundle)
    t1 = time.perf_counter()
    if hasattr(rendering, "start_pictures"):  # as the worker (services._build) does
        pictures = rendering.start_pictures(model)
        summary_pdf = rendering.render_pdf(model, summary_only=True)  # while the browser draws
        pictures.wait()
    else:  # the code before start_pictures (side-by-side runs against older commits)
        svgs = rendering.figures_to_svg([c.figure for c in model.all_charts])
        for c, s in zip(model.all_charts, svgs, strict=True):
            c.svg = s
        summary_pdf = None
    t2 = time.perf_counter()
    html = rendering.render_html(model)
    t3 = time.perf_counter()
    pdf = rendering.render_pdf(model)
    if summary_pdf is None:
        summary_pdf = rendering.render_pdf(model, summary_only=True)
    t4 = time.perf_counter()
    return {"total_s": t4 - t0, "worker_cpu_s": time.process_time() - c0, "analysis_s": t1 - t0, "charts_s": t2 - t1, "html_s": t3 - t2, "pdf_s": t4 - t3,
            "charts": len(model.all_charts), "snapshots": len(model.snapshots), "pdf_bytes": len(pdf), "summary_pdf_bytes": len(summary_pdf),
            "html_bytes": len(html), "events": len(bundle["events"]), "cards": model.cover["cards"]}


def child(mode: str, bundle_path: str, repeat: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    import django

    django.setup()
    from facilitation.reports import rendering

    bundle = json.loads(Path(bundle_path).read_text())
    runs = []
    with RssSampler() as rss:
        if mode == "warm":
            rendering.kaleido_start()
        # as a worker process (coinlab/celery.py, worker_process_init): what is loaded is left
        # out of the garbage collector's full passes
        gc.freeze()
        if mode == "warm":
            build_once(bundle)  # warm-up (browser start, template and font caches)
            for _ in range(repeat):
                runs.append(build_once(bundle))
            rendering.kaleido_stop()
        else:
            runs.append(build_once(bundle))
    out = {"mode": mode, "runs": runs,
           "median_total_s": round(statistics.median(r["total_s"] for r in runs), 3),
           "median_worker_cpu_s": round(statistics.median(r["worker_cpu_s"] for r in runs), 3),
           "load_average": os.getloadavg(),
           "peak_rss_worker_mb": round(max(rss.peak_self, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), 1),
           "peak_rss_chromium_mb": round(rss.peak_children, 1)}
    print(json.dumps(out, default=str))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="peru")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", choices=["cold", "warm"], help=argparse.SUPPRESS)
    ap.add_argument("--bundle", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.bundle, args.repeat)
        return 0
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    import django

    django.setup()
    t0 = time.perf_counter()
    bundle = full_game_bundle(args.scenario, args.seed)
    play_s = time.perf_counter() - t0
    path = ROOT / "var" / f"aar-bench-{args.scenario}-{args.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(bundle, default=str))
    results = {"scenario": args.scenario, "seed": args.seed, "events": len(bundle["events"]),
               "play_s": round(play_s, 2), "modes": {}}
    for mode in ("cold", "warm"):
        proc = subprocess.run([sys.executable, __file__, "--child", mode, "--bundle", str(path),
                               "--repeat", str(args.repeat)], capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        results["modes"][mode] = json.loads(proc.stdout.strip().splitlines()[-1])
    path.unlink(missing_ok=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    r0 = results["modes"]["cold"]["runs"][0]
    print(f"scenario {args.scenario} seed {args.seed}: {results['events']} events, {r0['cards']} cards, "
          f"{r0['charts']} charts, {r0['snapshots']} map snapshots, PDF {r0['pdf_bytes'] // 1024} KiB")
    print(f"{'mode':6s} {'total s':>8s} {'cpu s':>6s} {'analysis':>9s} {'charts':>7s} {'html':>6s} {'pdf':>6s} "
          f"{'worker RSS MB':>14s} {'chromium PSS MB':>16s} {'load avg':>9s}")
    for mode, m in results["modes"].items():
        r = sorted(m["runs"], key=lambda x: x["total_s"])[len(m["runs"]) // 2]
        print(f"{mode:6s} {m['median_total_s']:8.2f} {m['median_worker_cpu_s']:6.2f} {r['analysis_s']:9.2f} "
              f"{r['charts_s']:7.2f} {r['html_s']:6.2f} {r['pdf_s']:6.2f} {m['peak_rss_worker_mb']:14.1f} "
              f"{m['peak_rss_chromium_mb']:16.1f} {m['load_average'][0]:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
