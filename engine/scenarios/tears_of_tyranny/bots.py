"""Heuristic players for Tears of Tyranny (``--bots heuristic``).

The bot plays as a thoughtful team member would, from public information only (its own hand and
drawn cards aside): it reads the terrain cards in the develop and dominate boxes, which say
exactly where the adversary will develop and dominate this turn (3.F-3.I), and spends its
turn on those tiles.

* Tile-level decisions (targets, pushes and pulls, presence placement, escalation, the HQ
  shield) are made by one-step look-ahead: apply the choice to a copy of the state and score
  the result with :func:`evaluate`.
* Card decisions (which card to keep, which to pay for) use :func:`card_value`, an estimate of
  what the card can do this turn against the threatened tiles, plus the organic capabilities its
  attributes unlock.
* Refit prefers growing the network (presence uncovers income and card plays), then cards, then
  resources.

Bots never read the RNG or the order of a deck.
"""

from __future__ import annotations

from operator import itemgetter

from engine.bots.base import Bot, BotDecision
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import UNIT_VALUE, content
from engine.scenarios.tears_of_tyranny.game import attributes, covered, income, meets, plays_limit

C = content()
_TYR = itemgetter("tyr")


#: weight of the team-coverage term of :func:`evaluate` (adversary strength within 1 of some
#: player's presence), used with 2+ seats. Balance runs of 2026-11-26 (30 games, standard panel,
#: heuristic wins for 1/2/3/4 players): weight 0 -> 22/9/8/12, 0.6 -> 15/14/19/27, 1.5 -> -/9/15/-.
#: Solo, the term cost the Liberators 7 wins of 30 (they spread toward units they cannot hold),
#: so it is a team term only: it spreads the seats' networks to complement each other.
COVER_W = 0.6


def threats(state: dict) -> tuple[set, set]:
    return (set(ADV.card_tiles(state, state["boxes"]["dominate"])),
            set(ADV.card_tiles(state, state["boxes"]["develop"])))


def evaluate(state: dict, seat: str) -> float:
    """Team-view score of a position (higher is better for the players).

    The bots' look-ahead scores every choice with this (thousands of times a game), so it is
    written for speed; every float is still computed by the same operations in the same order
    (a sum in another order rounds differently, and the same seed must give the same game)."""
    res = state["result"]
    if res is not None:
        return 10_000.0 if res["winner"] == "players" else -10_000.0 + state["turn"] * 10
    inf = state["inf"]
    n = len(state["seats"])
    tok = 3.0 + 0.5 * (n - 1)
    v = tok * (inf["n_earned"] * inf["cap"] + inf["earned"])
    tiles = state["tiles"]
    on_map = sum(map(_TYR, tiles.values()))  # B.tyranny_on_map
    pool_total = on_map + state["tyr_pool"]
    v -= 45.0 * on_map / max(pool_total, 1)
    v -= 25.0 / (state["tyr_pool"] + 0.5)
    dom, dev = threats(state)
    value = UNIT_VALUE
    ptot: dict = {}
    ptiles: dict = {}
    near: set = set()
    adj = C.adj
    for tid, t in tiles.items():
        v += 0.4 * t["blue"] - 0.3 * t["red"]
        us, pres, gsd = t["u"], t["pres"], t["gs"]
        if not us and not pres and not gsd:
            continue
        if pres:
            near.add(tid)
            near.update(adj[tid])
            for s, k in pres.items():
                ptot[s] = ptot.get(s, 0) + k
                ptiles[s] = ptiles.get(s, 0) + 1
        val = 0
        for u in us:
            val += value[u[0]]
        v -= 0.6 * val / n
        gs = 0
        for k in gsd.values():
            gs += k
        if tid in dom and "dominate" not in t["prev"]:
            s = ADV.dominate_strength(state, tid)
            if s >= 2:
                v -= 12.0 + (10.0 if t["tyr"] else 0.0) + 4.0 * sum(pres.values()) + 1.0 * gs + 0.5 * s
            elif s == 1 and gs:
                v -= 0.5
        if us and tid in dev and "develop" not in t["prev"]:
            v -= 3.0 + 1.5 * len({u[0] for u in us})
        v += 0.5 * min(gs, 4) + (0.6 * min(gs, 3) if val else 0.0) + 2.0 * len(t["bases"])
    if COVER_W and n > 1:
        # team coverage: the adversary units within 1 of some player's presence can be reached by
        # most capabilities (range 0-1) before they develop and dominate; a network that spreads
        # toward them, rather than piling up where a teammate already stands, defends the map.
        # Summed in the map's tile order, never in set order: a set of strings iterates in an
        # order that depends on PYTHONHASHSEED, and float sums in another order round differently
        # (issue 16.10: the same seed must give the same game in every process).
        for tid in state["order"]:
            if tid not in near:
                continue
            t = tiles.get(tid)
            if t is not None and t["u"]:
                w = 2.0 if tid in dom or tid in dev else 1.0
                val = 0
                for u in t["u"]:
                    val += value[u[0]]
                v += COVER_W * w * min(val, 4)
    for s in state["seats"]:
        pl = state["pl"][s]
        pres = ptot.get(s, 0)
        ntiles = ptiles.get(s, 0)
        v += 4.0 * min(pres, 8) + 2.0 * ntiles
        if pres <= 1:
            v -= 40.0
        r = pl["res"]
        v += 1.2 * min(r, 3) + 0.4 * max(0, min(r, 10) - 3) + 2.5 * income(pl, s) + 3.0 * min(plays_limit(pl, s), 5)
    return v


