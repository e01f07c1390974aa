"""Series for comparing a session with others: the measures that decide the game, card by
card, for a log of events, and for a bot-only game from the same seed (pure, no Django;
the engine is pure Python too).

The bot-only baseline plays the session's scenario from its seed and options with the
engine's bots (each seat's bot seeded from the session seed, so it is the same game every
time the report is built) and records the same measures.
"""

from __future__ import annotations

from facilitation.reports.builder.specs import ScenarioSpec

# the bots of the baseline, per game: the strongest bot that plays a whole game in about a second
# (Tears of Tyranny's heuristic bot looks ahead and takes 15-20 s per game: its random bot is used)
BASELINE_BOTS = {"peru": "heuristic", "andean_abyss": "nonplayer", "tears_of_tyranny": "random"}
MAX_BASELINE_CHOICES = 20_000


def measure_series(metrics_by_card: list[tuple[int, dict]], spec: ScenarioSpec, params: dict) -> dict:
    """measure key -> {"x": cards, "y": values}: the value at the end of each card (one point per
    card where it changed), continued to the last card."""
    out: dict[str, dict] = {}
    for ms in spec.measures:
        xs, ys = [], []
        for card, m in metrics_by_card:
            v = ms.value(m, params)
            if v is None:
                continue
            if xs and xs[-1] == card:
                ys[-1] = v
                continue
            if ys and ys[-1] == v:
                continue
            xs.append(card)
            ys.append(v)
        if xs and metrics_by_card and xs[-1] < metrics_by_card[-1][0]:
            xs.append(metrics_by_card[-1][0])
            ys.append(ys[-1])
        if xs:
            out[ms.key] = {"x": xs, "y": ys}
    return out


def events_metrics_by_card(events: list[dict], cards: list[int]) -> list[tuple[int, dict]]:
    cur: dict = {}
    out = []
    for e, c in zip(events, cards, strict=True):
        cur = {**cur, **(e.get("metrics") or {})}
        out.append((c, cur))
    return out


def bot_baseline(scenario_key: str, seed: int, options: dict, spec: ScenarioSpec, params: dict) -> dict | None:
    """The measures of a bot-only game from ``seed``: {"bots", "series", "result", "choices"}."""
    import engine
    from engine.bots.base import make_bot
    from facilitation.reports.builder.analysis import _card_counter

    try:
        rules = engine.load(scenario_key)
    except engine.UnknownScenario:
        return None
    kinds = rules.bot_kinds()
    kind = BASELINE_BOTS.get(scenario_key, "random")
    if kind != "random" and kind not in kinds:
        kind = "random"
    opts = {k: v for k, v in (options or {}).items() if k not in ("position", "script")}
    state = rules.setup(seed=seed, options=opts)
    bots = {s: make_bot(rules, kind, s, seed * 100_003) for s in rules.seat_ids()}
    events = [{"seq": 0, "kind": "system", "payload": {}, "facts": [], "metrics": rules.metrics(state)}]
    n = 0
    while (p := rules.prompt(state)) is not None and n < MAX_BASELINE_CHOICES:
        seat = p.seats[0]
        d = bots[seat].choose(state, p)
        facts = rules.apply_inplace(state, seat, d.choice_id)
        n += 1
        events.append({"seq": n, "kind": "bot", "payload": {}, "facts": facts, "metrics": rules.metrics(state)})
    cards = _card_counter(events, spec)
    return {"bots": kind, "choices": n, "result": rules.result(state),
            "series": measure_series(events_metrics_by_card(events, cards), spec, params)}
