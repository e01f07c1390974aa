"""8.0 The Non-player policy: the section-8 answer for each kind of decision frame."""

from __future__ import annotations

from engine.core.contract import cause_bot, fact
from engine.core.messages import msg

from . import pieces as P
from .board import ACTIVE, AUC, CARTELS, FACTIONS, FARC, FARC_BASE, GOVT, INSURGENT_BASES, POLICE
from .board import BOARD as BD
from .frames import LOG, POLICIES, target
from .np_auc import pol_assassinate
from .np_base import cand_spaces, rnd, rnd_best
from .np_cartels import cultivate_np_ok, pol_bribe, pol_cultivate, pol_process
from .np_events import (
    pol_c5u,
    pol_c40cube,
    pol_c55ship,
    pol_c66pick,
    pol_c69,
    pol_c72place,
    pol_c72rep,
    pol_evchoice,
    pol_evfaction,
    pol_evlevel,
    pol_evmove,
    pol_evpick,
    pol_evpiece,
    pol_evsa,
    pol_genoff,
    pol_give,
    pol_reppick,
    pol_ship,
    pol_shipask,
)
from .np_farc import pol_kidnap, pol_kidnap6
from .np_govt_ops import (
    patrol_step,
    pol_assaultsp,
    pol_basecubes,
    pol_civic,
    pol_patrolact,
    pol_patrolmv,
    pol_sweepsp,
    pol_trainsp,
    pol_trainx,
    train_step,
)
from .np_govt_sa import govt_sa, pol_airlift, pol_airstrike, pol_eradicate
from .np_insurgent import SA_DEFAULT, pol_attacksp, pol_extort, pol_rallysp, pol_regroup
from .np_march import march_step, pol_marchgrp
from .np_priorities import PLANS, kidnap_could, march_target, rank_space
from .np_propaganda import pol_agitate, pol_drugs, pol_elite, pol_redeploy, pol_seventh, pol_zone, pol_zoneout
from .ops_govt import assault_removals
from .state import cap
from .texts import FN


# ====================================================================== policies
def np_policy(st, fr, chs):
    k = fr["k"]
    ids = [c.id for c in chs]
    fn = KIND.get(k)
    if fn is not None:
        r = fn(st, fr, chs, ids)
        if r is not None and r in ids:
            return r
    real = [c for c in ids if c not in ("done", "none", "skip", "noship", "np:act", "give")]
    if not real:
        return ids[0]
    if len(real) > 1 and LOG.facts is not None:
        # section 8 sets no priority among these: 8.2 / 8.3 decide (never a silent random pick)
        f = fr["f"]
        LOG.facts.append(fact("np", msg("Non-player {faction}: {frame} - no section-8 priority among {count} choices; picked as "
                                            "8.2 / 8.3 direct", faction=FN[f], frame=k, count=len(real)), faction=FACTIONS[f], rule="8.2",
                              branch="no priority: 8.2 random pick", frame=k,
                              cause=cause_bot(st["ctl"][f], "no priority: 8.2 random pick", "8.2")))
    return rnd(st, real)