def simulate_card(rules, state: dict, seat: str, ops: list, tid: str, src: str) -> dict:
    """A copy of ``state`` after ``ops`` resolve in ``tid`` (push adversaries away, else stop)."""
    s2 = rules.copy(state)
    fr = {"k": "effect", "ops": list(ops), "i": 0, "tile": tid, "label": "look-ahead", "moved": 0, "src": src}
    for _ in range(12):
        if rules._run_effect(s2, seat, fr, []):
            break
        ch = rules._op_choices(s2, seat, fr, fr["ops"][min(fr["i"], len(fr["ops"]) - 1)])
        pick = next((c for c in ch if c.id.startswith("push:") and c.payload.get("piece") in ("cell", "outpost", "garrison")), None)
        pick = pick or next((c for c in ch if c.id.startswith(("row:", "hit:", "civ:red"))), None)
        pick = pick or next((c for c in ch if c.id.startswith("civ:")), None)
        if pick is None and fr.get("drive"):
            best = B.default_drive_target(s2, tid)
            pick = next((c for c in ch if c.id == f"drive:{best}"), ch[0] if ch else None)
        if pick is None:
            fr["i"] += 1
            fr["moved"] = 0
            continue
        head, _, rest = pick.id.partition(":")
        rules._apply_op_choice(s2, seat, fr, head, rest, [])
    return s2


