"""What the play page's explanations (issue #19: choice previews, the terms and rule summaries
of the screen; ``facilitation/web/teach.py``) add to drawing the acting seat's live region.

    PYTHONPATH=. .venv/bin/python benchmarks/play_explanations.py [--repeat 50]

A Peru position with a long list of choices (the Shining Path's Rally spaces, 12 choices plus
Done): the previews (``Rules.preview`` on a copy of the state per choice) and the screen's
glossary lookup, each timed per region draw, with the load average (a shared machine's wall time
mostly measures the other processes). A region is drawn once per version and seat (cached).
"""

from __future__ import annotations

import argparse
import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
django.setup()

from django.utils import translation  # noqa: E402

import engine  # noqa: E402
from facilitation.web import teach  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=50)
    n = ap.parse_args().repeat
    r = engine.load("peru")
    s = r.setup(7, {})
    for cid in ("swap:junin", "box:op_sa", "op:rally"):
        s, _ = r.apply(s, r.prompt(s).seats[0], cid)
    p = r.prompt(s)
    seat = p.seats[0]
    choices = [c.to_dict() for c in p.choices_for(seat)]
    shown = [dict(c, label=str(c["label"]), help=str(c.get("help") or "")) for c in choices]
    names = {"shining_path_resources": "Shining Path Resources", "political_will": "Political Will"}
    with translation.override("en"):
        teach.previews(r, s, seat, choices, names)
        teach.screen(r, "peru", {"text": str(p.text), "rule": p.rule}, shown, {})
        t = time.perf_counter()
        for _ in range(n):
            teach.previews(r, s, seat, choices, names)
        prev = (time.perf_counter() - t) / n
        t = time.perf_counter()
        for _ in range(n):
            teach.screen(r, "peru", {"text": str(p.text), "rule": p.rule}, shown, {})
        scr = (time.perf_counter() - t) / n
    print(f"load average {os.getloadavg()[0]:.1f}; {len(choices)} choices")
    print(f"previews: {prev * 1000:.1f} ms per region; terms and rules of the screen: {scr * 1000:.2f} ms per region")


if __name__ == "__main__":
    main()
