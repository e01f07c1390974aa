"""The append-only event log: hashing, appending, loading states, replaying.

The log is the source of truth; ``ClassSession.state`` and ``StateSnapshot``
rows are caches of it.

State model. ``S(0)`` is ``rules.setup(seed, options)``. Each event ``e``
starts from the state of its ``parent_seq`` and applies its transition:

* ``decision``/``bot``: ``rules.apply(seat, payload["choice"])``; a plan (``payload["plan"]``, a
  list of choice ids submitted as one decision: ``facilitation.plans``) with
  ``engine.core.plan.apply_plan``, so it is replayed, verified and undone as one;
* ``facilitator`` with ``payload["action"] == "adjust"``:
  ``rules.adjust(state, track, value)`` (an adjudicated override);
* ``facilitator`` with ``payload["action"] == "direct"``:
  ``rules.apply_directed(state, seat, choice, reason)`` (a bot-run seat, e.g. an Andean Abyss
  Non-player, directed to a legal decision instead of its own procedure's);
* everything else (system markers, notes, pause/resume, ``undo``, and the
  facilitator's ``undo_last`` override) leaves the state as it was.

Undo events point ``parent_seq`` back to the event whose state they restore,
so ``S(undo) == S(back_to)`` and the undone events stay in the log for the
record. The current state is ``S(head_seq)``; loading any ``S(k)`` follows the
parent links back to the nearest snapshot (or the seed) and re-applies the
events on that path only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models.signals import post_save, pre_save
from django.utils import timezone

import engine
from engine import IllegalChoice, Rules
from engine.core.plan import apply_plan
from facilitation.models import ClassSession, SessionEvent, StateSnapshot

GENESIS_HASH = "0" * 64
STATE_CHANGING_KINDS = ("decision", "bot")
# facilitator actions that change the state (replayed and verified like decisions)
STATE_CHANGING_ACTIONS = ("adjust", "direct")


def changes_state(kind: str, payload: dict) -> bool:
    return kind in STATE_CHANGING_KINDS or (kind == "facilitator" and payload.get("action") in STATE_CHANGING_ACTIONS)


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def jsonable(obj: Any) -> Any:
    """The value as it will come back from a JSON column (tuples -> lists, int keys -> str)."""
    return json.loads(canonical(obj))


def _sorted_object(pairs: list) -> dict:
    return dict(sorted(pairs))


def loads_canonical(text: str) -> Any:
    """``json.loads(canonical(json.loads(text)))`` in one decoding: every object's keys in
    sorted order (the canonical form a replay starts from), whatever order ``text`` has them in
    (a jsonb column's text gives them in PostgreSQL's own order)."""
    return json.loads(text, object_pairs_hook=_sorted_object)


def state_data(rules: Rules, state: Any) -> Any:
    """``jsonable(rules.serialize(state))``: the state as the JSON column stores it, canonical
    order. A game whose state is plain JSON data (``Rules.state_is_json``) skips its own copy."""
    return jsonable(state if rules.state_is_json else rules.serialize(state))


def remember_head_text(session: ClassSession, text: str | None) -> None:
    """Keep the session row's state as the database gave it (jsonb text) on a row read with the
    ``state`` column deferred, for ``load_state`` to decode once when it is asked for the head
    state. It is used only while ``session.state`` was never loaded or set (any later
    assignment, e.g. by ``append``, makes it stale and it is then ignored)."""
    session.__dict__["_head_state_text"] = (session.head_seq, text)


def _head_text(session: ClassSession) -> str | None:
    kept = session.__dict__.get("_head_state_text")
    if kept is None or kept[0] != session.head_seq or "state" in session.__dict__:
        return None
    return kept[1]


def _ts(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")


def event_hash(*, session_id: int, seq: int, parent_seq: int, kind: str, seat: str, actor_id: int | None,
               payload: Any, facts: Any, metrics: Any, rationale: str, decision_ms: int | None,
               created_at: dt.datetime, prev_hash: str) -> str:
    """sha256 over the canonical JSON of every field of the row and the previous row's hash."""
    body = canonical({
        "session": session_id, "seq": seq, "parent_seq": parent_seq, "kind": kind, "seat": seat,
        "actor": actor_id, "payload": payload, "facts": facts, "metrics": metrics,
        "rationale": rationale, "decision_ms": decision_ms, "created_at": _ts(created_at),
        "prev": prev_hash,
    })
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def row_hash(ev: SessionEvent) -> str:
    return event_hash(session_id=ev.session_id, seq=ev.seq, parent_seq=ev.parent_seq, kind=ev.kind,
                      seat=ev.seat, actor_id=ev.actor_id, payload=ev.payload, facts=ev.facts,
                      metrics=ev.metrics, rationale=ev.rationale, decision_ms=ev.decision_ms,
                      created_at=ev.created_at, prev_hash=ev.prev_hash)


