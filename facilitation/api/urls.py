"""REST API routes (mounted at /api/)."""

from django.urls import path  # noqa: F401

urlpatterns = []
