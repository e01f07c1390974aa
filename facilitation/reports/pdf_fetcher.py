"""What WeasyPrint may read while it draws a report's PDF (issue 14 item 5).

The PDF's HTML carries text written by users (session titles, team names, rationales): if
some of it ever escaped into markup or CSS, WeasyPrint's default fetcher would follow any URL
it names (``http://``, ``file:///etc/...``) from the report worker. :class:`ReportURLFetcher`
answers only

* ``data:`` URIs (the charts and map snapshots are embedded as ``data:image/svg+xml``), and
* the report's own static files (``facilitation/reports/static/reports/``), by ``file:`` URL
  under that folder or by their ``/static/reports/`` path;
* the pictures handed to it with the HTML (the maps' JPEGs), by ``aar-picture:NAME``: kept in
  memory, not written into the HTML as ``data:`` URIs that WeasyPrint's pure-Python HTML
  parser would read character by character (about 50 MB more of the worker's memory for five
  maps, measured);

and refuses everything else (WeasyPrint then leaves the resource out and logs a warning).
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from weasyprint.urls import URLFetcher, URLFetcherResponse

STATIC_DIR = (Path(__file__).resolve().parent / "static" / "reports").resolve()


class RefusedURL(ValueError):
    """A URL the report's PDF may not read."""


def static_file(url: str) -> Path | None:
    """The report static file ``url`` names, or None when it names anything else."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    if parts.scheme == "file" and parts.netloc in ("", "localhost"):
        candidate = Path(path)
    elif parts.scheme in ("", "file") and path.startswith(f"{settings.STATIC_URL.rstrip('/')}/reports/"):
        candidate = STATIC_DIR / path.split("/reports/", 1)[1]
    else:
        return None
    try:
        resolved = candidate.resolve()
    except (OSError, RuntimeError):
        return None
    if not resolved.is_relative_to(STATIC_DIR) or not resolved.is_file():
        return None
    return resolved


PICTURE_SCHEME = "aar-picture:"


class ReportURLFetcher(URLFetcher):
    """WeasyPrint's fetcher for report PDFs: ``data:`` URIs, the report's static files and
    ``pictures`` (``{name: (bytes, content type)}``, read as ``aar-picture:name``) only."""

    def __init__(self, pictures: dict[str, tuple[bytes, str]] | None = None):
        super().__init__(timeout=5, allowed_protocols=("data",), allow_redirects=False)
        self.pictures = dict(pictures or {})

    def fetch(self, url, headers=None):
        if url.lower().startswith("data:"):
            return super().fetch(url, headers)
        if url.startswith(PICTURE_SCHEME):
            picture = self.pictures.get(url[len(PICTURE_SCHEME):])
            if picture is None:
                raise RefusedURL(f"no such picture in this report: {url[:200]}")
            body, kind = picture
            return URLFetcherResponse(url, body=body, headers={"Content-Type": kind})
        path = static_file(url)
        if path is None:
            raise RefusedURL(f"a report's PDF reads no outside resource: {url[:200]}")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, body=path.read_bytes(), headers={"Content-Type": kind})


def base_url() -> str:
    """The base URL of a report's PDF: its static folder (never the working directory)."""
    return STATIC_DIR.as_uri() + "/"