def rules_for(session: ClassSession) -> Rules:
    return engine.load(session.scenario_key)


_FINGERPRINTS: dict[str, str] = {}


def rules_fingerprint(scenario_key: str) -> str:
    """A digest of the code and data that decide how a scenario's log replays.

    It covers ``engine/core``, ``engine/coin`` and ``engine/scenarios/<key>`` (every
    ``.py`` and ``.json`` file). A session records it when it is created, so that
    ``verify_session`` can tell "the log was altered" apart from "the log was
    recorded under other rules". Computed once per process (the code does not
    change under a running process).
    """
    if scenario_key not in _FINGERPRINTS:
        import hashlib
        from pathlib import Path

        root = Path(engine.__file__).resolve().parent
        digest = hashlib.sha256()
        for part in ("core", "coin", f"scenarios/{scenario_key}"):
            base = root / part
            for path in sorted(base.rglob("*")):
                if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                    digest.update(str(path.relative_to(root)).encode())
                    digest.update(b"\0")
                    digest.update(path.read_bytes())
        _FINGERPRINTS[scenario_key] = digest.hexdigest()[:16]
    return _FINGERPRINTS[scenario_key]


def transition(rules: Rules, state: Any, kind: str, seat: str, payload: dict) -> list[dict]:
    """Apply one event's transition to ``state`` in place; returns the engine's facts."""
    if kind in STATE_CHANGING_KINDS:
        if "plan" in payload:  # a seat's plan: one decision group (engine.core.plan, facilitation.plans)
            new, facts = apply_plan(rules, state, seat, payload["plan"])
            _replace(state, new)
            return facts
        return rules.apply_inplace(state, seat, payload["choice"])
    if kind == "facilitator" and payload.get("action") == "adjust":
        return adjustment_facts(rules, state, payload["track"], payload["value"], payload.get("reason", ""))
    if kind == "facilitator" and payload.get("action") == "direct":
        return rules.apply_directed(state, payload["seat"], payload["choice"], payload.get("reason", ""))
    return []


def _replace(state: Any, new: Any) -> None:
    """Make ``state`` (changed in place by the log's replay) hold ``new``."""
    if isinstance(state, dict):
        state.clear()
        state.update(new)
    elif isinstance(state, list):
        state[:] = new
    else:
        state.__dict__.clear()
        state.__dict__.update(new.__dict__)


def adjust_state(rules: Rules, state: Any, track: str, value: Any) -> list[dict]:
    fn = getattr(rules, "adjust", None)
    if fn is None:
        raise IllegalChoice(f"The {rules.title or rules.key} rules do not support adjusting tracks.",
                            code="adjust_unsupported")
    return list(fn(state, track, value) or [])


def adjustment_facts(rules: Rules, state: Any, track: str, value: Any, reason: str) -> list[dict]:
    """A facilitator adjustment's facts: the engine's own, then the override with its reason.

    The service that logs an adjustment and the replay that verifies it both come
    here, so the stored and the replayed facts are the same by construction.
    """
    facts = adjust_state(rules, state, track, value)
    return [*facts, engine.fact("override", f"Facilitator adjustment ({track} -> {value}): {reason}")]


