"""Where a live region's CPU goes, per game and per seat: the state's decoding
(``selectors.session_state``), the seats' contexts (``regions.live_contexts``: the seat's view and
choices, the board model, the choices' previews, the log's lines, the victory panel) and the
templates (``regions.shared_region``: ``web/play/_live.html`` with the board's markup). Read-only:
it draws the first ``--sessions`` sessions of each game of a load test's classroom
(``setup_load.py`` / ``ramp.py``) in process, ``--rounds`` times, as the pre-draw worker does (all
team seats together, the default language, a request of no user, the heap frozen after warm-up as
in ``coinlab/warmup.py``'s processes).

    PYTHONPATH=<tree> DATABASE_URL=... REDIS_URL=... .venv/bin/python benchmarks/load/region_split.py \\
        --rounds 10

Prints per game the median CPU ms per seat of each part (the first two rounds are warm-up and not
counted). CPU time, so a busy machine inflates all parts alike; compare trees side by side, or
count instructions with ``predraw_instructions.py`` under callgrind.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--sessions", type=int, default=2, help="sessions per game")
    args = ap.parse_args()
    if args.rounds < 3:
        ap.error("--rounds must be at least 3 (two are warm-up)")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest
    from django.utils import translation

    from facilitation import eventlog, selectors
    from facilitation.models import ClassSession, Seat
    from facilitation.rendering import regions

    games: dict[str, list] = {}
    for s in ClassSession.objects.select_related("course").order_by("id"):
        if s.head_seq:
            games.setdefault(eventlog.rules_for(s).key, []).append(s)
    if not games:
        sys.exit("no session with a position in this database: run setup_load.py first")
    print(f"{'game':<18} {'seats':>5} {'state':>7} {'context':>8} {'template':>9} {'total':>7}   (CPU ms per seat, median)")
    for key, sessions in games.items():
        parts: dict[str, list[float]] = {"state": [], "context": [], "template": []}
        n_seats = 0
        for s in sessions[:args.sessions]:
            seats = list(Seat.objects.filter(session=s, team__isnull=False).order_by("id")
                         .values_list("seat_key", flat=True))
            if not seats:
                continue
            n_seats = len(seats)
            with translation.override(settings.LANGUAGE_CODE):
                for round_ in range(args.rounds):
                    if round_ == 2:
                        gc.collect()
                        gc.freeze()
                    c0 = time.process_time()
                    loaded = selectors.session_state(s)
                    c1 = time.process_time()
                    contexts = regions.live_contexts(s, seats, loaded)
                    c2 = time.process_time()
                    for seat in seats:
                        request = HttpRequest()
                        request.method = "GET"
                        request.user = AnonymousUser()
                        regions.shared_region(request, s, seat, contexts[seat])
                    c3 = time.process_time()
                    if round_ >= 2:
                        for part, t in zip(parts, ((c1 - c0) / len(seats), (c2 - c1) / len(seats),
                                                   (c3 - c2) / len(seats)), strict=True):
                            parts[part].append(t * 1000)
        med = {p: statistics.median(v) for p, v in parts.items() if v}
        if med:
            print(f"{key:<18} {n_seats:>5} {med['state']:>7.2f} {med['context']:>8.2f} {med['template']:>9.2f} "
                  f"{sum(med.values()):>7.2f}", flush=True)


if __name__ == "__main__":
    main()