def pol_op(st, fr, chs, ids):
    f, op = fr["f"], fr["op"]
    plan = fr.get("plan") or {"max": 99, "sa": ["mid"] if f == GOVT else list(SA_DEFAULT.get(op, []))}
    fr.setdefault("nsp", 0)
    if fr["ph"] == "patrol_assault":
        # 8.8.5: Assault on the LoC that removes the most Insurgents; equal LoCs by 8.3
        pairs = []
        for c in ids:
            if c.startswith("space:"):
                i = BD.index[target(c)]
                pairs.append((min(assault_removals(st, i), sum(st["pc"][i][k] for k in ACTIVE + INSURGENT_BASES)), c))
        return rnd_best(st, pairs) or "none"
    if f == GOVT and op == "train":
        return train_step(st, fr, ids)
    want_sa = [f"sa:{s}" for s in plan.get("sa", []) if f"sa:{s}" in ids and (s != "cultivate" or cultivate_np_ok(st, fr))]
    if f == GOVT and fr["sa"] is None:
        pre = (plan.get("sa") or [""])[0]
        if pre == "pre" or (pre == "mid" and fr["sel"]) or (pre == "post" and fr.get("np_moves_done")):
            s = govt_sa(st, ids, fr)
            if s:
                return s
    if f != GOVT and fr["sa"] is None and op in ("rally", "march", "terror") and fr["sel"]:
        for s in want_sa:
            # 8.5-8.7: "Then" Extort / Cultivate / Process / Assassinate ...: after the Operation's spaces
            if s != "sa:ambush" and not cand_spaces(ids) and op != "march":
                return s
    if op == "patrol":
        return patrol_step(st, fr, ids)
    if op == "march":
        c = march_step(st, fr, ids)
        if c == "done" and f != GOVT and fr["sa"] is None:   # 8.5.2 / 8.6.2 / 8.7.2: then the SA
            for s in want_sa:
                if s != "sa:ambush":
                    return s
        return c
    if fr["nsp"] < plan["max"]:
        best = None
        ranked = []
        for c in ids:
            if not c.startswith("space:"):
                continue
            r = rank_space(st, f, op, BD.index[target(c)])
            if r is not None:
                ranked.append((r, c))
        if ranked and f == FARC and op == "terror" and any(r[0] == 2 for r, _ in ranked):
            # 8.7.4 second bullet: Kidnap spaces only "until there are 3 such spaces (including
            # LoCs)"; past that, a Kidnap space is taken only as a space of the last bullet
            if sum(1 for j in fr["sel"] if kidnap_could(st, j)) >= 3:
                ranked = [((1,) + r[1:] if r[0] == 2 else r, c) for r, c in ranked
                          if r[0] != 2 or (BD.pop[BD.index[target(c)]] > 0 and st["sup"][BD.index[target(c)]] > -2)]
        if ranked and f == AUC and op == "terror":
            # 8.6.4: 1 space with a FARC Base and fewer Police than AUC Guerrillas, then 1 other
            # with any FARC piece, then others; each a random pick among its candidates (8.2)
            def bullet(c):
                pc = st["pc"][BD.index[target(c)]]
                return 0 if pc[FARC_BASE] and pc[POLICE] < P.guerrillas(pc, AUC) else 1 if P.fpieces(pc, FARC) else 2
            stage = fr.get("np_stage", 0)
            want = next(w for w in range(stage, 3) if w == 2 or any(bullet(c) <= w for _, c in ranked))
            fr["np_stage"] = min(want + 1, 2)
            best = (((2 - want, 0), 0), rnd(st, [c for _, c in ranked if bullet(c) <= want]))
            ranked = []
        if ranked:
            top = max(r for r, _ in ranked)
            tied = [c for r, c in ranked if r == top]
            # a FARC bullet naming "all such spaces" (rank 2+) takes them all: the order needs
            # no dice; a limited choice among equal spaces goes by 8.2 / 8.3 (rnd)
            other = ((op == "rally" and f in (FARC, CARTELS)) or (op == "attack" and f == FARC)) and top[0] <= 1
            if other and f == CARTELS and any(BD.is_dept[j] and BD.pop[j] > 0 and P.bases(st["pc"][j]) < 2
                                        and P.guerrillas(st["pc"][j], CARTELS) > st["pc"][j][POLICE] for j in fr["sel"]):
                fr["np_other"] = 1     # 8.5.1: a Rally space already lets Cultivate place a Base
            if not (other and fr.get("np_other")):     # no roll for a space that will not be taken
                best = ((top, 0), tied[0] if plan["max"] >= 99 and top[0] >= 2 else rnd(st, tied))
        if best is not None and ((op == "rally" and f in (FARC, CARTELS)) or (op == "attack" and f == FARC)) \
                and best[0][0][0] <= 1:
            # 8.7.1 / 8.5.1: only 1 "other" Rally space beyond the listed priorities; 8.7.3:
            # only 1 space with an Underground Guerrilla (for the Ambush) beyond the 3+ ones
            if fr.get("np_other"):
                best = None
            else:
                fr["np_other"] = 1
        if best is not None:
            fr["nsp"] += 1
            return best[1]
    if f != GOVT and fr["sa"] is None:
        for s in want_sa:
            if s != "sa:ambush":
                return s
    if f == GOVT and fr["sa"] is None and (plan.get("sa") or [""])[0] in ("mid", "post"):
        s = govt_sa(st, ids, fr)
        if s:
            return s
    return "done" if "done" in ids else None