def append(session: ClassSession, *, kind: str, seat: str = "", actor=None, payload: dict | None = None,
           facts: list | None = None, metrics: dict | None = None, rationale: str = "",
           decision_ms: int | None = None, parent_seq: int | None = None,
           state_after: Any = None, rules: Rules | None = None) -> SessionEvent:
    """Append one event to the locked ``session`` and update its cached head.

    The caller holds ``select_for_update`` on the session row inside a transaction.
    ``state_after`` is the state after this event (it becomes the cache, and a
    snapshot every ``snapshot_every`` events).
    """
    assert transaction.get_connection().in_atomic_block, "append() needs a transaction"
    seq = session.head_seq + 1
    prev = session.head_hash or GENESIS_HASH
    parent = session.head_seq if parent_seq is None else parent_seq
    payload = jsonable(payload or {})
    facts = jsonable(facts or [])
    metrics = jsonable(metrics or {})
    now = timezone.now()
    h = event_hash(session_id=session.pk, seq=seq, parent_seq=parent, kind=kind, seat=seat,
                   actor_id=getattr(actor, "pk", None), payload=payload, facts=facts, metrics=metrics,
                   rationale=rationale, decision_ms=decision_ms, created_at=now, prev_hash=prev)
    ev = SessionEvent(
        session=session, seq=seq, parent_seq=parent, kind=kind, seat=seat, actor=actor,
        payload=payload, facts=facts, metrics=metrics, rationale=rationale, decision_ms=decision_ms,
        created_at=now, prev_hash=prev, hash=h)
    pending = session.__dict__.get("_pending_rows")
    if pending is None:
        ev.save(force_insert=True)
    else:
        pending.append(ev)
    session.head_seq = seq
    session.head_hash = h
    if state_after is not None:
        rules = rules or rules_for(session)
        data = state_data(rules, state_after)
        session.state = data
        every = session.snapshot_every or 0
        if every and seq % every == 0:
            snap = StateSnapshot(session=session, seq=seq, state=data)
            if pending is None:
                snap.save(force_insert=True)
            else:
                pending.append(snap)
    return ev


# ---- a move's writes in one round trip (issue #8) ----------------------------------------------
#
# ``defer_writes(session)`` makes the following ``append`` calls on that (locked) session keep
# their event and snapshot rows instead of inserting each at once; ``flush(session, *rows,
# update_fields=...)`` then inserts them and any further new rows of the transaction (a
# submission key), and saves those fields of the session row, in one round trip on PostgreSQL
# (one statement per table). The row's save is the one ``Model.save(update_fields=...)`` makes,
# signals included: ``pre_save`` before, the ``auto_now`` time set, one row updated, then
# ``post_save`` (facilitation.live publishes the new version and queues the pre-draw there).
# Elsewhere (SQLite, a server-side binding cursor) the rows are saved one by one, then the
# session. Between ``defer_writes`` and ``flush`` nothing may read the session's events from
# the database: the choice service only plays the engine and its bots there. A transaction
# that fails before the flush writes nothing, as before.
#
# Why ``flush`` does not go through ``Model.save`` (issue 13.7), and what it must keep in step
# with. ``save()`` is one round trip per row: a move writes an event, sometimes a snapshot, a
# submission key and the session row, and each round trip to PostgreSQL costs more than the
# engine's move itself (benchmarks/load/cost.py, docs/benchmarks.md). So on PostgreSQL ``flush``
# writes the SQL that ``save()`` would write, in one round trip, and repeats by hand what
# ``save()`` does around it. This is the one place that does so; it must stay in step with
# Django's ``Model.save`` (checked against Django 5.2) and with these models:
#
# - inserted rows (SessionEvent, StateSnapshot, SubmissionKey): every concrete non-pk field's
#   ``pre_save(obj, add=True)`` then ``get_db_prep_save`` (defaults, ``auto_now_add``), the pk
#   read back and ``_state`` set as after an insert; no ``pre_save``/``post_save`` signals are
#   sent for them, so these models must have no receivers and no ``save()`` override other than
#   SessionEvent's append-only guard (which an insert passes);
# - the session row: ``pre_save`` signal, each updated field's ``pre_save(obj, add=False)``
#   (``updated_at``'s ``auto_now``), exactly one row updated or ``DatabaseError`` (as
#   ``save(update_fields=...)``), then ``post_save`` with ``created=False`` and the
#   ``update_fields`` (facilitation.live publishes the version, facilitation.tasks queues the
#   pre-draw); ClassSession must not override ``save()``.
#
# tests/facilitation/test_flush_contract.py fails when a receiver or a ``save()`` override
# appears on these models; test_submit_round_trips.py plays the same moves through ``flush``
# and through ``Model.save`` (the "orm" path) and checks both logs replay.


