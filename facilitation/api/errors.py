"""Every API error is JSON ``{"error": code, "detail": message}``."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from facilitation.errors import ServiceError


def _flatten(detail) -> str:
    if isinstance(detail, dict):
        parts = []
        for k, v in detail.items():
            msg = _flatten(v)
            parts.append(msg if k == "non_field_errors" else f"{k}: {msg}")
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(_flatten(x) for x in detail)
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        body = {"error": exc.code, "detail": exc.message}
        if exc.message_msg is not None:  # an engine message: also structured (facilitation.text)
            body["detail_msg"] = exc.message_msg
        body.update(exc.extra)
        return Response(body, status=exc.status)
    if isinstance(exc, Http404):
        return Response({"error": "not_found", "detail": str(exc) or "Not found."},
                        status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        code = "invalid"
        fields = exc.detail if isinstance(exc.detail, dict) else None
        response.data = {"error": code, "detail": _flatten(exc.detail)}
        if fields:
            response.data["fields"] = fields
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = {"error": code, "detail": _flatten(exc.detail)}
    return response
