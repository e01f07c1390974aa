"""The page URLs come first in coinlab/urls.py (the live polls resolve at the first include,
issue #8): no page pattern may take a path meant for the admin, the login views, the API or
the reports."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from facilitation.web import urls as web_urls

OTHERS = ("admin/", "accounts/", "api/", "reports/", "media/")


def _routes(patterns, prefix=""):
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            yield route


def test_no_page_route_starts_like_another_part_of_the_site():
    routes = list(_routes(web_urls.urlpatterns))
    assert any(r.startswith("sessions/<int:session_id>/play/live/") for r in routes)
    # A route's first segment is either literal text or a converter; a converter first would
    # match any prefix.
    for r in routes:
        assert not r.startswith("<"), r
        assert not r.startswith(OTHERS), r


def test_the_pages_are_the_first_include():
    first = get_resolver().url_patterns[0]
    if isinstance(first, URLPattern) and "media" in str(first.pattern):  # embedded mode serves media first
        first = get_resolver().url_patterns[1]
    assert isinstance(first, URLResolver) and first.urlconf_name is web_urls or \
        getattr(first.urlconf_name, "__name__", "") == web_urls.__name__


@pytest.mark.parametrize(("path", "view"), [
    ("/api/sessions/7/seats/farc/submit/", r"facilitation\.api\.views"),
    ("/api/me/", r"facilitation\.api\.views"),
    ("/reports/", r"facilitation\.reports"),
    ("/admin/", r"django\.contrib\.admin"),
    ("/accounts/login/", r"django\.contrib\.auth"),
    ("/sessions/7/play/live/", r"facilitation\.web\.views\.play"),
    ("/console/live/", r"facilitation\.web\.views\.instructor"),
])
def test_each_part_of_the_site_still_resolves_to_its_own_views(path, view):
    match = resolve(path)
    func = getattr(match.func, "view_class", None) or match.func
    module = getattr(func, "__module__", "") or ""
    if "admin" in path:  # the admin's views are bound methods of the site
        module = getattr(getattr(match.func, "admin_site", None), "__module__", module) or module
        assert match.app_name == "admin" or re.search(view, module), (path, module)
        return
    assert re.search(view, module), (path, module)
