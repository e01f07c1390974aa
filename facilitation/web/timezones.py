"""Dates and times in the viewer's own time zone (issue 19 item 3).

The browser tells its IANA time zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``)
in the ``coinlab_tz`` cookie (``static/web/js/play.js`` sets it on every page); this
middleware activates that zone for the request, so templates, ``localtime`` and form fields
(the schedule form's date and time) read and write times in it. An unknown or missing zone
leaves the server's ``TIME_ZONE``. Pages write a time with its zone (``{{ when|when }}``,
``facilitation.web.templatetags.coinlab_web``), so a time is never ambiguous.

Nothing kept in the shared cache shows a formatted time (live regions and console sections
carry ISO times that the browser formats), so the caches need no key per time zone.
"""

from __future__ import annotations

import zoneinfo

from django.utils import timezone

COOKIE = "coinlab_tz"


def zone_named(name: str | None):
    """The time zone ``name`` (an IANA name), or None if it is not one."""
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class UserTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = zone_named(request.COOKIES.get(COOKIE))
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