def card_value(rules, state: dict, seat: str, cid: str, base: float | None = None) -> float:
    """What paying for card ``cid`` now is worth: the best one-step result of its effect on a
    promising target (threatened tiles first), plus the organic capabilities its attributes unlock."""
    card = C.cards[cid]
    pl = state["pl"][seat]
    dom, dev = threats(state)
    targets = rules._card_targets(state, seat, card)
    targets.sort(key=lambda t: (t not in dom, t not in dev, not state["tiles"][t]["u"]))
    if base is None:
        base = evaluate(state, seat)
    best = 0.0
    for tid in targets[:6]:
        s2 = simulate_card(rules, state, seat, card["effect"], tid, cid)
        best = max(best, evaluate(s2, seat) - base)
    attrs = attributes(pl, seat)
    after = dict(attrs)
    for a in card["attributes"]:
        after[a] = after.get(a, 0) + 1
    for part in ("patrol", "special"):
        org = C.panels[seat][part]
        if part in pl["used"]:
            continue
        useful = bool(rules._organic_targets(state, seat, part, [{"op": "damage", "n": 1}]))
        for step in org.get("steps", org.get("tiers", [])):
            strong = useful and any(o["op"] not in ("pull", "push") for o in step["ops"])
            if meets(after, step["req"]) and not meets(attrs, step["req"]):
                best += 5.0 if strong else 0.5
            elif strong and any(after.get(a, 0) > attrs.get(a, 0) and attrs.get(a, 0) < n for a, n in step["req"].items()):
                best += 0.6
    return best - 0.9 * card["cost"]


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, state, prompt) -> BotDecision:
        choices = prompt.choices_for(self.seat)
        if len(choices) == 1:
            return BotDecision.because(choices[0].id, msg("only choice"))
        kind = prompt.kind if not prompt.seat_choices else self._kind(state)
        rules = self.rules
        ids = [c.id for c in choices]
        if kind == "refit":
            return self._refit(state, ids)
        if kind == "deck":
            pl = state["pl"][self.seat]
            return BotDecision.because("deck:major" if pl["res"] >= 5 and "deck:major" in ids else
                               ("deck:minor" if "deck:minor" in ids else ids[0]), msg("deck by budget"))
        if kind in ("keep", "reclaim"):
            cards = [c for c in ids if ":" in c]
            best = max(cards, key=lambda c: card_value(rules, state, self.seat, c.split(":", 1)[1]) + C.cards[c.split(":", 1)[1]]["cost"] * 0.5)
            return BotDecision.because(best, msg("most useful card"))
        if kind == "forget":
            worst = min(ids, key=lambda c: card_value(rules, state, self.seat, c.split(":", 1)[1]))
            return BotDecision.because(worst, msg("least useful card"))
        if kind == "select":
            return self._select(state, ids)
        if kind == "burden":
            pay = [i for i in ids if i.startswith("upkeep:")] or ids
            return BotDecision.because(pay[0], msg("pay to keep massed guerrillas while resources last"))
        if kind == "produce":
            made = [i for i in ids if i.startswith("produce:")]
            return BotDecision.because(made[0] if made else "done", msg("take every G the bases offer (free or paid)"))
        if kind == "bottom":
            return BotDecision.because(ids[0], msg("unkept cards back under the deck in drawn order"))
        if kind == "recruit_pull" or (kind == "lpull"):
            return self._recruit_pull(state, ids)
        if kind == "cover":
            row = B.default_cover_row(state["pl"][self.seat])
            return BotDecision.because(f"cover:{row}" if f"cover:{row}" in ids else ids[0], msg("keep the rows balanced"))
        if kind == "drive" or (kind == "effect" and any(i.startswith("drive:") for i in ids)):
            fr = state["frames"][self.seat][-1]
            best = B.default_drive_target(state, fr["tile"])
            return BotDecision.because(f"drive:{best}" if f"drive:{best}" in ids else ids[0],
                               msg("away from the team's presence"))
        if kind == "collateral" or (kind == "effect" and any(i.startswith("civ:") for i in ids)):
            # spare the blue civilians (the team's base) when the attack's excess must fall somewhere
            return BotDecision.because("civ:red" if "civ:red" in ids else ids[0], msg("spare the blue civilians"))
        if kind == "event_recruit":
            # the headquarters where a G helps most: the one the adversary threatens, else the first
            dom, dev = threats(state)
            tiles = [i.split(":", 1)[1] for i in ids if i.startswith("recruit:")]
            hot = [t for t in tiles if t in dom or (t in dev and state["tiles"][t]["u"])]
            pick = f"recruit:{hot[0]}" if hot else ids[0]
            return BotDecision.because(pick, msg("where the adversary strikes next") if hot else msg("the first headquarters"))
        if kind == "influence_debt":
            # 1.H: a resource rather than a presence, else the presence where the seat holds most
            if "pay:resource" in ids:
                return BotDecision.because("pay:resource", msg("a resource costs less than a presence"))
            pres = [i for i in ids if i.startswith("pay:presence:")]
            if not pres:
                return BotDecision.because(ids[0], msg("nothing to pay with"))
            best = max(pres, key=lambda i: (state["tiles"][i.split(":", 2)[2]]["pres"].get(self.seat, 0),
                                            [-ord(ch) for ch in i]))
            return BotDecision.because(best, msg("the presence where the network is thickest"))
        if kind == "counterattack":
            # 3.F counterattack at the director's discretion: the most valuable kill the points allow
            fr = state["g"][-1]
            t = state["tiles"][fr["tile"]]
            kinds = [i.split(":", 1)[1] for i in ids]

            def left(k):
                return min(UNIT_VALUE[k] - u[1] for u in t["u"] if u[0] == k)
            kill = [k for k in kinds if left(k) <= fr["alloc"]]
            best = max(kill, key=lambda k: UNIT_VALUE[k]) if kill else max(kinds, key=lambda k: UNIT_VALUE[k])
            return BotDecision.because(f"hit:{best}", msg("the most valuable kill the counterattack allows"))
        if kind in ("escalate", "esc_confirm"):
            return self._escalation(state, prompt, ids)
        if kind == "steps":
            return self._steps(state, ids, {c.id: c.label for c in choices})
        if kind == "execute":
            order = [c for c in ids if c == "patrol"] + [c for c in ids if c.startswith("exec:")] + \
                    [c for c in ids if c == "special"]
            return BotDecision.because(order[0] if order else "done", msg("execute everything paid for"))
        return self._lookahead(state, prompt, ids)

    def _recruit_pull(self, state, ids) -> BotDecision:
        """Liberators panel (A-48): pull the new G into a presence tile when that helps. The
        look-ahead scores the move (a G out of a tile about to be dominated survives); a G that
        joins a presence tile holding adversary units also adds its +1 damage to the Liberators'
        patrol there and to the guerrilla counterattack, which the static score does not see."""
        rules = self.rules
        pl = state["pl"][self.seat]
        patrol_open = "patrol" not in pl["used"]
        best = None
        for cid in ids:
            s2 = rules.copy(state)
            try:
                rules.apply_unchecked(s2, self.seat, cid)
            except Exception:  # pragma: no cover - a bot must never crash a game
                continue
            v = evaluate(s2, self.seat)
            if cid.startswith("into:"):
                dest = state["tiles"][cid.split(":", 1)[1]]
                if dest["u"]:
                    v += 1.5 if patrol_open else 0.8
            else:
                v += 0.01
            if best is None or v > best[0]:
                best = (v, cid)
        if best is None:  # pragma: no cover
            return BotDecision.because("skip", msg("fallback"))
        if best[1] == "skip":
            return BotDecision.because("skip", msg("the G is as useful where it was recruited"))
        return BotDecision.because(best[1], msg("the G is worth more beside the presence ({score})", score=f"{best[0]:+.1f}"))

    def _spill_value(self, state, tid) -> float:
        s2 = self.rules.copy(state)
        ADV.escalate_into(s2, tid, [])
        return evaluate(s2, self.seat)

    def _escalation(self, state, prompt, ids) -> BotDecision:
        """3.F consensus (A-13): propose the spill-over tile that hurts the team least; agree with a
        proposal unless another open tile is clearly better (then object, striking it off)."""
        fr = state["g"][-1]
        cands = self.rules.escalation_candidates(state, fr)
        vals = {t: self._spill_value(state, t) for t in cands}
        best = max(cands, key=lambda t: (vals[t], t == fr.get("proposal")))
        if prompt.kind == "escalate":
            return BotDecision.because(f"esc:{best}", msg("least harmful spill-over ({score})", score=f"{vals[best]:.1f}"))
        if vals[fr["proposal"]] >= vals[best] - 2.0:
            return BotDecision.because("agree", msg("the proposal is about as good as any"))
        return BotDecision.because("object", msg("{tile} would hurt the team less", tile=B.tname(best)))

    def _steps(self, state, ids, labels) -> BotDecision:
        """The player window's step menu (3): the rulebook's order (the Partisans' d10, refit, resources, base output,
        force management, select once), then every paid immediate capability, then done."""
        fr = state["frames"][self.seat][-1]
        for st in ("roll", "refit", "income", "produce", "fm"):
            if f"step:{st}" in ids:
                return BotDecision.because(f"step:{st}", msg("{step} first, in the rulebook's order (3.A-3.C)", step=labels[f"step:{st}"]))
        if "step:select" in ids and "select" not in fr["taken"]:
            return BotDecision.because("step:select", msg("select the turn's capabilities (3.D)"))
        order = [c for c in ids if c == "patrol"] + [c for c in ids if c.startswith("exec:")] + \
                [c for c in ids if c == "special"]
        if order:
            return BotDecision.because(order[0], msg("execute everything paid for"))
        return BotDecision.because("done" if "done" in ids else ids[0], msg("nothing left to do in the window"))

    def _kind(self, state) -> str:
        fr = state["frames"][self.seat][-1]
        return {"fm": "force_management", "exec": "execute", "effect": "effect"}.get(fr["k"], fr["k"])

    def _refit(self, state, ids) -> BotDecision:
        pl = state["pl"][self.seat]
        cov = covered(pl, self.seat)
        prefs = []
        for cid in ids:
            o = cid.split(":", 1)[1] if ":" in cid else cid
            score = 0.0
            if "presence" in o and any(cov.values()):
                score += 10 + (4 if "presence2" in o else 0)
            if "reclaim" in o and len(pl["discard"]) >= 2:
                score += 3 + len(pl["discard"])
            if "gain" in o:
                score += 5 if len(pl["hand"]) < 4 else 2
            if o in ("res3", "gain_res4", "presence1_res4"):
                score += 4 if pl["res"] < 4 else 2
            if o == "res1":
                score += 1
            if o == "base_g":
                score += 3
            prefs.append((score, cid))
        return BotDecision.because(max(prefs)[1], msg("grow the network first"))

    def _select(self, state, ids) -> BotDecision:
        plays = [c for c in ids if c.startswith("play:")]
        if not plays:
            return BotDecision.because("done", msg("nothing affordable"))
        key = (state["turn"], len(state["pl"][self.seat]["played"]))
        if getattr(self, "_sel_key", None) != key:
            self._sel_key = key
            self._sel_cache = {}
        base = None
        scored = []
        for c in plays:
            if c not in self._sel_cache:
                if base is None:
                    base = evaluate(state, self.seat)
                self._sel_cache[c] = card_value(self.rules, state, self.seat, c[5:], base)
            scored.append((self._sel_cache[c], c))
        scored.sort(reverse=True)
        if scored[0][0] > 0:
            return BotDecision.because(scored[0][1], msg("worth {score}", score=f"{scored[0][0]:.1f}"))
        return BotDecision.because("done", msg("no card worth its cost"))

    def _lookahead(self, state, prompt, ids) -> BotDecision:
        rules = self.rules
        base = evaluate(state, self.seat)
        best = None
        for cid in ids[:70]:
            s2 = rules.copy(state)
            try:
                rules.apply_unchecked(s2, self.seat, cid)
            except Exception:  # pragma: no cover - a bot must never crash a game
                continue
            v = evaluate(s2, self.seat)
            if cid in ("skip", "decline", "stop", "done"):
                v += 0.01
            if best is None or v > best[0]:
                best = (v, cid)
        if best is None:
            return BotDecision.because(ids[0], msg("fallback"))
        return BotDecision.because(best[1], msg("look-ahead {score}", score=f"{best[0] - base:+.1f}"))