def defer_writes(session: ClassSession) -> None:
    session.__dict__["_pending_rows"] = []


def flush(session: ClassSession, *extra, update_fields: list[str] | None = None) -> None:
    """Insert the rows ``append`` kept since ``defer_writes``, then ``extra`` (unsaved model
    instances), then save ``update_fields`` of ``session``; ``append`` inserts at once again."""
    rows = [*session.__dict__.pop("_pending_rows", []), *extra]
    conn = transaction.get_connection()
    with conn.cursor() as cur:
        if not merges_parameters(cur):
            for obj in rows:
                obj.save(force_insert=True)
            if update_fields:
                session.save(update_fields=update_fields)
            return
        qn = conn.ops.quote_name
        statements, params = [], []
        for model, objs in _by_model(rows):
            fields = [f for f in model._meta.concrete_fields if not f.primary_key]
            values = []
            for obj in objs:
                values.append("(" + ", ".join(["%s"] * len(fields)) + ")")
                params.extend(f.get_db_prep_save(f.pre_save(obj, True), conn) for f in fields)
            statements.append(f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
                              f"VALUES {', '.join(values)} RETURNING {qn(model._meta.pk.column)}")
        if update_fields:
            update_fields = frozenset(update_fields)
            meta = type(session)._meta
            pre_save.send(sender=type(session), instance=session, raw=False, using=conn.alias,
                          update_fields=update_fields)
            fields = [meta.get_field(name) for name in sorted(update_fields)]
            statements.append(f"UPDATE {qn(meta.db_table)} SET {', '.join(f'{qn(f.column)} = %s' for f in fields)} "
                              f"WHERE {qn(meta.pk.column)} = %s")
            params.extend(f.get_db_prep_save(f.pre_save(session, False), conn) for f in fields)
            params.append(session.pk)
        if not statements:
            return
        cur.execute("; ".join(statements), params)
        for _model, objs in _by_model(rows):
            for obj, (pk,) in zip(objs, cur.fetchall(), strict=True):
                obj.pk = pk
                obj._state.adding, obj._state.db = False, conn.alias
            cur.nextset()
        if update_fields:
            if cur.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")
            session._state.adding, session._state.db = False, conn.alias
            post_save.send(sender=type(session), instance=session, created=False, update_fields=update_fields,
                           raw=False, using=conn.alias)


def _by_model(rows: list) -> list[tuple[type, list]]:
    """``rows`` grouped by model (models in order of first appearance, rows in order)."""
    groups: dict[type, list] = {}
    for obj in rows:
        groups.setdefault(type(obj), []).append(obj)
    return list(groups.items())


def merges_parameters(cursor) -> bool:
    """Whether ``cursor`` merges the parameters into the query text it sends (psycopg's
    client-side cursor, Django's default on PostgreSQL): several statements may then go in one
    round trip, each returning its own rows."""
    try:
        from psycopg import ClientCursor
    except ImportError:  # psycopg2 (or SQLite): one statement at a time
        return False
    return isinstance(getattr(cursor, "cursor", cursor), ClientCursor)


