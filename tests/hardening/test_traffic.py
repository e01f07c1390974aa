"""The fault tests' own traffic (tests/hardening/faults.py) against answers cut short.

Issue 20: ``test_web_process_killed_mid_request`` failed now and then with "play between kills
not reached after 60s". A web process killed while it sent an answer's body leaves the client
with ``http.client.IncompleteRead``, which is not an ``OSError``: the request helper let it
escape, the team's thread died (pytest printed it only as a warning about an unhandled thread
exception), that team never played again, and the test waited for moves that could not come.
A cut answer is now "no answer" (status 0, retried like a refused connection), and a team loop
that raises anyway fails the test at once with its cause.
"""

from __future__ import annotations

import socket
import threading

import pytest

from tests.hardening.conftest import http
from tests.hardening.faults import Traffic, check_answers


def _server(answer: bytes) -> tuple[str, threading.Thread]:
    """A server that reads one request, sends ``answer`` and closes the connection."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)

    def serve():
        with sock:
            conn, _ = sock.accept()
            with conn:
                conn.recv(65536)
                conn.sendall(answer)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return f"http://127.0.0.1:{sock.getsockname()[1]}", t


@pytest.mark.parametrize("answer", [
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11215\r\n\r\n{\"seq\": 1",
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n",
    b"HTTP/1.1 2",
    b"",
], ids=["body cut", "no body", "status line cut", "nothing"])
def test_an_answer_cut_short_is_no_answer(answer):
    url, t = _server(answer)
    status, body = http("GET", f"{url}/api/sessions/1/seats/s/prompt/", timeout=5)
    t.join(5)
    assert status == 0 and isinstance(body, str) and body, (status, body)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the loop raises on purpose
def test_a_team_whose_loop_raises_fails_the_test_with_its_cause():
    traffic = Traffic(servers=["http://127.0.0.1:9"], session=1, teams=[("govt", "t")])

    def broken(*args):
        raise RuntimeError("the team's loop broke")

    traffic.team_loop = broken
    for t in traffic.run(max_requests=1, seconds=5):
        t.join(5)
    with pytest.raises(AssertionError, match="the team's loop broke"):
        traffic.total_accepted()
    with pytest.raises(AssertionError, match="the team's loop broke"):
        check_answers(traffic)
