"""The plain data an AAR is built from (no Django, no database).

A bundle is a dict; :func:`normalize` fills defaults and converts timestamps so
the rest of the builder can rely on the shape::

    {
      "scenario": {"key": "peru", "title": "...", "seats": [{"id", "title", "color"}]},
      "course":   {"id", "title", "instructors": [names]},
      "session":  {"id", "title", "seed", "options", "status",
                   "scheduled_start", "started_at", "ended_at"},
      "teams":    [{"id", "name", "seats": [seat ids], "members": [names],
                    "intents": [{"text", "seq", "created_at", "author"}]}],
      "seats":    [{"id", "title", "team", "controller"}],   # controller: human/bot
      "events":   [{"seq", "kind", "seat", "team", "actor", "payload", "facts",
                    "metrics", "rationale", "decision_ms", "created_at"}],
      "notes":     [{"seq", "text", "author", "created_at"}],
      "bookmarks": [{"seq", "label", "author", "created_at"}],
      "result":   {...} | None,          # Rules.result() at the end, if over
      "board":    {...} | None,          # Rules.board()
      "snapshots": {seq: board-view},    # BoardView.to_dict() at seq 0, each phase, the end (optional)
      "as_of_seq": int | None,
      "outcome_params": {...},           # fixed numbers the outcome measures need (ToT level markers)
      "comparison": {"earlier": [...], "baseline": {...}},  # other games to compare with (optional)
    }
"""

from __future__ import annotations

import datetime as dt
from typing import Any

EVENT_KINDS = ("decision", "bot", "undo", "system", "facilitator")


def parse_time(value: Any) -> dt.datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=dt.UTC)
    if isinstance(value, int | float):
        return dt.datetime.fromtimestamp(value, tz=dt.UTC)
    text = str(value)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    return None


def normalize(raw: dict) -> dict:
    """A copy of ``raw`` with every key present and events sorted by ``seq``."""
    b: dict[str, Any] = {}
    scen = dict(raw.get("scenario") or {})
    scen.setdefault("key", "")
    scen.setdefault("title", scen["key"].replace("_", " ").title())
    scen.setdefault("seats", [])
    b["scenario"] = scen
    b["course"] = {"id": None, "title": "", "instructors": [], **(raw.get("course") or {})}
    sess = {"id": None, "title": "", "seed": None, "options": {}, "status": "",
            **(raw.get("session") or {})}
    for k in ("scheduled_start", "scheduled_end", "started_at", "ended_at"):
        sess[k] = parse_time(sess.get(k))
    b["session"] = sess

    seat_titles = {s["id"]: s.get("title", s["id"]) for s in scen["seats"]}
    seats = []
    for s in raw.get("seats") or []:
        s = {"title": seat_titles.get(s["id"], s["id"]), "team": None, "controller": "human", **s}
        seats.append(s)
    b["seats"] = seats

    teams = []
    for t in raw.get("teams") or []:
        t = {"id": None, "name": "", "seats": [], "members": [], "intents": [], **t}
        t["intents"] = [{"text": "", "seq": None, "author": "", **i,
                         "created_at": parse_time(i.get("created_at"))} for i in t["intents"]]
        teams.append(t)
    # seats named in teams but absent from the seat list
    known = {s["id"] for s in seats}
    for t in teams:
        for sid in t["seats"]:
            if sid not in known:
                seats.append({"id": sid, "title": seat_titles.get(sid, sid), "team": t["name"],
                              "controller": "human"})
                known.add(sid)
    for s in seats:
        if not s.get("team"):
            for t in teams:
                if s["id"] in t["seats"]:
                    s["team"] = t["name"]
    b["teams"] = teams

    seat_team = {s["id"]: s.get("team") for s in seats}
    events = []
    for e in raw.get("events") or []:
        e = {"seat": None, "team": None, "actor": "", "payload": {}, "facts": [], "metrics": {},
             "rationale": "", "decision_ms": None, **e}
        e["seq"] = int(e["seq"])
        e["kind"] = str(e.get("kind") or "system")
        e["created_at"] = parse_time(e.get("created_at"))
        e["payload"] = e["payload"] or {}
        e["facts"] = [f for f in (e["facts"] or []) if isinstance(f, dict)]
        e["metrics"] = {k: v for k, v in (e["metrics"] or {}).items() if _num(v) is not None}
        e["rationale"] = e["rationale"] or ""
        if not e["team"] and e["seat"]:
            e["team"] = seat_team.get(e["seat"])
        events.append(e)
    events.sort(key=lambda e: e["seq"])
    b["events"] = events

    b["notes"] = sorted(
        ({"seq": None, "text": "", "author": "", **n, "created_at": parse_time(n.get("created_at"))}
         for n in raw.get("notes") or []),
        key=lambda n: (n["seq"] if n["seq"] is not None else -1))
    b["bookmarks"] = sorted(
        ({"seq": None, "label": "", "author": "", **n, "created_at": parse_time(n.get("created_at"))}
         for n in raw.get("bookmarks") or []),
        key=lambda n: (n["seq"] if n["seq"] is not None else -1))
    b["result"] = raw.get("result")
    b["board"] = raw.get("board") or {}
    b["snapshots"] = {int(k): v for k, v in (raw.get("snapshots") or {}).items()}
    as_of = raw.get("as_of_seq")
    b["as_of_seq"] = int(as_of) if as_of is not None else (events[-1]["seq"] if events else 0)
    b["final_metrics"] = raw.get("final_metrics")
    b["outcome_params"] = dict(raw.get("outcome_params") or {})
    b["comparison"] = raw.get("comparison") or {}
    b["links"] = dict(raw.get("links") or {})
    vig = raw.get("vignette")
    b["vignette"] = ({"title": "", "objective": "", "questions": [], "teams": 0, "decisions": [], **vig}
                     if vig else None)
    return b