def initial_state(rules: Rules, session: ClassSession) -> Any:
    return rules.setup(seed=session.engine_seed(), options=dict(session.options or {}))


def settle_head_state(session: ClassSession, rules: Rules | None = None) -> None:
    """Give a row read with its ``state`` column deferred (``.defer("state")``: the polls read the
    state only when they draw a region) the state of *its own* ``head_seq``.

    Django loads a deferred column by reading the row as it is now: when a move was committed
    between the two reads, the newer position's state was drawn under the older seq, a region
    whose choices answered the newer position while its form said the older seq, so the team's
    decision was refused as stale ("the game has moved on"), and that region was stored under the
    older version's key (issue 20: a browser test's decision refused on a busy machine). Here the
    state is read together with the seq it belongs to; if the session has moved on since the row
    was read, the row object gets S(head_seq) rebuilt from the log (None before the start, seq 0)."""
    if "state" in session.__dict__ or _head_text(session) is not None or session.pk is None:
        return
    row = ClassSession.objects.filter(pk=session.pk).values_list("head_seq", "state").first()
    if row is not None and row[0] == session.head_seq:
        session.state = row[1]
    elif row is None or session.head_seq == 0:
        session.state = None
    else:
        rules = rules or rules_for(session)
        session.state = state_data(rules, _replayed_state(session, session.head_seq, rules))


def load_state(session: ClassSession, seq: int, rules: Rules | None = None) -> Any:
    """``S(seq)``: from the nearest snapshot on the parent path, re-applying events on that path."""
    rules = rules or rules_for(session)
    if seq == session.head_seq:
        text = _head_text(session)
        if text is not None:  # the row's jsonb text, decoded once into the canonical form
            data = loads_canonical(text)
            return data if rules.state_is_json else rules.deserialize(data)
        settle_head_state(session, rules)  # a deferred state: the one of this head_seq
        if session.state is not None:
            return rules.deserialize(json.loads(canonical(session.state)))
    return _replayed_state(session, seq, rules)


def _replayed_state(session: ClassSession, seq: int, rules: Rules) -> Any:
    """S(seq) from the log: the nearest snapshot on the parent path, then the events after it."""
    parents = dict(SessionEvent.objects.filter(session=session, seq__lte=seq)
                   .values_list("seq", "parent_seq"))
    snaps = set(StateSnapshot.objects.filter(session=session, seq__lte=seq).values_list("seq", flat=True))
    path: list[int] = []
    cur = seq
    while cur > 0 and cur not in snaps:
        path.append(cur)
        cur = parents[cur]
    if cur > 0:
        snap = StateSnapshot.objects.get(session=session, seq=cur)
        state = rules.deserialize(json.loads(canonical(snap.state)))
    else:
        state = initial_state(rules, session)
    path.reverse()
    events = {e.seq: e for e in SessionEvent.objects.filter(session=session, seq__in=path)}
    for s in path:
        e = events[s]
        transition(rules, state, e.kind, e.seat, e.payload)
    return state


@dataclass
class VerifyReport:
    session_id: int
    events: int = 0
    replayed: int = 0
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # replay differences of a log recorded under other rules (its hash chain intact): what
    # today's engine does differently, not evidence of tampering
    rules_differences: list[str] = field(default_factory=list)
    recorded_rules: str = ""
    current_rules: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors and not self.rules_differences

    @property
    def rules_changed(self) -> bool:
        """The log is intact but was recorded under other rules, and its replay differs."""
        return not self.errors and bool(self.rules_differences)


