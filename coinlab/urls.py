"""URL map: pages at /, after-action reviews at /reports/, the REST API at /api/."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    # The pages first: the live polls (~100 a second in a class) are resolved at the first
    # include instead of after Django has listed every admin, API and report pattern it tried
    # (0.15 ms each). No page pattern starts with admin/, accounts/, api/ or reports/
    # (tests/web/test_urls.py).
    path("", include("facilitation.web.urls")),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its script as a file: the page works under a CSP without inline scripts.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("facilitation.api.urls")),
    path("reports/", include("facilitation.reports.urls")),
]

# 503 instead of 500 while the database is unreachable (coinlab/errorviews.py).
handler500 = "coinlab.errorviews.server_error"

if not settings.PRODUCTION or settings.DEBUG:
    # Embedded mode: serve uploaded/generated media from this process.
    urlpatterns.insert(0, path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", serve,
                               {"document_root": settings.MEDIA_ROOT}))
