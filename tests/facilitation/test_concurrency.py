"""Concurrent submissions: two real web processes (gunicorn) against real PostgreSQL.

Two teams fire 50 requests each, at the same time, through both processes.
Whenever it is a team's turn it sends a burst of three at once: the submission,
the same submission again through the other process (a double-click / retry,
same idempotency key) and a competing submission made against the same ``seq``
with another key (a teammate clicking something else). When it is not its turn
it sends stale or out-of-turn submissions.

Expected: no 5xx; every accepted key applied exactly once (0 applied twice);
every accepted answer present in the log with the choice it asked for (0 lost);
of each burst exactly one of the two keys wins; refused requests store nothing;
the replay of the log from the seed equals the cached state.
"""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from facilitation import eventlog
from facilitation.models import ClassSession, SessionEvent, SubmissionKey
from tests.conftest import ROOT, create_peru_game

REQUESTS_PER_TEAM = 50

pytestmark = pytest.mark.integration


def _http(method: str, url: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return exc.code, {"raw": raw[:500].decode(errors="replace")}


def test_two_web_processes_two_teams_no_lost_no_double_applied(people, subprocess_env, web_processes):
    from rest_framework.authtoken.models import Token

    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...): SQLite cannot show row locking")
    game = create_peru_game(people, seed=31)
    sid = game.session.pk
    tokens = {game.seat_a: Token.objects.create(user=people.student_a).key,
              game.seat_b: Token.objects.create(user=people.student_b).key}
    servers = web_processes(2)

    log: list[dict] = []
    log_lock = threading.Lock()
    bursts: list[tuple[str, str]] = []

    def record(team, kind, key, choice, seq, server, status, body):
        with log_lock:
            log.append({"team": team, "kind": kind, "key": key, "choice": choice, "seq": seq, "server": server,
                        "status": status, "body": body})

    def submit(team, kind, key, choice, seq, server):
        status, body = _http("POST", f"{servers[server]}/api/sessions/{sid}/seats/{team}/submit/",
                             tokens[team], {"choice": choice, "seq": seq, "idempotency_key": key})
        record(team, kind, key, choice, seq, server, status, body)
        return status, body

    def team_loop(team: str, offset: int):
        sent = 0
        i = 0
        pool = ThreadPoolExecutor(3)
        while sent < REQUESTS_PER_TEAM:
            i += 1
            server = (i + offset) % 2
            status, prompt = _http("GET", f"{servers[server]}/api/sessions/{sid}/seats/{team}/prompt/",
                                   tokens[team])
            assert status == 200, prompt
            seq = prompt["seq"]
            choices = [c["id"] for c in (prompt["prompt"] or {}).get("choices", [])]
            if prompt["your_turn"] and choices and sent + 3 <= REQUESTS_PER_TEAM:
                k1, k2 = f"{team}-{uuid.uuid4()}", f"{team}-{uuid.uuid4()}"
                c1 = choices[(i * 7) % len(choices)]
                c2 = choices[(i * 7 + 1) % len(choices)]
                futures = [pool.submit(submit, team, "first", k1, c1, seq, server),
                           pool.submit(submit, team, "duplicate", k1, c1, seq, 1 - server),
                           pool.submit(submit, team, "competing", k2, c2, seq, 1 - server)]
                for f in futures:
                    f.result()
                with log_lock:
                    bursts.append((k1, k2))
                sent += 3
            elif prompt["your_turn"] and choices:
                submit(team, "stale", f"{team}-{uuid.uuid4()}", choices[0], seq - 1, server)
                sent += 1
            else:
                # Not our turn: a stale seq, or the current seq out of turn.
                kind = "stale" if i % 2 else "out_of_turn"
                submit(team, kind, f"{team}-{uuid.uuid4()}", "pass", seq - 1 if kind == "stale" else seq, server)
                sent += 1
        pool.shutdown()

    threads = [threading.Thread(target=team_loop, args=(game.seat_a, 0)),
               threading.Thread(target=team_loop, args=(game.seat_b, 1))]
    errors = []

    def guarded(t):
        try:
            t._target(*t._args)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(t,)) for t in threads]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    assert not errors, errors
    assert all(not t.is_alive() for t in threads)

    # ---- what happened over HTTP ----------------------------------------------------------
    per_team = Counter(e["team"] for e in log)
    assert per_team == {game.seat_a: REQUESTS_PER_TEAM, game.seat_b: REQUESTS_PER_TEAM}
    statuses = Counter(e["status"] for e in log)
    assert not [e for e in log if e["status"] >= 500], [e for e in log if e["status"] >= 500][:3]
    for e in log:
        assert e["status"] in (200, 400, 409), e
        if e["status"] != 200:
            assert e["body"].get("error") and e["body"].get("detail"), e

    accepted = defaultdict(list)
    for e in log:
        if e["status"] == 200:
            accepted[e["key"]].append(e)

    # ---- what is in the log -----------------------------------------------------------------
    session = ClassSession.objects.get(pk=sid)
    decisions = {e.seq: e for e in SessionEvent.objects.filter(session=session, kind="decision")}
    keys = {k.key: k for k in SubmissionKey.objects.filter(session=session)}

    # 0 applied twice: one applied (replayed=False) answer per key, one decision per accepted key.
    applied_answers = [e for e in log if e["status"] == 200 and not e["body"]["replayed"]]
    assert len(applied_answers) == len(accepted), "a key was applied more than once"
    assert len(decisions) == len(accepted) == len(keys)
    # 0 lost: every accepted answer points at its decision, with the asked choice and team.
    applied_seqs = set()
    for key, answers in accepted.items():
        bodies = {json.dumps({k: v for k, v in a["body"].items() if k != "replayed"}, sort_keys=True)
                  for a in answers}
        assert len(bodies) == 1, f"duplicates of {key} got different answers: {bodies}"
        first_seq = answers[0]["body"]["events"][0]
        ev = decisions[first_seq]
        assert ev.payload["choice"] == answers[0]["choice"] and ev.seat == answers[0]["team"]
        assert keys[key].response["events"][0] == first_seq
        applied_seqs.add(first_seq)
    assert applied_seqs == set(decisions), "a decision in the log that no one was told about"
    # Refused requests stored nothing.
    refused_keys = {e["key"] for e in log if e["status"] != 200} - set(accepted)
    assert not refused_keys & set(keys)
    # Each burst: exactly one of the two keys won (the duplicate shares the winner's key or lost with it).
    for k1, k2 in bursts:
        assert (k1 in accepted) != (k2 in accepted), (k1, k2)
        if k1 in accepted:
            assert len(accepted[k1]) == 2, "the duplicate of an accepted key must return the same answer"
    assert len(bursts) >= 6, "too few turns were played to show anything"
    dup_replayed = sum(1 for e in log if e["status"] == 200 and e["body"]["replayed"])
    stale = sum(1 for e in log if e["status"] == 409 and e["body"]["error"] == "stale_seq")

    # Replay from the seed equals the cached state; the chain is intact.
    rep = eventlog.verify(session)
    assert rep.ok, rep.errors

    summary = {
        "requests": len(log), "per_team": dict(per_team), "statuses": dict(statuses),
        "bursts": len(bursts), "applied": len(decisions), "duplicates_replayed": dup_replayed,
        "stale_409": stale, "lost": 0, "applied_twice": 0, "events_in_log": rep.events,
        "replay_equals_cache": rep.ok,
    }
    print("\nconcurrency:", json.dumps(summary, sort_keys=True))
    out = Path(os.environ.get("COINLAB_TEST_ARTIFACTS", ROOT / "test-artifacts"))
    if out.is_dir():
        (out / "concurrency.json").write_text(json.dumps(summary, indent=2, sort_keys=True))
