"""The ``coinlab`` console script (ARCHITECTURE.md, "Command line").

Engine commands (``scenarios``, ``simulate``) need no Django; site commands
(``demo``, ``serve``, ``manage``) set up Django first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def _parse_options(pairs: list[str]) -> dict:
    opts: dict = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise SystemExit(f"--option expects KEY=VALUE, got {pair!r}")
        k, v = pair.split("=", 1)
        try:
            opts[k] = json.loads(v)
        except json.JSONDecodeError:
            opts[k] = v
    return opts


def cmd_scenarios(args) -> int:
    import engine

    rows = engine.scenarios()
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            seats = ", ".join(s["title"] for s in r["seats"])
            print(f"{r['key']:20s} {r['title']}  [{seats}]")
    return 0


def cmd_simulate(args) -> int:
    import engine
    from engine.core.simulate import simulate

    rules = engine.load(args.scenario)
    options = _parse_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    out = simulate(rules, seed=args.seed, games=args.games, bots=args.bots, options=options)
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(f"scenario: {out['scenario']}")
        print(f"games: {out['games']}")
        print(f"finished: {out['finished']}")
        print(f"choices: {out['choices']}")
        print(f"cards: {out['cards']}")
        print(f"choices_per_s: {out['choices_per_s']}")
        print(f"cards_per_s: {out['cards_per_s']}")
        for r in out["results"]:
            print(f"game seed={r['seed']} choices={r['choices']} cards={r['cards']} "
                  f"result={json.dumps(r['result'], sort_keys=True)}")
    return 0 if out["finished"] == out["games"] else 1


def cmd_pace(args) -> int:
    import engine
    from engine.core.pace import estimate

    rules = engine.load(args.game)
    options = _parse_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    model = None
    if args.from_logs:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
        import django

        django.setup()
        from facilitation.pacing import time_model

        model = time_model(rules.key)
    out = estimate(rules, options=options, games=args.games, seed=args.seed, model=model)
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
        return 0
    m, d = out["minutes"], out["decisions"]
    print(f"game: {out['game']}  options: {json.dumps(out['options'], sort_keys=True)}")
    print(f"bot-played games: {out['games']} ({out['bots']} bots)")
    src = out["model"] if not out["observed_decisions"] else \
        f"{out['model']} ({out['observed_decisions']} logged decisions)"
    print(f"time model: {src}")
    print(f"minutes: mean {m['mean']}, 10th-90th percentile {m['p10']}-{m['p90']} (median {m['p50']})")
    print(f"decisions: mean {d['mean']} ({d['p10']}-{d['p90']})")
    for seat, n in out["decisions_per_seat"].items():
        print(f"  {seat}: {n} decisions per game")
    return 0


def _django(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(["coinlab", *argv])
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="coinlab", description="CoinLab wargame platform")
    sub = parser.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("scenarios", help="list the games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_scenarios)

    p = sub.add_parser("simulate", help="play full games headless with bots")
    p.add_argument("scenario")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--bots", default="random")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("pace", help="estimate how many minutes a session takes")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=20, help="bot-played games to count (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--from-logs", action="store_true",
                   help="scale the time model to the decision times of logged sessions (needs the site's database)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_pace)

    p = sub.add_parser("demo", help="seed the site with a demo course")
    p.set_defaults(func=lambda a: _django(["demo"]))
    p = sub.add_parser("serve", help="migrate, load the demo and run the embedded site")
    p.add_argument("--addr", default="127.0.0.1:8000")
    p.set_defaults(func=lambda a: _django(["serve_embedded", "--addr", a.addr]))
    p = sub.add_parser("manage", help="run a Django management command")
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=lambda a: _django(a.rest))

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