def verify(session: ClassSession) -> VerifyReport:
    """Replay the whole log from the seed and check everything the log promises.

    * seq is 1..N without gaps and every row's hash matches its content and chains
      to the previous row's hash;
    * every decision/bot/adjust re-applies legally and produces exactly the
      stored facts and metrics;
    * every snapshot and the cached state on the session row equal the replayed
      states; the cached head seq/hash equal the last row's.
    """
    rules = rules_for(session)
    rep = VerifyReport(session_id=session.pk)
    current = rules_fingerprint(session.scenario_key)
    rep.recorded_rules, rep.current_rules = session.rules_version or "", current
    other_rules = bool(session.rules_version) and session.rules_version != current
    if other_rules:
        rep.notes.append(f"recorded under rules version {session.rules_version}; this engine is "
                         f"{current}: replay differences may come from rule changes, not tampering")
    events = list(SessionEvent.objects.filter(session=session).order_by("seq"))
    rep.events = len(events)
    prev = GENESIS_HASH
    for i, ev in enumerate(events, start=1):
        if ev.seq != i:
            rep.errors.append(f"seq gap: expected {i}, found {ev.seq}")
            break
        if ev.prev_hash != prev:
            rep.errors.append(f"event {ev.seq}: prev_hash does not match event {ev.seq - 1}")
        if row_hash(ev) != ev.hash:
            rep.errors.append(f"event {ev.seq}: content does not match its hash (row altered)")
        prev = ev.hash
    if events and (session.head_seq != events[-1].seq or session.head_hash != events[-1].hash):
        rep.errors.append("session head seq/hash do not match the last event")
    if not events and session.head_seq:
        rep.errors.append("session head seq set but the log is empty")

    chain_errors = len(rep.errors)
    # Replay from the seed. Keep the states that undo events return to.
    needed = {ev.parent_seq for ev in events if ev.parent_seq != ev.seq - 1}
    snapshots = {s.seq: s.state for s in StateSnapshot.objects.filter(session=session)}
    kept: dict[int, Any] = {}
    try:
        state = initial_state(rules, session)
    except Exception as exc:  # noqa: BLE001 - report any failure to set up
        rep.errors.append(f"setup failed: {exc}")
        return rep
    if 0 in needed:
        kept[0] = rules.copy(state)
    last = 0
    for ev in events:
        if ev.parent_seq != last:
            if ev.parent_seq not in kept:
                rep.errors.append(f"event {ev.seq}: parent {ev.parent_seq} is not a known state")
                break
            state = rules.copy(kept[ev.parent_seq])
        try:
            facts = transition(rules, state, ev.kind, ev.seat, ev.payload)
        except (IllegalChoice, KeyError, TypeError) as exc:
            rep.errors.append(f"event {ev.seq}: replay rejected it: {exc}")
            break
        if changes_state(ev.kind, ev.payload):
            if jsonable(facts) != ev.facts:
                rep.errors.append(f"event {ev.seq}: stored facts differ from the replayed facts")
            if jsonable(rules.metrics(state)) != ev.metrics:
                rep.errors.append(f"event {ev.seq}: stored metrics differ from the replayed metrics")
        if ev.seq in snapshots and jsonable(rules.serialize(state)) != snapshots[ev.seq]:
            rep.errors.append(f"snapshot at {ev.seq} differs from the replayed state")
        if ev.seq in needed:
            kept[ev.seq] = rules.copy(state)
        last = ev.seq
        rep.replayed += 1
    if not rep.errors or rep.replayed == len(events):
        if session.state is None:
            if events:
                rep.errors.append("cached session state is missing")
        elif jsonable(rules.serialize(state)) != session.state:
            rep.errors.append("cached session state differs from the replayed state")
        over = rules.prompt(state) is None
        if events and over and session.result is not None and jsonable(rules.result(state)) != session.result:
            rep.errors.append("cached result differs from the replayed result")
    if other_rules and not chain_errors and len(rep.errors) > chain_errors:
        # The rows, their hashes and the chain head are intact: the log is the one recorded.
        # Today's engine replays it differently because the rules changed since (e.g. contract v2
        # facts), which says nothing about tampering.
        rep.rules_differences = rep.errors[chain_errors:]
        rep.errors = rep.errors[:chain_errors]
    return rep
