"""Fixtures for the hardening tests: private Redis and PostgreSQL servers, HTTP helpers.

The machine's shared services (Redis on 6379, the PostgreSQL cluster on 5432) are
never stopped: a test that stops or restarts a service starts its own, on a free
loopback port, in a temporary folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path

import pytest

from tests.conftest import free_port, stop_process, wait_for_port


def http(method: str, url: str, *, token: str | None = None, body: dict | None = None,
         headers: dict | None = None, timeout: float = 30) -> tuple[int, dict | str]:
    """One request; ``(status, json or text)``; ``(0, error)`` when no answer came."""
    data = json.dumps(body).encode() if body is not None else None
    h = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
    if token:
        h["Authorization"] = f"Token {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
            status = resp.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError, HTTPException) as exc:
        # HTTPException: the answer was cut (IncompleteRead: a web process killed while it sent
        # the body; BadStatusLine) - no answer, as a browser would see it
        return 0, f"{type(exc).__name__}: {exc}"
    try:
        return status, json.loads(raw or b"{}")
    except json.JSONDecodeError:
        return status, raw.decode(errors="replace")


@dataclass
class RedisServer:
    port: int
    folder: Path
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.folder), "--logfile", str(self.folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.proc, timeout=10)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc)
            self.proc = None


@pytest.fixture
def private_redis(tmp_path):
    """A redis-server of this test alone (free loopback port); ``.stop()``/``.start()`` it at will."""
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is not installed (apt-get install redis-server)")
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(port=free_port(), folder=folder)
    server.start()
    yield server
    server.stop()


PG_BIN_CANDIDATES = ["/usr/local/bin", *sorted(str(p) for p in Path("/usr/lib/postgresql").glob("*/bin"))]


def _pg_bin(name: str) -> str:
    for d in PG_BIN_CANDIDATES:
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    found = shutil.which(name)
    if not found:
        pytest.fail(f"{name} not found: install PostgreSQL server binaries")
    return found


def _as_postgres(args: list[str], **kw) -> subprocess.CompletedProcess:
    if os.geteuid() == 0:
        cmd = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(_q(a) for a in args)]
    else:
        cmd = args
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def _q(s: str) -> str:
    return "'" + s.replace("'", "'\"'\"'") + "'"


@dataclass
class PostgresCluster:
    port: int
    datadir: str
    sockdir: str

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/coinlab"

    def ctl(self, action: str, *extra: str) -> None:
        out = _as_postgres([_pg_bin("pg_ctl"), "-D", self.datadir, "-l", f"{self.datadir}/server.log", "-w",
                            "-t", "30", *extra, action], timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"pg_ctl {action} failed: {out.stdout}{out.stderr}")

    def start(self) -> None:
        self.ctl("start", "-o", f"-p {self.port} -k {self.sockdir} -c listen_addresses=127.0.0.1 -c fsync=off")

    def stop(self) -> None:
        self.ctl("stop", "-m", "fast")

    def restart(self) -> None:
        self.ctl("restart", "-m", "fast", "-o",
                 f"-p {self.port} -k {self.sockdir} -c listen_addresses=127.0.0.1 -c fsync=off")


@pytest.fixture
def private_postgres():
    """A PostgreSQL cluster of this test alone: initdb under /tmp (owned by postgres), free port,
    trust auth on loopback, database ``coinlab``. Stopped and removed afterwards."""
    base = tempfile.mkdtemp(prefix="coinlab-pg-", dir="/tmp")
    datadir, sockdir = f"{base}/data", f"{base}/sock"
    os.makedirs(sockdir)
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        shutil.chown(sockdir, "postgres", "postgres")
    out = _as_postgres([_pg_bin("initdb"), "-D", datadir, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                        "--no-sync"], timeout=120)
    if out.returncode != 0:
        pytest.fail(f"initdb failed: {out.stdout}{out.stderr}")
    cluster = PostgresCluster(port=free_port(), datadir=datadir, sockdir=sockdir)
    cluster.start()
    try:
        out = subprocess.run([_pg_bin("psql"), "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "-d",
                              "postgres", "-qc", "CREATE DATABASE coinlab"], capture_output=True, text=True,
                             timeout=60)
        if out.returncode != 0:
            pytest.fail(f"create database failed: {out.stderr}")
        yield cluster
    finally:
        try:
            cluster.stop()
        except RuntimeError:
            pass
        shutil.rmtree(base, ignore_errors=True)


def wait_until(pred, timeout: float, every: float = 0.2, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(every)
    raise TimeoutError(f"{what} not reached after {timeout}s")
