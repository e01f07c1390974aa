"""Traffic for the fault tests: two teams play as fast as they can, retrying a failed
submission with the same idempotency key (as the browser's retry would), and every
answer is recorded."""

from __future__ import annotations

import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field

from tests.hardening.conftest import http


@dataclass
class Traffic:
    servers: list[str]
    session: int
    teams: list[tuple[str, str]]  # (seat, token)
    answers: list[dict] = field(default_factory=list)
    final: dict[str, dict] = field(default_factory=dict)  # key -> last answer
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    accepted: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: list[str] = field(default_factory=list)  # a team's loop that raised (it stopped playing)

    def record(self, **row) -> None:
        with self.lock:
            self.answers.append(row)
            if row["kind"] == "submit":
                self.final[row["key"]] = row

    def team_loop(self, k: int, seat: str, token: str, max_requests: int, deadline: float) -> None:
        n = 0
        while not self.stop.is_set() and n < max_requests and time.monotonic() < deadline:
            server = self.servers[n % len(self.servers)]
            n += 1
            status, prompt = http("GET", f"{server}/api/sessions/{self.session}/seats/{seat}/prompt/", token=token,
                                  timeout=10)
            self.record(kind="prompt", seat=seat, status=status, body=prompt, key="")
            if status != 200:
                time.sleep(0.2)
                continue
            choices = [c["id"] for c in (prompt.get("prompt") or {}).get("choices", [])]
            if not prompt.get("your_turn") or not choices:
                time.sleep(0.02)
                continue
            key = f"{seat}-{uuid.uuid4().hex}"
            body = {"choice": choices[n % len(choices)], "seq": prompt["seq"], "idempotency_key": key}
            for _attempt in range(60):
                status, ans = http("POST", f"{server}/api/sessions/{self.session}/seats/{seat}/submit/",
                                   token=token, body=body, timeout=10)
                n += 1
                self.record(kind="submit", seat=seat, status=status, body=ans, key=key, choice=body["choice"])
                if status not in (0, 502, 503):
                    break
                time.sleep(0.25)  # the same key again: lands once whatever happened before
            if status == 200:
                with self.lock:
                    self.accepted[seat] += 1

    def _team(self, *args) -> None:
        """A team's loop; if it raises, the team has stopped playing: recorded, so that the test
        fails with the cause (check_answers) instead of waiting for moves that never come."""
        try:
            self.team_loop(*args)
        except BaseException as exc:
            with self.lock:
                self.errors.append(f"team {args[1]}: {type(exc).__name__}: {exc}")
            self.stop.set()
            raise

    def run(self, max_requests: int, seconds: float) -> list[threading.Thread]:
        deadline = time.monotonic() + seconds
        threads = [threading.Thread(target=self._team, args=(k, seat, tok, max_requests, deadline), daemon=True)
                   for k, (seat, tok) in enumerate(self.teams)]
        for t in threads:
            t.start()
        return threads

    def total_accepted(self) -> int:
        with self.lock:
            # a team that stopped playing stops the game: say why now, not after a wait for moves
            assert not self.errors, f"a team's traffic stopped: {self.errors}"
            return sum(self.accepted.values())


def check_answers(traffic: Traffic) -> dict:
    """No 500s; errors are JSON with a code; returns counts by status."""
    assert not traffic.errors, f"a team's traffic stopped: {traffic.errors}"
    counts: dict[int, int] = defaultdict(int)
    for a in traffic.answers:
        counts[a["status"]] += 1
        assert a["status"] not in (500, 502, 504), a
        if a["status"] >= 400:
            assert isinstance(a["body"], dict) and a["body"].get("error"), a
    return dict(counts)


def check_log(traffic: Traffic, decisions: dict, keys: dict) -> None:
    """Every accepted key landed exactly once with its choice; nothing else landed."""
    accepted = {k: a for k, a in traffic.final.items() if a["status"] == 200}
    decisions = {int(s): c for s, c in decisions.items()}
    assert set(keys) == set(accepted), (set(keys) ^ set(accepted))
    assert len(decisions) == len(accepted), (len(decisions), len(accepted))
    for key, a in accepted.items():
        seq = keys[key]["response"]["events"][0]
        assert decisions[seq] == a["choice"] == keys[key]["request"]["choice"], (key, seq)
