"""COIN Operations and Special Activities as prompt sequences (COIN 3.0, 4.0, 5.4).

An :class:`OperationKit` holds a game's Operation and Special Activity definitions and
provides three frame kinds for :class:`engine.coin.flow.Flow`:

``op``      an Operation under way::

                {"k": "op", "seat", "op", "lim" (Limited), "free" (5.4), "where" (spaces an
                 Event restricts it to, or None), "sa" (None or {"names": [...]|None,
                 "where": [...]|None, "flag": state key of a once-only grant, "in_sel": SA
                 only in the Operation's spaces}), "sa_done", "sel" (spaces so far), "ph"}

            Phase ``main`` offers ``space:<id>`` (select a space), ``sa:<name>`` (the
            accompanying Special Activity: before, during or after, COIN 4.1) and ``done``;
            each Operation adds its own phases through its :class:`OpDef` callbacks.
``sa``      a Special Activity on top of its Operation (callbacks of :class:`SaDef`).
``opmenu``  a choice of Operation: ``op:<name>``, optionally ``pass`` or ``skip`` (a free
            Operation granted by an Event may be declined).

Texts are messages (:mod:`engine.core.messages`): an :class:`OpDef`/:class:`SaDef` carries its
name as a message (``label``) and a one-sentence ``help``; the kit builds structured choices
(kind, targets, cost from ``OpDef.space_cost``, rule, help).

Everything game-specific (costs, legality of spaces, procedures, Control updates, how a
faction passes) comes from the definitions and the callbacks given to the kit, so the same
machinery serves two factions (Peru) or four (Andean Abyss).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.contract import Choice, ChoiceKind, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg


@dataclass(slots=True)
class OpDef:
    name: str
    seat: str
    label: str
    rule: str
    spaces: Callable            # (state, fr) -> [sid] legal to select next (cost checked here too)
    select: Callable            # (state, fr, sid, facts)
    phase_ask: Callable | None = None   # (state, fr) -> (text, [Choice])
    phase_act: Callable | None = None   # (state, fr, cid, facts)
    finish: Callable | None = None      # (state, fr, facts) on "done"
    start: Callable | None = None       # (state, fr, facts) when the Operation begins
    min_sel: int = 1                    # 0: the Operation needs no space (e.g. Patrol moves)
    extra: Callable | None = None       # (state, fr) -> [Choice] more main-phase choices
    extra_act: Callable | None = None   # (state, fr, cid, facts)
    possible: Callable | None = None    # (state, fr) -> bool, for min_sel == 0 Operations
    help: Any = None                    # a message: what selecting a space does
    op_help: Any = None                 # a message: what the Operation does
    space_cost: Callable | None = None  # (state, fr, sid) -> Resources of ``seat`` paid when the space is selected


@dataclass(slots=True)
class SaDef:
    name: str
    seat: str
    label: str
    rule: str
    accompanies: tuple[str, ...]
    can_start: Callable         # (state, sa_fr_template) -> bool
    ask: Callable               # (state, fr) -> (text, [Choice])
    act: Callable               # (state, fr, cid, facts)
    start: Callable | None = None
    inline: bool = False        # chosen inside one space of its Operation (e.g. Ambush)
    help: Any = None            # a message: what the Special Activity does
    cost: Callable | None = None  # (state, fr) -> {resource: n} paid when it starts


class OperationKit:
    """Registry of a game's Operations and Special Activities plus their frames."""

    def __init__(self, *, ops_of: dict[str, tuple[str, ...]], sas_of: dict[str, tuple[str, ...]],
                 seat_name: dict[str, Any], space_name: dict[str, Any],
                 refresh: Callable[[dict, list, Any], None],
                 on_pass: Callable[[dict, str, list], None],
                 help_done: Any = None, help_pass: Any = None, help_skip: Any = None):
        self.OPS: dict[str, OpDef] = {}
        self.SAS: dict[str, SaDef] = {}
        self.ops_of = ops_of
        self.sas_of = sas_of
        self.seat_name = seat_name
        self.space_name = space_name
        self.refresh = refresh
        self.on_pass = on_pass
        self.help_done = help_done
        self.help_pass = help_pass
        self.help_skip = help_skip
        # space choices and "<Operation> in <space>" messages, built once (both are immutable)
        self._space_choice: dict = {}
        self._in_space: dict = {}

    def register_op(self, d: OpDef) -> OpDef:
        self.OPS[d.name] = d
        return d

    def register_sa(self, d: SaDef) -> SaDef:
        self.SAS[d.name] = d
        return d

    # ---------------------------------------------------------------- building frames
    @staticmethod
    def new_op(seat: str, op: str, lim: bool = False, free: bool = False, where=None, sa=None) -> dict:
        return {"k": "op", "seat": seat, "op": op, "lim": lim, "free": free, "where": where, "sa": sa,
                "sa_done": False, "sel": [], "ph": "main"}

    @staticmethod
    def new_sa(op_fr: dict, name: str) -> dict:
        spec = op_fr.get("sa") or {}
        where = list(op_fr["sel"]) if spec.get("in_sel") else spec.get("where")
        return {"k": "sa", "seat": op_fr["seat"], "sa": name, "sel": [], "ph": "main", "where": where,
                "op": op_fr["op"], "free": op_fr.get("free", False) or spec.get("free", False)}

    @staticmethod
    def op_menu(seat: str, lim: bool, free: bool, where=None, sa=None, ops=None, optional=False,
                passing=False, text: Any = None, rule: str = "3.0",
                extra: dict | None = None) -> dict:
        return {"k": "opmenu", "seat": seat, "lim": lim, "free": free, "where": where, "sa": sa, "ops": ops,
                "optional": optional, "pass": passing, "text": text, "rule": rule, "extra": extra}

    # ---------------------------------------------------------------- legality
    def op_possible(self, state: dict, seat: str, op: str, lim: bool, free: bool, where=None, extra=None) -> bool:
        """Whether an Operation has at least one legal space now (used to offer it)."""
        fr = self.new_op(seat, op, lim, free, where)
        fr.update(extra or {})
        d = self.OPS[op]
        if d.min_sel == 0:
            return d.possible(state, fr) if d.possible else True
        if d.spaces(state, fr):
            return True
        return bool(d.extra and d.extra(state, fr))

    def sa_allowed(self, state: dict, fr: dict) -> list[str]:
        """Special Activities that may start now in this Operation (COIN 4.1)."""
        spec = fr.get("sa")
        if not spec or fr.get("sa_done"):
            return []
        if spec.get("flag") and not state.get(spec["flag"]):
            return []
        names = spec.get("names")
        out = []
        for name in self.sas_of[fr["seat"]]:
            d = self.SAS[name]
            if d.inline or (names is not None and name not in names) or fr["op"] not in d.accompanies:
                continue
            if d.can_start(state, self.new_sa(fr, name)):
                out.append(name)
        return out

    def inline_allowed(self, fr: dict, name: str, state: dict | None = None) -> bool:
        """Whether an inline Special Activity (chosen inside a space) may be used now."""
        spec = fr.get("sa")
        if not spec or fr.get("sa_done") or fr["op"] not in self.SAS[name].accompanies:
            return False
        if spec.get("flag") and state is not None and not state.get(spec["flag"]):
            return False
        names = spec.get("names")
        return names is None or name in names

    def sa_choice(self, state: dict, fr: dict, name: str) -> Choice:
        d = self.SAS[name]
        cost = d.cost(state, fr) if d.cost is not None else None
        key = ("sa", name, tuple(cost.items()) if cost else None)
        c = self._space_choice.get(key)
        if c is None:
            c = self._space_choice[key] = Choice(
                f"sa:{name}", msg("{activity} (Special Activity)", activity=d.label), {"sa": name},
                ChoiceKind.SPECIAL_ACTIVITY, {"sa": name}, cost or None, d.rule, d.help)
        return c

    def sa_choices(self, state: dict, fr: dict) -> list[Choice]:
        return [self.sa_choice(state, fr, n) for n in self.sa_allowed(state, fr)]

    # ---------------------------------------------------------------- running
    def start_op(self, state: dict, fr: dict, facts: list) -> dict:
        push(state, fr)
        d = self.OPS[fr["op"]]
        faction = self.seat_name[fr["seat"]]
        if fr["free"] and fr["lim"]:
            text = msg("{faction}: free Limited {operation} ({rule}).", faction=faction, operation=d.label, rule=d.rule)
        elif fr["free"]:
            text = msg("{faction}: free {operation} ({rule}).", faction=faction, operation=d.label, rule=d.rule)
        elif fr["lim"]:
            text = msg("{faction}: Limited {operation} ({rule}).", faction=faction, operation=d.label, rule=d.rule)
        else:
            text = msg("{faction}: {operation} ({rule}).", faction=faction, operation=d.label, rule=d.rule)
        facts.append(fact("operation", text, seat=fr["seat"], op=fr["op"], limited=fr["lim"], free=fr["free"]))
        if d.start:
            d.start(state, fr, facts)
        return fr

    @staticmethod
    def use_sa(state: dict, fr: dict) -> None:
        """Mark the Special Activity of this Operation used (and a shared once-only grant)."""
        fr["sa_done"] = True
        flag = (fr.get("sa") or {}).get("flag")
        if flag:
            state[flag] = False

    def begin_sa(self, state: dict, fr: dict, name: str, facts: list) -> None:
        self.use_sa(state, fr)
        sfr = self.new_sa(fr, name)
        push(state, sfr)
        d = self.SAS[name]
        facts.append(fact("special_activity", msg("{activity} ({rule}).", activity=d.label, rule=d.rule),
                          seat=fr["seat"], sa=name))
        if d.start:
            d.start(state, sfr, facts)

    def end_op(self, state: dict, fr: dict, facts: list) -> None:
        d = self.OPS[fr["op"]]
        if d.finish:
            d.finish(state, fr, facts)
        self.refresh(state, facts, d.label)
        state["last_sel"] = list(fr["sel"])
        pop(state, fr)

    # ---------------------------------------------------------------- frames
    def _op_ask(self, state: dict, fr: dict) -> Ask:
        d = self.OPS[fr["op"]]
        if fr["ph"] != "main":
            text, choices = d.phase_ask(state, fr)
            return Ask(fr["seat"], text, d.rule, choices, {"op": fr["op"]})
        choices: list[Choice] = []
        if not (fr["lim"] and fr["sel"]) and len(fr["sel"]) < fr.get("maxsel", 99):
            cost = d.space_cost
            cache = self._space_choice
            for sid in d.spaces(state, fr):
                n = cost(state, fr, sid) if cost is not None else 0
                key = (d.name, sid, n)
                ch = cache.get(key)
                if ch is None:
                    t = {"space": sid}
                    ch = cache[key] = Choice(f"space:{sid}", self.in_space(d, sid), t, ChoiceKind.SPACE, t,
                                             {d.seat: n} if n else None, d.rule, d.help)
                choices.append(ch)
        if d.extra:
            choices.extend(d.extra(state, fr))
        choices.extend(self.sa_choices(state, fr))
        if len(fr["sel"]) >= d.min_sel:
            choices.append(Choice("done", msg("Finish the {operation}", operation=d.label), {}, ChoiceKind.DONE, {},
                                  None, d.rule, self.help_done))
        if fr["lim"]:
            text = msg("Limited {operation}: choose a space or finish", operation=d.label) if fr["sel"] else \
                msg("Limited {operation}: choose a space", operation=d.label)
        else:
            text = msg("{operation}: choose a space or finish", operation=d.label) if fr["sel"] else \
                msg("{operation}: choose a space", operation=d.label)
        return Ask(fr["seat"], text, d.rule, choices, {"op": fr["op"], "selected": list(fr["sel"])})

    def in_space(self, d: OpDef, sid: str):
        """The message "<Operation> in <space>" (cached)."""
        key = (d.name, sid)
        m = self._in_space.get(key)
        if m is None:
            m = self._in_space[key] = msg("{operation} in {space}", operation=d.label, space=self.space_name[sid])
        return m

    def _op_act(self, state: dict, fr: dict, cid: str, facts: list) -> None:
        d = self.OPS[fr["op"]]
        if fr["ph"] != "main":
            d.phase_act(state, fr, cid, facts)
            self.refresh(state, facts, d.label)
            return
        if cid == "done":
            self.end_op(state, fr, facts)
            return
        if cid.startswith("sa:"):
            self.begin_sa(state, fr, cid[3:], facts)
            return
        if d.extra_act and not cid.startswith("space:"):
            d.extra_act(state, fr, cid, facts)
            self.refresh(state, facts, d.label)
            return
        sid = cid.split(":", 1)[1]
        fr["sel"].append(sid)
        d.select(state, fr, sid, facts)
        self.refresh(state, facts, self.in_space(d, sid))

    def _sa_ask(self, state: dict, fr: dict) -> Ask:
        d = self.SAS[fr["sa"]]
        text, choices = d.ask(state, fr)
        return Ask(fr["seat"], text, d.rule, choices, {"sa": fr["sa"], "selected": list(fr["sel"])})

    def _sa_act(self, state: dict, fr: dict, cid: str, facts: list) -> None:
        d = self.SAS[fr["sa"]]
        d.act(state, fr, cid, facts)
        self.refresh(state, facts, d.label)

    def _menu_ask(self, state: dict, fr: dict) -> Ask:
        seat = fr["seat"]
        choices = []
        for op in fr.get("ops") or self.ops_of[seat]:
            if self.op_possible(state, seat, op, fr["lim"], fr["free"], fr.get("where"), fr.get("extra")):
                d = self.OPS[op]
                choices.append(Choice(f"op:{op}", d.label, {"op": op}, ChoiceKind.OPERATION, {"op": op}, None,
                                      d.rule, d.op_help))
        if fr.get("pass"):
            choices.append(Choice("pass", msg("Pass (gain Resources instead)"), {}, ChoiceKind.PASS, {}, None,
                                  fr.get("rule", "3.0"), self.help_pass))
        if fr.get("optional"):
            choices.append(Choice("skip", msg("Do not use this Operation"), {}, ChoiceKind.PASS, {}, None,
                                  fr.get("rule", "3.0"), self.help_skip))
        return Ask(seat, fr.get("text") or msg("Choose an Operation"), fr.get("rule", "3.0"), choices)

    def _menu_act(self, state: dict, fr: dict, cid: str, facts: list) -> None:
        pop(state, fr)
        if cid == "skip":
            return
        if cid == "pass":
            self.on_pass(state, fr["seat"], facts)
            return
        ofr = self.new_op(fr["seat"], cid[3:], fr["lim"], fr["free"], fr.get("where"), fr.get("sa"))
        ofr.update(fr.get("extra") or {})
        self.start_op(state, ofr, facts)

    def frame_kinds(self) -> list[FrameKind]:
        return [FrameKind("op", ask=self._op_ask, act=self._op_act),
                FrameKind("sa", ask=self._sa_ask, act=self._sa_act),
                FrameKind("opmenu", ask=self._menu_ask, act=self._menu_act)]
