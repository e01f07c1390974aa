"""The CoinLab Django project (settings, urls, Celery app).

The Celery app lives in :mod:`coinlab.celery`; it is imported by
``facilitation.apps`` when Django starts (not here, so the engine-only
``coinlab scenarios``/``simulate`` commands stay fast).
"""
