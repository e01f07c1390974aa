"""Flow as a stack of frames (STYLE.md 2): event -> free Operation -> Special Activity nest.

The mechanism is the core :class:`engine.core.flow.Flow` (ask/act/auto); this module holds the
game's one ``FLOW`` and the helpers the rules modules use.

A frame is a JSON dict with ``k`` (its kind) and ``f`` (the acting Faction). Each kind is a
class with static methods registered by ``@frame("kind")``:

``prompt(st, fr) -> (text, rule, [Choice])``  the question and its legal choices (the core
                                               ``ask``; the seat is the Faction's);
``act(st, fr, cid, facts)``                    how an answer applies (it may pop the frame,
                                               push a child or change the frame's phase);
``auto(st, fr, facts) -> bool``                optional entry step, run whenever the frame is
                                               on top (entered, answered, or resumed after a
                                               child frame finished): True when it moved play
                                               on, False when the frame waits for its answer.

A class with ``auto`` only is an automatic kind (an Event's script, a Propaganda phase).

Frames carrying ``auto`` (a policy name) are answered by the engine for Non-player factions
(section 8): the policy picks among exactly the same legal choices a player would see.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine.core.contract import Choice, ChoiceKind, IllegalChoice
from engine.core.flow import Ask, Flow, FrameKind, push
from engine.core.flow import pop_same as pop

from .board import BOARD, FACTIONS, PIECE_KEYS

FLOW = Flow([])
PROMPTS: dict[str, Callable] = {}
POLICIES: dict[str, Callable] = {}

__all__ = ["FLOW", "PROMPTS", "POLICIES", "C", "frame", "once", "policy", "push", "push_child", "pop", "choices_of",
           "auto_pick", "LOG", "logging_to", "pop_if", "resume_once", "verb", "target", "targets"]


def _asker(prompt: Callable) -> Callable:
    def ask(st: dict, fr: dict) -> Ask:
        text, rule, chs = prompt(st, fr)
        return Ask(st["ctl"][fr["f"]], text, rule, chs)
    return ask


def frame(kind: str):
    def deco(cls):
        if hasattr(cls, "act"):
            PROMPTS[kind] = cls.prompt
            FLOW.add(FrameKind(kind, ask=_asker(cls.prompt), act=cls.act, auto=getattr(cls, "auto", None),
                               never_empty=True))
        else:
            FLOW.add(FrameKind(kind, auto=cls.auto))
        return cls
    return deco


def run_one(st: dict, facts: list) -> None:
    """One step of the frame on top, every decision taken by the section-8 policies (an
    Event tried on a copy, 8.1): its entry step, or else its choice picked and applied."""
    fr = st["stack"][-1]
    kind = FLOW.kinds[fr["k"]]
    if kind.auto is not None and (kind.auto(st, fr, facts) or kind.ask is None):
        return
    fr["auto"] = fr.get("auto") or "np"
    kind.act(st, fr, auto_pick(st, fr), facts)


def policy(name: str):
    def deco(fn):
        POLICIES[name] = fn
        return fn
    return deco


_CHOICES: dict = {}


_KIND_OF_VERB = {
    "space": ChoiceKind.SPACE, "from": ChoiceKind.SPACE, "op": ChoiceKind.OPERATION,
    "sa": ChoiceKind.SPECIAL_ACTIVITY, "event": ChoiceKind.EVENT, "pass": ChoiceKind.PASS,
    "done": ChoiceKind.DONE, "none": ChoiceKind.DONE, "skip": ChoiceKind.DONE, "noship": ChoiceKind.DONE,
    "stop": ChoiceKind.DONE, "refuse": ChoiceKind.DONE, "n": ChoiceKind.AMOUNT, "many": ChoiceKind.AMOUNT,
    "u": ChoiceKind.AMOUNT, "a": ChoiceKind.AMOUNT, "mix": ChoiceKind.AMOUNT, "faction": ChoiceKind.FACTION,
    "to": ChoiceKind.FACTION, "ask": ChoiceKind.FACTION, "piece": ChoiceKind.PIECE, "np": ChoiceKind.CONFIRM,
    "level": ChoiceKind.OPTION,
}


def describe(cid: str) -> tuple[str, dict]:
    """(kind, targets) of a choice id: what it is and what it points at, named
    (``{"space": "huila", "piece": "police"}``, ``{"faction": "farc"}``, ``{"n": 3}``)."""
    v = verb(cid)
    tg: dict = {}
    if v == "op":
        tg["operation"] = target(cid)
    elif v == "sa":
        tg["special_activity"] = target(cid)
    elif v == "event":
        tg["side"] = target(cid) or "single"
        return (ChoiceKind.EVENT_SIDE if target(cid) else ChoiceKind.EVENT), tg
    else:
        for t in targets(cid):
            if t in BOARD.index:
                tg["space"] = t
            elif t in FACTIONS:
                tg["faction"] = t
            elif t in PIECE_KEYS:
                tg["piece"] = t
            elif t.lstrip("-").isdigit():
                tg["n"] = int(t)
            elif "-" in t and t.replace("-", "").isdigit():
                tg["mix"] = t
            elif t:
                tg["option"] = t
    kind = _KIND_OF_VERB.get(v)
    if kind is None:
        kind = (ChoiceKind.SPACE if "space" in tg else ChoiceKind.PIECE if "piece" in tg
                else ChoiceKind.FACTION if "faction" in tg else ChoiceKind.OPTION)
    if v == "target":
        kind = ChoiceKind.FACTION if "faction" in tg else ChoiceKind.PIECE
    return kind, tg


def _frozen(v):
    """A hashable key of a label (a message) for the choice cache: its template and the
    identities of its arguments. An identity is safe: the cached Choice's label holds the very
    objects, so no other object can take one of their identities while the entry exists; an
    equal but distinct argument only misses the cache (small ints and the name messages of
    texts.py are shared objects, so the common labels hit)."""
    if not isinstance(v, dict):
        return v
    a = v.get("args")
    if not a:
        return v["msg"]
    return (v["msg"], v.get("n"), tuple(a), *map(id, a.values()))


def C(cid: str, label, **payload) -> Choice:
    """A Choice with its kind and named targets (:func:`describe`, plus the payload's space,
    card or amount); identical ones are shared (Choice is immutable, payloads never mutated).
    ``label`` is a message (engine.core.messages)."""
    lk = _frozen(label)
    key = (cid, lk, tuple(payload.items())) if payload else (cid, lk)
    c = _CHOICES.get(key)
    if c is None:
        if len(_CHOICES) > 50_000:
            _CHOICES.clear()
        kind, tg = describe(cid)
        for k in ("space", "card", "n"):
            if k in payload:
                tg[k] = payload[k]
        c = _CHOICES[key] = Choice(cid, label, payload, kind=str(kind), targets=tg)
    return c


_ONCE: dict = {}


def once(key, make, *args) -> Choice:
    """The Choice ``make(*args)`` builds, built once per ``key`` (a key that fully determines its id,
    label and payload, such as ``("patrol-from", space)``): a prompt that offers the same
    choices again and again builds no message for them."""
    c = _ONCE.get(key)
    if c is None:
        c = _ONCE[key] = make(*args)
    return c


def verb(cid: str) -> str:
    """What a choice id does: ``space`` in ``space:huila`` (rules.py lists the ids)."""
    return cid.partition(":")[0]


def target(cid: str) -> str:
    """The (first) target a choice id names: ``huila`` in ``space:huila`` or ``place:huila:police``.

    Choice ids are ``verb[:target[:target]]`` (the grammar in rules.py); the same targets are in
    each :class:`Choice`'s ``targets`` for the platform. This and :func:`targets` are the one place
    the rules read them back from an id (a replayed id arrives without its Choice)."""
    return cid.partition(":")[2].partition(":")[0]


def targets(cid: str) -> list[str]:
    """Every target a choice id names: ``["huila", "police"]`` for ``place:huila:police``."""
    return cid.split(":")[1:]


def push_child(st: dict, parent: dict, kind: str, **fields) -> dict:
    """Push a frame of ``kind`` under way for ``parent`` (an Operation's space or Special
    Activity, an Event's step): it is resolved the way its parent is (``auto``: by the section-8
    policy for a Non-player, 5.1 / 8.1), the one line every operation and event frame shares."""
    fr = {"k": kind, **fields}
    fr["auto"] = parent.get("auto")
    return push(st, fr)


def pop_if(st: dict, fr: dict, ended: bool) -> bool:
    """The usual entry step (``auto``): the frame ends (popped: True) when ``ended``, else it
    asks (False)."""
    if ended:
        pop(st, fr)
        return True
    return False


def resume_once(st: dict, fr: dict, facts: list) -> bool:
    """The entry step (``auto``) of a frame that decides once and then pushes at most one child
    (marked ``fr["went"]``): it ends once the child has finished, else it asks."""
    if fr.get("went"):
        pop(st, fr)
        return True
    return False


def choices_of(st: dict, fr: dict) -> list:
    return PROMPTS[fr["k"]](st, fr)[2]


def auto_pick(st: dict, fr: dict) -> str:
    """Resolve a waiting auto frame: the frame's policy picks a legal choice id."""
    chs = choices_of(st, fr)
    if not chs:
        raise IllegalChoice(f"engine error: no choice in auto frame {fr['k']}", code="engine")
    fr["n_auto"] = fr.get("n_auto", 0) + 1
    if fr["n_auto"] > 80:
        for c in chs:
            if c.id in ("done", "pass", "none", "stop"):
                return c.id
    pol = POLICIES.get(fr.get("auto") or "random") or POLICIES["random"]
    LOG.rand = 0
    cid = pol(st, fr, chs)
    if LOG.rand and LOG.facts is not None and LOG.note is not None:
        LOG.facts.append(LOG.note(st, fr, cid, LOG.rand))
    return cid


class _Log(threading.local):
    """Where automatic (Non-player) picks report a random choice among equal candidates
    (8.2): ``facts`` is the list of the choice being applied (None: nowhere, e.g. while an
    Event is tried on a copy), ``rand`` the number of candidates of the last random pick in
    the current policy call, ``note`` builds the fact (set by the Non-player module)."""

    facts: list | None = None
    rand: int = 0
    note: Callable | None = None


LOG = _Log()


class logging_to:
    """``with logging_to(facts):`` random Non-player picks become facts in ``facts``."""

    def __init__(self, facts):
        self.facts = facts

    def __enter__(self):
        self.saved = LOG.facts
        LOG.facts = self.facts

    def __exit__(self, *exc):
        LOG.facts = self.saved
        return False


FLOW.pick = auto_pick