KIND = {"give": pol_give, "op": pol_op, "patrolmv": pol_patrolmv, "evpiece": pol_evpiece, "evpick": pol_evpick, "cultivate": pol_cultivate, "process": pol_process, "assassinate": pol_assassinate,
        "kidnap": pol_kidnap, "marchgrp": pol_marchgrp, "trainsp": pol_trainsp, "trainx": pol_trainx, "civic": pol_civic,
        "agitate": pol_agitate, "sweepsp": pol_sweepsp, "attacksp": pol_attacksp, "rallysp": pol_rallysp,
        "regroup": pol_regroup, "drugs": pol_drugs, "extort": pol_extort, "bribe": pol_bribe,
        "airstrike": pol_airstrike, "airlift": pol_airlift, "eradicate": pol_eradicate, "redeploy": pol_redeploy,
        "elite": pol_elite, "zoneout": pol_zoneout, "ship": pol_ship, "shipask": pol_shipask, "assaultsp": pol_assaultsp,
        "basecubes": pol_basecubes, "patrolact": pol_patrolact, "kidnap6": pol_kidnap6, "evfaction": pol_evfaction,
        "evlevel": pol_evlevel, "evchoice": pol_evchoice, "evsa": pol_evsa, "zone": pol_zone, "evzone": pol_zone,
        "genoff": pol_genoff, "reppick": pol_reppick, "c72rep": pol_c72rep, "c72place": pol_c72place,
        "c55ship": pol_c55ship, "c5u": pol_c5u, "seventh": pol_seventh, "c69": pol_c69, "c40cube": pol_c40cube,
        "c66pick": pol_c66pick, "evmove": pol_evmove}


POLICIES["np"] = np_policy


# ====================================================================== the bot
GOVT_RULES = {"assault": "8.8.3", "train": "8.8.4", "patrol": "8.8.5", "sweep": "8.8.6"}


def derive_plan(st, fr) -> tuple:
    """(plan, rule) of an Operation frame the flowchart started on a player seat, from the state
    alone (a bot is made afresh for each decision, so it keeps nothing between prompts): the
    Insurgent plans are fixed per Operation (8.5-8.7); the Government's per 8.8.3-8.8.6 (Train as
    in its first box, 3 spaces)."""
    f, op = fr["f"], fr["op"]
    if f != GOVT:
        plan, rule = PLANS[f].get(op, ({"max": 99, "sa": list(SA_DEFAULT.get(op, []))}, "8.1.2"))
        return dict(plan), rule
    if op == "assault":
        return {"max": max(1, 9 // (1 if cap(st, 3) == "u" else 3)), "sa": ["pre"]}, "8.8.3"
    if op == "sweep":
        return {"max": max(1, 12 // (1 if cap(st, 2) == "u" else 3)), "sa": ["pre"]}, "8.8.6"
    if op == "patrol":
        return {"max": 99, "sa": ["post"]}, "8.8.5"
    return {"max": 3, "sa": ["mid"]}, GOVT_RULES.get(op, "8.8.4")


def derive_counters(st, fr) -> None:
    """The policy's per-Operation counters, worked out from the frame (spaces chosen, groups
    moved, Special Activity taken) instead of being remembered by the bot."""
    op = fr["op"]
    fr["nsp"] = len(fr.get("groups", ())) if op == "march" else len(fr["sel"])
    if op == "train" and fr["f"] == GOVT:
        fr["np_ph"] = "place" if fr["sa"] is None else "civic"
    if op == "march" and fr["f"] == AUC and fr.get("groups"):
        # 8.6.2: the "1 space closer" group is the one that entered no first-bullet target
        fr["np_closer"] = int(any(not march_target(st, AUC, int(g.split(">")[1])) and
                                  not P.fpieces(st["pc"][int(g.split(">")[1])], FARC) for g in fr["groups"]))
    f = fr["f"]
    if (op == "rally" and f in (FARC, CARTELS)) or (op == "attack" and f == FARC):
        fr["np_other"] = int(any((rank_space(st, f, op, i) or (9,))[0] <= 1 for i in fr["sel"]))
