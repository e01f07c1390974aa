"""gunicorn settings of the load test (``gunicorn -c benchmarks/load/gunicorn_conf.py``).

``post_worker_init`` warms every game's rules in each worker (imports and one set-up),
so the first requests of a worker do not pay for them, then leaves them out of the garbage
collector's full passes (``gc.freeze``).
"""


# Keep idle connections longer than the pages' poll interval (1.5 s) plus a slow answer, as a
# reverse proxy's upstream keep-alive would; gunicorn's default (2 s) races with the clients.
keepalive = 30


def post_worker_init(worker):
    import gc

    import engine

    for key in ("peru", "andean_abyss", "tears_of_tyranny"):
        try:
            engine.load(key).setup(seed=0, options={})
        except Exception:  # noqa: BLE001 - a game that cannot warm up is warmed by its first request
            pass
    gc.freeze()  # the warmed rules too, as coinlab/wsgi.py does for the application


# ---- cProfile of the requests served (LOAD_PROFILE=DIR; ramp.py --profile DIR) -----------------
# Each request is profiled in the thread that serves it (gunicorn calls pre_request and
# post_request there), into one profile per request kind and thread; a worker that stops
# writes them to DIR/<kind>-<pid>-<n>.prof (profile_report.py sums them per kind).
import os as _os  # noqa: E402
import re as _re  # noqa: E402
import threading as _threading  # noqa: E402
import time as _time  # noqa: E402

_PROFILE_DIR = _os.environ.get("LOAD_PROFILE", "")
_KINDS = ((_re.compile(r"^GET /sessions/\d+/play/live/$"), "poll"),
          (_re.compile(r"^POST /sessions/\d+/play/choose/$"), "submit_page"),
          (_re.compile(r"^POST /api/sessions/\d+/seats/[^/]+/submit/$"), "submit_api"),
          (_re.compile(r"^GET /console/live/$"), "console"))
_local = _threading.local()
_all_profiles: list = []
_lock = _threading.Lock()


def _kind(req) -> str:
    line = f"{req.method} {req.path}"
    for pattern, kind in _KINDS:
        if pattern.match(line):
            return kind
    return "other"


if _PROFILE_DIR:
    import cProfile as _cProfile

    def pre_request(worker, req):
        profiles = getattr(_local, "profiles", None)
        if profiles is None:
            profiles = _local.profiles = {}
        kind = _kind(req)
        prof = profiles.get(kind)
        if prof is None:
            prof = profiles[kind] = _cProfile.Profile(_time.thread_time)  # CPU of this thread: waits for a core not counted
            with _lock:
                _all_profiles.append((kind, prof))
        _local.current = prof
        prof.enable()

    def post_request(worker, req, environ, resp):
        prof = getattr(_local, "current", None)
        if prof is not None:
            prof.disable()
            _local.current = None

    def worker_exit(server, worker):
        with _lock:
            for n, (kind, prof) in enumerate(_all_profiles):
                try:
                    prof.dump_stats(_os.path.join(_PROFILE_DIR, f"{kind}-{_os.getpid()}-{n}.prof"))
                except Exception:  # noqa: BLE001 - a profile still enabled in a thread
                    pass
