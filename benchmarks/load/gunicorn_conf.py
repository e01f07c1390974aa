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
