"""The browser's CPU for redrawing a live region: innerHTML against play.js's morph (issue 20).

Records the successive live regions of one team seat of a Tears of Tyranny game, as a team's
page receives them, then redraws them in Debian's Chromium one after the other, each way in
turn, and reports per redraw the CPU of every Chromium process (read from ``/proc``) and the
page's main-thread time (the DevTools ``Performance`` metrics: tasks, style, layout):

- ``innerHTML``: the region replaced whole, as play.js did before;
- ``morph``: ``coinlabMorphInto`` of the tree's own ``play.js`` (equal nodes kept in place);
- ``idiomorph``: the idiomorph library, for comparison, when ``--idiomorph`` names its
  ``idiomorph.min.js`` (not a dependency of the project; ``npm pack idiomorph@0.8.0`` gets it).

Every way must end on the last region's DOM, node for node; the command fails otherwise.

Recording: a throwaway embedded site (SQLite and eager Celery in a temporary folder, the demo
course's live Tears of Tyranny session, four student teams); ``--decisions`` legal decisions
(seeded choice among the teams' legal ones) through the decision service; after each, the
watched seat's region is fetched as its student fetches it (``/sessions/N/play/live/``).

    .venv/bin/python benchmarks/region_swap.py --decisions 40 --rounds 3

The way it is measured: the page has the site's stylesheet and the region in ``#live`` at
laptop size; each redraw is followed by an animation frame, so its style, layout and paint are
counted. Alternate rounds; compare the ways within one run (a noisy machine moves all alike).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # process_cpu, beside this file
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def record(decisions: int, seed: int, seat_index: int) -> tuple[str, list[str]]:
    """The watched seat and its regions, one per version that changed it (in order)."""
    var = tempfile.mkdtemp(prefix="coinlab-region-swap-")
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    os.environ.update({"COINLAB_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "coinlab.settings", "DEBUG": "0",
                       "SECRET_KEY": "region-swap-benchmark-not-a-secret-0123456789abcdef",
                       "LOG_LEVEL": "WARNING"})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    from facilitation import demo, selectors, services
    from facilitation.models import Seat

    demo.build_demo_reports = lambda sessions: []  # the finished game's review is not needed here
    data = demo.demo_load(scenario="tears_of_tyranny")
    live = data["games"][0]["live"]
    seats = list(Seat.objects.filter(session=live, team__isnull=False).select_related("team").order_by("id"))
    player = {s.seat_key: s.team.members.order_by("username").first() for s in seats}
    watched = seats[seat_index].seat_key
    client = Client()
    client.force_login(player[watched])
    url = f"/sessions/{live.pk}/play/live/?seat={watched}"
    rng = random.Random(seed)
    regions: list[str] = []

    def fetch() -> None:
        resp = client.get(url)
        if resp.status_code != 200:
            raise SystemExit(f"the region answered {resp.status_code}")
        html = resp.content.decode()
        if not regions or regions[-1] != html:
            regions.append(html)

    fetch()
    for n in range(decisions):
        live.refresh_from_db()
        rules, state = selectors.session_state(live)
        prompt = rules.prompt(state)
        if prompt is None:
            break
        movable = [s for s in prompt.seats if s in player and prompt.choices_for(s)]
        if not movable:
            raise SystemExit(f"after {n} decisions no team seat has a choice")
        seat = rng.choice(movable)
        choice = rng.choice(prompt.choices_for(seat)).id
        services.choice_submit(session=live, user=player[seat], seat=seat, choice=choice, seq=live.head_seq,
                               idempotency_key=f"bench-{n}", rationale="benchmark")
        fetch()
    return watched, regions


def chromium_cpu() -> float:
    """CPU seconds (user + system) of the Chromium processes this command started (descendants
    of this process: other browsers on the machine are not counted). The CPU and the kinds are
    ``process_cpu.read_all``'s; only the parentage is read here."""
    from process_cpu import read_all

    parents: dict[str, str] = {}

    def parent(pid: str) -> str:  # each process's stat read once per call (renderers share their browser)
        if pid not in parents:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    parents[pid] = f.read().rsplit(")", 1)[1].split()[1]
            except OSError:
                parents[pid] = "0"
        return parents[pid]

    me = str(os.getpid())

    def ours(pid: str) -> bool:
        while pid not in ("0", "1"):
            if pid == me:
                return True
            pid = parent(pid)
        return False

    return sum(cpu for (pid, _start), (kind, cpu) in read_all().items() if kind.startswith("chromium") and ours(pid))


