"""8.0 Non-players: shared helpers (reasons, 8.2 random picks among equal candidates)."""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import cause_bot, fact
from engine.core.messages import msg

from . import pieces as P
from . import random_spaces as RS
from .board import BOARD as BD
from .board import FACTIONS, B, U
from .frames import LOG
from .ops_insurgent import rally_space_ok
from .texts import FN

IDS, NAME = BD.ids, BD.name


CAPS = {1, 2, 3, 7, 9, 10, 11, 13}


def why(st, facts, f, text, rule):
    """A Non-player's section-8 reason, as a fact with ``cause_bot(seat, branch, rule)``."""
    # ``branch``: the branch in English, a data field the bot's rationale quotes (np_bot.py);
    # the text and the cause carry it as a message
    facts.append(fact("np", msg("Non-player {faction}: {text} ({rule})", faction=FN[f], text=text, rule=rule),
                      faction=FACTIONS[f], rule=rule, branch=str(text), cause=cause_bot(st["ctl"][f], text, rule)))


def rnd(st, seq):
    """8.2 / 8.3: a random pick among equal-priority candidates. Cities/Departments go by the
    Random City or Department table, LoCs by 8.3 (random_spaces.py: dice tags ``space``, ``loc``),
    reported with their dice as an ``np`` fact; other candidates take a uniform pick (tag ``np``),
    reported by :func:`random_note`."""
    if len(seq) < 2:
        return seq[R.pick_index(st["rng"], len(seq), tag="np")]
    got, info = RS.pick(st, seq)
    if info is None:
        LOG.rand = len(seq)
    elif LOG.facts is not None:
        fr = st["stack"][-1] if st.get("stack") else {}
        f = fr.get("f", 0)
        LOG.facts.append(fact("np", msg("Non-player {faction}: {frame} - {text} ({rule})", faction=FN[f], frame=fr.get("k", "pick"),
                                        text=info["text"], rule=info["rule"]),
                              faction=FACTIONS[f], rule=info["rule"], branch="random space", frame=fr.get("k"),
                              cause=cause_bot(st["ctl"][f], info["text"], info["rule"]),
                              choice=got, candidates=len(seq), **{k: v for k, v in info.items() if k not in ("text", "rule")}))
    return got


def sp_id(i):
    return f"space:{IDS[i]}"


def rnd_best(st, pairs):
    """The choice of highest key among (key, choice) pairs; equal keys by :func:`rnd` (8.2 / 8.3)."""
    if not pairs:
        return None
    top = max(k for k, _ in pairs)
    return rnd(st, [c for k, c in pairs if k == top])


def random_note(st, fr, cid, n):
    f = fr["f"]
    return fact("np", msg("Non-player {faction}: {k} - {cid} picked at random among {count} equal candidates (8.2)", faction=FN[f], k=fr['k'], cid=cid, count=n),
                faction=FACTIONS[f], rule="8.2", branch="random pick among equal candidates", frame=fr["k"],
                choice=cid, cause=cause_bot(st["ctl"][f], "random pick among equal candidates", "8.2"))


LOG.note = random_note


# ====================================================================== 8.5-8.7 Insurgents
def avail_pieces(st, f):
    return st["av"][U(f)] + st["av"][B(f)]


def could_base(st, f, need=2):
    return st["av"][B(f)] > 0 and any(
        P.guerrillas(st["pc"][i], f) >= need and P.can_stack_base(st, i) and rally_space_ok(st, f, i)
        for i in P.spaces(st))


def cand_spaces(ids):
    return [c for c in ids if c.startswith("space:")]
