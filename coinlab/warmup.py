"""What a web or worker process loads before it freezes its objects (``gc.freeze()`` in
``coinlab/wsgi.py`` and ``coinlab/celery.py``), instead of at its first request or task.

Django loads the URL configuration (every view module, Django REST framework, the API schema)
at the first request or the first ``reverse``/``{% url %}``, and compiles a template the first
time it is drawn. Loaded there, it made the first client of a new process wait (0.3-0.5 s of
CPU, seconds on a busy machine), and the objects it made stayed in the collector's sight, so
that every full pass walked them again (issue 20, ``benchmarks/load/wsgi_cost.py`` and
``predraw_cost.py``, docs/benchmarks.md).
"""

from __future__ import annotations

# the templates every live-region poll, console poll and live pre-draw draws
WARM_TEMPLATES = ("web/play/_live.html", "web/instructor/_console_session.html")


def warm() -> None:
    """Load the URL configuration and its reverse lookup tables (one per language), the cache
    backend's client library, and compile ``WARM_TEMPLATES`` (a renamed template is skipped: its
    first drawing compiles it, as before). Nothing here opens a connection."""
    from django.conf import settings
    from django.core.cache import caches
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template
    from django.urls import get_resolver
    from django.utils import translation

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 - imports the URLconf and every view module
    for code, _name in settings.LANGUAGES:  # what the first reverse()/{% url %} in each language builds
        with translation.override(code):
            resolver.reverse_dict  # noqa: B018
    caches["default"]  # the backend (django-redis client, redis-py) is imported at its first use
    for name in WARM_TEMPLATES:
        try:
            get_template(name)
        except TemplateDoesNotExist:
            pass
