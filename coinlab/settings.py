"""CoinLab Django settings.

Two running modes (ARCHITECTURE.md, "Running modes"), chosen by the environment:

* Embedded default (no ``DATABASE_URL``): SQLite under ``var/`` (or
  ``$COINLAB_VAR_DIR``), Celery in eager mode when no broker is configured,
  local media under ``var/media``, a secret key generated once into
  ``var/secret_key``.
* Production: ``DATABASE_URL`` (PostgreSQL), ``REDIS_URL`` (Celery broker,
  result backend and cache), ``SECRET_KEY``, ``ALLOWED_HOSTS``; secure cookies
  unless ``DEBUG``. See docs/operations.md.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if not raw:
        return default
    return [x.strip() for x in raw.split(",") if x.strip()]


BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("COINLAB_VAR_DIR") or BASE_DIR / "var").resolve()

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip() or REDIS_URL
PRODUCTION = bool(DATABASE_URL)

DEBUG = env_bool("DEBUG", False)


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if PRODUCTION and not DEBUG and env_bool("COINLAB_REQUIRE_SECRET_KEY", False):
        raise ImproperlyConfigured("SECRET_KEY must be set in production mode.")
    # Embedded mode (and single-machine set-ups): one key generated on first use
    # and kept under var/. Several machines must share SECRET_KEY (docs/operations.md).
    path = VAR_DIR / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key
    except OSError:
        return secrets.token_urlsafe(50)


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "facilitation",
    "facilitation.web",
    "facilitation.reports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "coinlab.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "facilitation.web.timezones.UserTimezoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "coinlab.security.RateLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "coinlab.urls"
WSGI_APPLICATION = "coinlab.wsgi.application"
ASGI_APPLICATION = "coinlab.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ---- database -------------------------------------------------------------
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    _sqlite_path = VAR_DIR / "coinlab.sqlite3"
    # The whole site (password hashes, every log, the games' hidden state) is in this file:
    # readable by its owner only (issue 14 item 12); SQLite gives its -wal and -shm files the
    # same mode. Created here, before Django's first connection would create it 0644.
    try:
        os.close(os.open(_sqlite_path, os.O_RDWR | os.O_CREAT, 0o600))
        os.chmod(_sqlite_path, 0o600)
    except OSError:
        pass
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _sqlite_path,
            # One writer at a time: wait for the lock instead of failing at once,
            # and take the write lock at BEGIN so select_for_update-style sections serialise.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---- cache ------------------------------------------------------------------
if REDIS_URL:
    # Shared by every web process (rate limits, session versions, login sessions); a Redis
    # outage degrades to cache misses instead of errors (coinlab/cache.py).
    CACHES = {"default": {"BACKEND": "coinlab.cache.ResilientRedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": "coinlab",
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5,
                                      "retry_on_timeout": False}}}
    # Login sessions: read from Redis, written through to PostgreSQL (survives a Redis restart).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# ---- Celery -------------------------------------------------------------------
# With no broker configured, tasks run eagerly in the calling process (embedded mode).
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or (REDIS_URL or None)
CELERY_TASK_ACKS_LATE = True
# Three queues: "celery" (reports, verification), "live" (facilitation.tasks.live_predraw,
# a few milliseconds per seat after every move, docs/operations.md) and "pace" (the bot games
# behind a length estimate, facilitation.tasks.pace_games, seconds each). A worker started
# without -Q consumes all; production runs one worker with -Q live so that builds never delay
# it, and one with -Q celery,pace.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery", Exchange("celery"), routing_key="celery"),
                      Queue("live", Exchange("live"), routing_key="live"),
                      Queue("pace", Exchange("pace"), routing_key="pace"))
CELERY_TASK_ROUTES = {"facilitation.tasks.live_predraw": {"queue": "live"},
                      "facilitation.tasks.pace_games": {"queue": "pace"}}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 600
CELERY_TASK_SOFT_TIME_LIMIT = 540
# The AAR build's own limits (facilitation.reports.tasks), within the ones above.
# The final after-action review is requested when a session ends (facilitation/reports/receivers.py).
COINLAB_FINAL_AAR = env_bool("COINLAB_FINAL_AAR", True)
COINLAB_AAR_SOFT_TIME_LIMIT = int(os.environ.get("COINLAB_AAR_SOFT_TIME_LIMIT", "240"))
COINLAB_AAR_TIME_LIMIT = int(os.environ.get("COINLAB_AAR_TIME_LIMIT", "300"))
# "The road not taken" (issue 17): how many key decisions of the teams, and how many bot games
# per option of each; 0 decisions leaves the section out (docs/benchmarks.md: its cost per game)
COINLAB_AAR_WHATIF_DECISIONS = int(os.environ.get("COINLAB_AAR_WHATIF_DECISIONS", "5"))
COINLAB_AAR_WHATIF_ROLLOUTS = int(os.environ.get("COINLAB_AAR_WHATIF_ROLLOUTS", "8"))
# Redis gives an unacknowledged message to a worker again once it has been out for the
# visibility timeout. With acks_late a message stays unacknowledged while its task runs,
# so the timeout must be longer than any task may run (the hard time limits) plus the
# longest retry countdown (60 s), or a second worker starts a build the first is still
# running. It is also how long a report whose whole worker (or machine) died waits before
# another worker builds it (a worker stopped with SIGTERM finishes its builds first; a pool
# process that dies is replaced and its task re-queued at once: reject_on_worker_lost).
# `manage.py check` warns when it is too short (facilitation/reports/checks.py).
COINLAB_CELERY_VISIBILITY_TIMEOUT = int(os.environ.get("COINLAB_CELERY_VISIBILITY_TIMEOUT", "1200"))
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Workers keep reconnecting through a Redis outage of any length instead of exiting after 100 tries.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A worker that loses Redis cancels its running late-acknowledged tasks: Redis hands their
# messages out again, and the build must not run twice at once.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# max_retries..interval_max: publishing gives up within seconds when Redis is down (503, not a hang).
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5,
                                   "interval_max": 1, "visibility_timeout": COINLAB_CELERY_VISIBILITY_TIMEOUT}
CELERY_TIMEZONE = "UTC"

# ---- auth -------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# ---- i18n -------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# ---- static and media (all local, no CDN) -----------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("COINLAB_STATIC_ROOT") or VAR_DIR / "staticfiles")
try:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns when it is missing
except OSError:
    pass
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve straight from the app folders unless collectstatic has been run (production).
WHITENOISE_USE_FINDERS = env_bool("COINLAB_STATIC_FINDERS", not (STATIC_ROOT / "staticfiles.json").exists()
                                  and not (STATIC_ROOT / "admin").exists())
WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("COINLAB_MEDIA_ROOT") or VAR_DIR / "media")

# ---- security ---------------------------------------------------------------
SECURE_COOKIES = env_bool("COINLAB_SECURE_COOKIES", PRODUCTION and not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
BEHIND_TLS_PROXY = env_bool("COINLAB_BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind the TLS proxy of the production layout (docs/operations.md), http is redirected
# to https and browsers are told to keep to https for a year, unless set otherwise.
SECURE_SSL_REDIRECT = env_bool("COINLAB_SSL_REDIRECT", BEHIND_TLS_PROXY)
SECURE_HSTS_SECONDS = int(os.environ.get("COINLAB_HSTS_SECONDS", "31536000" if BEHIND_TLS_PROXY else "0"))
# includeSubDomains covers names under the site's own host (coinlab.example.org), not its parent domain.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("COINLAB_HSTS_SUBDOMAINS", BEHIND_TLS_PROXY)
SECURE_HSTS_PRELOAD = env_bool("COINLAB_HSTS_PRELOAD", BEHIND_TLS_PROXY)
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Content-Security-Policy (coinlab.security): one strict policy for every page, /reports/ included.
# Rate limits (coinlab.security), counted in the cache: Redis in production, so they hold
# across every web process. "N/SECONDS".
COINLAB_RATE_LIMITS = env_bool("COINLAB_RATE_LIMITS", True)
COINLAB_RATE_LOGIN_FAIL = os.environ.get("COINLAB_RATE_LOGIN_FAIL", "10/300")  # per (user name, address)
COINLAB_RATE_LOGIN_USER_FAIL = os.environ.get("COINLAB_RATE_LOGIN_USER_FAIL", "50/300")  # per user name
COINLAB_RATE_LOGIN_IP_FAIL = os.environ.get("COINLAB_RATE_LOGIN_IP_FAIL", "100/300")  # per address
# django-ratelimit: counters in the default cache; a cache outage lets requests through
# (passwords and codes are still checked) rather than locking everyone out.
RATELIMIT_USE_CACHE = "default"
RATELIMIT_FAIL_OPEN = True
COINLAB_RATE_JOIN_FAIL = os.environ.get("COINLAB_RATE_JOIN_FAIL", "20/600")
COINLAB_RATE_SUBMIT = os.environ.get("COINLAB_RATE_SUBMIT", "60/10")
# Behind a proxy, the header that carries the client address (e.g. HTTP_X_FORWARDED_FOR).
COINLAB_CLIENT_IP_HEADER = os.environ.get("COINLAB_CLIENT_IP_HEADER", "")

# ---- REST API -----------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "facilitation.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer",
                                 "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_PAGINATION_CLASS": None,
    "DEFAULT_PARSER_CLASSES": ["facilitation.api.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "CoinLab API",
    "DESCRIPTION": "Courses, class sessions, teams, seats, the decision log and after-action reviews.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# ---- CoinLab --------------------------------------------------------------------
COINLAB_SNAPSHOT_EVERY = int(os.environ.get("COINLAB_SNAPSHOT_EVERY", "25"))
COINLAB_JOIN_CODE_DAYS = int(os.environ.get("COINLAB_JOIN_CODE_DAYS", "14"))
# Signs log receipts (facilitation/receipts.py); default: derived from SECRET_KEY. Never in the database.
COINLAB_LOG_RECEIPT_KEY = os.environ.get("COINLAB_LOG_RECEIPT_KEY", "")
COINLAB_JOIN_CODE_MAX_USES = int(os.environ.get("COINLAB_JOIN_CODE_MAX_USES", "40"))  # students per new code
COINLAB_MAX_BOT_STEPS = int(os.environ.get("COINLAB_MAX_BOT_STEPS", "20000"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"coinlab": {"level": os.environ.get("LOG_LEVEL", "INFO")},
                "facilitation": {"level": os.environ.get("LOG_LEVEL", "INFO")}},
}
