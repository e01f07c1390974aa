"""Heuristic bots: one-ply lookahead on public measures (Political Will, Control, Resources).

Each candidate choice is applied to a copy whose RNG is replaced by the bot's own, so the bot
never peeks at the game's future dice; the Government bot also re-hides the Directives Base
under a random Base of its copy, so it never uses what its seat cannot see. The copy is
scored for the bot's side. Neutral steps are finished rather than prolonged, with a small
random tie-break.
"""

from __future__ import annotations

from engine.bots.base import Bot, BotDecision
from engine.core.messages import msg
from engine.core.rng import new_rng

from .data import CONTROLLABLE, HIGHLAND, POP
from .state import GOV

MAX_CANDIDATES = 24
ENDERS = ("done", "stop", "skip", "no", "pass")
PATIENCE = 60   # decisions within one turn before the bot wraps up (finishes what it is doing)


def score(state: dict, seat: str) -> float:
    s = state["s"]
    if state["over"] is not None:
        w = state["over"]["winner"]
        return 1000.0 if w == seat else -1000.0 if w else 0.0
    pw = state["pw"]
    gpop = sum(POP[x] for x in CONTROLLABLE if s[x]["ctl"] == "G")
    spop = sum(POP[x] for x in CONTROLLABLE if s[x]["ctl"] == "S")
    hs = sum(POP[x] for x in HIGHLAND if s[x]["sup"] > 0) - sum(POP[x] for x in HIGHLAND if s[x]["sup"] < 0)
    bases = sum(sp["B"] + sp["D"] for sp in s.values())
    g_on = sum(sp["Gu"] + sp["Ga"] for sp in s.values())
    v = 3.0 * pw + 0.6 * (gpop - spop) + 0.8 * hs + 1.5 * state["hunt"] - 0.8 * bases - 0.15 * g_on \
        + 0.25 * state["res"][GOV] - 0.25 * state["res"]["shining_path"]
    return v if seat == GOV else -v


class HeuristicBot(Bot):
    kind = "heuristic"

    def _belief(self, state):
        """The position as the Government sees it: the hidden Directives Base under a Base
        picked at random (weighted by the number of Bases in each space)."""
        if state["d_revealed"] or state["d_home"]:
            return state
        slots = [sid for sid, sp in state["s"].items() for _ in range(sp["B"] + sp["D"])]
        pick = slots[self.rng.randbelow(len(slots))]
        cp = self.rules.copy(state)
        for sp in cp["s"].values():
            sp["B"] += sp["D"]
            sp["D"] = 0
        cp["s"][pick]["B"] -= 1
        cp["s"][pick]["D"] = 1
        return cp

    def choose(self, state, prompt):
        choices = prompt.choices_for(self.seat)
        if len(choices) == 1:
            return BotDecision.because(choices[0].id, msg("only choice"))
        turn = prompt.turn
        self._n = self._n + 1 if getattr(self, "_turn", None) == turn else 0
        self._turn = turn
        if self._n > PATIENCE:
            for c in choices:
                if c.id in ENDERS:
                    return BotDecision.because(c.id, msg("wrapping up a long turn"))
        cands = choices
        if len(cands) > MAX_CANDIDATES:
            idx = sorted(range(len(cands)), key=lambda i: self.rng.random())[:MAX_CANDIDATES]
            cands = [cands[i] for i in sorted(idx)]
            done = [c for c in choices if c.id in ("done", "pass")]
            cands += [c for c in done if c not in cands]
        if self.seat == GOV:
            state = self._belief(state)
        base = score(state, self.seat)
        best, best_v = None, None
        for c in cands:
            cp = self.rules.copy(state)
            cp["rng"] = new_rng(int(self.rng.random() * 1e9))
            try:
                self.rules.apply_unchecked(cp, self.seat, c.id)
            except Exception:  # a choice that cannot be evaluated is simply not preferred
                continue
            v = score(cp, self.seat) + self.rng.random() * 0.05
            if c.id in ("done", "stop", "skip", "no"):
                v += 0.1
            if c.id == "pass":
                v -= 0.5
            if best_v is None or v > best_v:
                best, best_v = c, v
        if best is None:
            best = choices[0]
        return BotDecision.because(best.id, msg("one-ply look-ahead: {score}",
                                                 score=f"{best_v - base if best_v is not None else 0:+.2f}"))
