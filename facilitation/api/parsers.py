"""Request parsers of the API.

:class:`JSONParser` is DRF's, with one more refusal: a body nested too deeply for Python's
JSON decoder (``RecursionError``, e.g. 1,000 nested lists) is a ``400 parse_error`` like any
other malformed JSON, not a server error (issue 14 item 10). Form and multipart bodies keep
DRF's parsers (the browsable API and the login form post them).
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.") from None
