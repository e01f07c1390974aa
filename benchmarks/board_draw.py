"""CPU cost of drawing one seat's board (model + markup) for a live region, per game.

For positions every 20 random legal choices (seeded) and every seat: the first draw (the
per-process memos emptied once per round, so each position profits only from the positions
drawn before it, as after a move), the same view drawn again, and a cold draw (every memo
emptied before it: a process's first board of a game and language). Runs on a checkout from
before issue 13.4 (board model in ``facilitation.web.board``) or after it
(``facilitation.rendering.board``), so both can be measured in one run:

    PYTHONPATH=. DATABASE_URL=postgres://postgres@127.0.0.1:5432/coinlab \\
        .venv/bin/python benchmarks/board_draw.py
"""

from __future__ import annotations

import os
import random
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def _positions(engine, key: str):
    rules = engine.load(key)
    state = rules.setup(seed=11, options={})
    rng = random.Random(3)
    out = []
    for i in range(121):
        p = rules.prompt(state)
        if i % 20 == 0:
            out.append(state)
        if p is None:
            break
        seat = p.seats[0]
        state, _ = rules.apply(state, seat, rng.choice(p.choices_for(seat)).id)
    return rules, out


def main() -> None:
    import django

    django.setup()
    from django.utils import translation

    import engine
    try:
        from facilitation.rendering import board
    except ImportError:  # before issue 13.4
        from facilitation.web import board

    with translation.override("en"):
        for key in ("peru", "andean_abyss", "tears_of_tyranny"):
            rules, positions = _positions(engine, key)
            views = [(rules.view(s, seat), rules.metrics(s)) for s in positions for seat in rules.seat_ids()]
            first, again, cold = [], [], []
            for _round in range(5):
                board.clear_memo()
                for view, metrics in views:
                    t = time.process_time()
                    board.markup(board.build(rules, view, metrics=metrics))
                    first.append(time.process_time() - t)
                    t = time.process_time()
                    board.markup(board.build(rules, view, metrics=metrics))
                    again.append(time.process_time() - t)
            for view, metrics in views[::4]:
                board.clear_memo()
                t = time.process_time()
                board.markup(board.build(rules, view, metrics=metrics))
                cold.append(time.process_time() - t)
            print(f"{key:17s} regions={len(views):3d}  first draw median {statistics.median(first) * 1000:6.2f} ms"
                  f"  same view again {statistics.median(again) * 1000:6.2f} ms"
                  f"  cold {statistics.median(cold) * 1000:6.2f} ms")


if __name__ == "__main__":
    main()