REDRAW = """([html, way]) => new Promise(done => {
  const live = document.getElementById('live');
  if (way === 'innerHTML') live.innerHTML = html;
  else if (way === 'morph') window.coinlabMorphInto(live, html);
  else Idiomorph.morph(live, html, {morphStyle: 'innerHTML'});
  requestAnimationFrame(() => setTimeout(done, 0));
})"""


def measure(regions: list[str], rounds: int, idiomorph: str | None) -> dict:
    from playwright.sync_api import sync_playwright

    static = ROOT / "facilitation" / "web" / "static" / "web"
    folder = Path(tempfile.mkdtemp(prefix="coinlab-region-swap-page-"))
    scripts = f'<script src="{(static / "js" / "play.js").as_uri()}"></script>'
    if idiomorph:
        scripts += f'<script src="{Path(idiomorph).resolve().as_uri()}"></script>'
    page_file = folder / "page.html"
    page_file.write_text('<!doctype html><html lang="en"><head><meta charset="utf-8">'
                         f'<link rel="stylesheet" href="{(static / "css" / "coinlab.css").as_uri()}">{scripts}'
                         '</head><body class="page-play"><main><div id="live"></div></main></body></html>')
    ways = ["innerHTML", "morph"] + (["idiomorph"] if idiomorph else [])
    out: dict[str, dict[str, list[float]]] = {w: {} for w in ways}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.goto(page_file.as_uri())
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")

        def metrics() -> dict[str, float]:
            return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

        finals = {}
        for _ in range(rounds):
            for way in ways:
                page.evaluate("h => { document.getElementById('live').innerHTML = h; }", regions[0])
                page.wait_for_timeout(300)
                m0, c0 = metrics(), chromium_cpu()
                for html in regions[1:]:
                    page.evaluate(REDRAW, [html, way])
                page.wait_for_timeout(300)  # what the last redraw left to the compositor
                c1, m1 = chromium_cpu(), metrics()
                n = len(regions) - 1
                row = out[way]
                row.setdefault("chromium_cpu_ms", []).append((c1 - c0) * 1000 / n)
                for key, name in (("TaskDuration", "main_thread_ms"), ("RecalcStyleDuration", "style_ms"),
                                  ("LayoutDuration", "layout_ms")):
                    row.setdefault(name, []).append((m1[key] - m0[key]) * 1000 / n)
                finals[way] = page.evaluate("""(last) => {
                    const want = document.createElement('template'); want.innerHTML = last;
                    const got = document.createElement('template'); got.innerHTML = document.getElementById('live').innerHTML;
                    return got.content.isEqualNode(want.content); }""", regions[-1])
        browser.close()
    for way, same in finals.items():  # node for node (attributes as sets: a kept element keeps their order)
        if not same:
            raise SystemExit(f"{way} did not end on the last region's DOM")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--seat-index", type=int, default=1, help="which team seat's page is watched (0-3)")
    ap.add_argument("--idiomorph", help="path of idiomorph.min.js, to measure it too")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    t0 = time.time()
    seat, regions = record(args.decisions, args.seed, args.seat_index)
    sizes = [len(r) for r in regions]
    print(f"recorded {len(regions)} regions of seat {seat} in {time.time() - t0:.0f} s "
          f"({min(sizes) // 1000}-{max(sizes) // 1000} KB)")
    if len(regions) < 3:
        raise SystemExit("too few regions to measure")
    res = measure(regions, args.rounds, args.idiomorph)
    print(f"\nper redraw, median of {args.rounds} rounds of {len(regions) - 1} redraws (min-max):\n")
    print("| way | Chromium CPU ms | main thread ms | style ms | layout ms |")
    print("|---|---|---|---|---|")
    for way, row in res.items():
        cells = [f"{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})"
                 for v in (row["chromium_cpu_ms"], row["main_thread_ms"], row["style_ms"], row["layout_ms"])]
        print(f"| {way} | " + " | ".join(cells) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps({"seat": seat, "regions": len(regions), "figures": res}, indent=1))


if __name__ == "__main__":
    main()
