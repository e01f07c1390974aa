"""The embedded default starts from a clean checkout with the README command.

The committed tree (``git archive HEAD``) is unpacked into a temporary folder,
and its ``scripts/run`` (README Quick start) is started there, reusing this
run's virtualenv (no network). It must migrate a brand-new SQLite database
under the checkout's ``var/``, load the demo (with the after-action review
of each finished session), print the URL and the logins, and serve: the home
page, the login page, the API docs with their locally
served assets, and an instructor's login with the demo password. Then
``verify_session --all`` replays every demo session from its seed.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, free_port

pytestmark = pytest.mark.integration


def _checkout(dest: Path) -> Path:
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    # Older than the shim venv's install stamp (see _shim_venv).
    os.utime(dest / "pyproject.toml", (946684800, 946684800))
    return dest


def _shim_venv(dest: Path, checkout: Path) -> Path:
    """A stand-in for ``$COINLAB_VENV``: this run's interpreter, pointed at the checkout.

    scripts/run finds an installed venv (python + install stamp) and goes straight to
    ``$VENV/bin/coinlab serve``; the shim runs the checkout's code with this run's
    packages and never installs anything into the shared virtualenv.
    """
    bin_dir = dest / "bin"
    bin_dir.mkdir(parents=True)
    py = sys.executable
    for name, target in (("python", f'exec "{py}" "$@"'), ("coinlab", f'exec "{py}" -m coinlab.cli "$@"')):
        f = bin_dir / name
        f.write_text(f'#!/bin/sh\nexport PYTHONPATH="{checkout}"\n{target}\n')
        f.chmod(0o755)
    (dest / ".coinlab-installed").touch()
    return dest


def _wait_http(url: str, proc: subprocess.Popen, log: Path, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"scripts/run exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the site did not come up in {timeout}s:\n{log.read_text()[-4000:]}")


def test_scripts_run_starts_the_embedded_site_from_a_clean_checkout(tmp_path):
    checkout = _checkout(tmp_path / "coinlab")
    assert not (checkout / "var").exists()
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "COINLAB_VAR_DIR", "SECRET_KEY",
                        "DJANGO_SETTINGS_MODULE")}
    venv = _shim_venv(tmp_path / "venv", checkout)
    env.update({"COINLAB_VENV": str(venv), "PYTHONPATH": str(checkout), "PYTHONUNBUFFERED": "1"})
    log = tmp_path / "run.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([str(checkout / "scripts" / "run"), f"127.0.0.1:{port}"], cwd=checkout, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_http(f"{base}/accounts/login/", proc, log)
        text = log.read_text()
        assert f"{base}/" in text, text
        for login in ("instructor", "alice", "bob", "reviewer", "coinlab-demo"):
            assert login in text, f"{login} not printed:\n{text}"
        # each game's finished session has its after-action review, built before the site serves
        # (the three builds share one chart browser: facilitation.reports.demo.building)
        assert "After-action reviews: 3 built (done, done, done)" in text, text
        assert (checkout / "var" / "coinlab.sqlite3").exists(), "SQLite under the checkout's var/"

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(f"{base}/", timeout=10) as r:
            assert r.status == 200
        with opener.open(f"{base}/api/docs/", timeout=10) as r:
            docs = r.read().decode()
            assert r.status == 200
        assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', docs)
        assert assets and all(a.startswith("/static/") for a in assets), assets  # no CDN
        for a in assets:
            with opener.open(base + a, timeout=10) as r:
                assert r.status == 200 and r.read(100)
        with opener.open(f"{base}/api/schema/", timeout=10) as r:
            assert r.status == 200 and b"openapi" in r.read(200)

        # Log in as the demo instructor through the login form.
        with opener.open(f"{base}/accounts/login/", timeout=10) as r:
            page = r.read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"username": "instructor", "password": "coinlab-demo",
                                       "csrfmiddlewaretoken": token, "next": "/api/sessions/"}).encode()
        req = urllib.request.Request(f"{base}/accounts/login/", data=data, headers={"Referer": f"{base}/"})
        with opener.open(req, timeout=20) as r:
            assert r.status == 200 and r.url.endswith("/api/sessions/"), r.url
        req = urllib.request.Request(f"{base}/api/sessions/", headers={"Accept": "application/json"})
        with opener.open(req, timeout=10) as r:
            import json

            sessions = json.loads(r.read())
        statuses = sorted(s["status"] for s in sessions)
        assert "finished" in statuses and "live" in statuses and "scheduled" in statuses, statuses
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)

    verify = subprocess.run([sys.executable, "manage.py", "verify_session", "--all"], cwd=checkout, env=env,
                            capture_output=True, text=True, timeout=300)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.count(": OK") >= 2, verify.stdout
