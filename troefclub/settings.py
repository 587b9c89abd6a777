"""troefclub settings: one file, every deployment choice read from the environment.

Embedded default (nothing set): SQLite in ``db.sqlite3`` and Celery in eager mode, so
``python3 dev.py run`` needs no services. Production and CI set ``DATABASE_URL``
(PostgreSQL), ``CELERY_BROKER_URL`` (Redis), ``SECRET_KEY``, ``ALLOWED_HOSTS``.

Variables may also come from an optional ``.env`` file in the project root (``KEY=VALUE``
lines, ``#`` comments; kept out of git): a variable set in the real environment wins over
the file. ``python3 dev.py run`` writes one on its first run (a random ``SECRET_KEY`` and
the local ``ALLOWED_HOSTS``), so ``manage.py`` commands run as the README shows them, with
``DEBUG`` off.

``SECRET_KEY`` may only be left unset while ``DEBUG`` is on, while the test suite runs or
while mypy checks the code (pytest and mypy load these settings before anything could set
a variable, so the settings notice them: see ``TESTING``). Anywhere else an unset key is
an error and the process stops.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from troefclub.env import (
    env_bool,
    env_choice,
    env_database,
    env_int,
    env_list,
    env_origins,
    env_rate,
    env_str,
    read_env_file,
)
from troefclub.logs import logging_config
from troefclub.site import site_url_parse

BASE_DIR = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- environment

# The real environment wins; the file only fills in what is unset (child processes such as
# the Celery worker started from here inherit the same values).
for _name, _value in read_env_file(BASE_DIR / ".env").items():
    os.environ.setdefault(_name, _value)


# ---------------------------------------------------------------- core

DEBUG = env_bool("DEBUG", False)

# True while pytest runs the suite. Only relaxes the SECRET_KEY requirement and uses plain
# static files storage (tests never need collectstatic); it never changes behaviour.
TESTING = "pytest" in sys.modules

# mypy's django-stubs plugin loads these settings too; it serves no requests either.
TYPE_CHECKING_RUN = "mypy" in sys.modules

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not (DEBUG or TESTING or TYPE_CHECKING_RUN):
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-troefclub-dev-and-tests-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS")

# The public address (issue 18): every QR code, table link, printed sheet and e-mail starts
# with it (troefclub/site.py), whatever address the director's page was opened with. Unset:
# the address of the request. `dev.py run --addr 0.0.0.0:8000` sets it for that run.
SITE_URL = site_url_parse(env_str("SITE_URL"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "django_tables2",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_filters",
    "simple_history",
    "axes",
    "csp",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "troefclub",
    "tournaments",
    "scoring",
    "rankings",
    "interchange",
    "api",
]

MIDDLEWARE = [
    # First: every answer carries X-Request-ID, every log line of a request its id.
    "troefclub.request_id.RequestIdMiddleware",
    # /healthz and /readyz, answered before any Host check, HTTPS redirect, session, CSRF
    # or axes (troefclub/health.py): the balancer probes by address, over plain HTTP.
    "troefclub.health.HealthMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before anything that answers: a preflight (OPTIONS) to /api/ is answered here, and only
    # for the origins of API_CORS_ORIGINS (empty by default: no other site's script reads us).
    "corsheaders.middleware.CorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A NUL in the path, query, cookies or headers: the 400 page, in the reader's language
    # (after LocaleMiddleware), before the session or any view reads it (troefclub.nul).
    "troefclub.nul.NulRefusedMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as axes asks: turns a login refused during a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "troefclub.urls"
WSGI_APPLICATION = "troefclub.wsgi.application"

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
                "troefclub.reader_cache.reader_cache_csrf",  # a stored page's CSRF placeholder
            ],
            # {% partialdef %} / {% partial %} without {% load partials %} in every template.
            # The "template_partials" app wraps the loaders itself (its default app config).
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]


# ---------------------------------------------------------------- database

DATABASES = {
    "default": env_database(
        "DATABASE_URL",
        f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 60, minimum=0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default must take a club evening: phones saving rounds at the same moment
    # (tests/test_sqlite_concurrency.py). SQLite allows one writer at a time, so:
    # - IMMEDIATE takes the write lock when a transaction begins. A deferred transaction
    #   reads first and asks for the lock at its first write; if another writer got in
    #   between, SQLite fails it at once ("database is locked") instead of letting it wait.
    # - the busy timeout (seconds) makes a writer wait its turn instead of failing;
    # - WAL lets the pages be read while a round is being written;
    # - synchronous=FULL (not NORMAL): a saved round survives a power cut of the laptop.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        }
    )

_postgresql = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
if _postgresql:
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    if not env_bool("DATABASE_JIT", False):
        # JIT compilation off for the app's connections (issue 20): no query of a page runs
        # long enough to gain from it, and a plan whose cost crosses `jit_above_cost`
        # (100,000) pays for compiling it: +100 ms on the board's 20 ms game query at 1,000
        # koppels when its statistics were stale, 1.0-1.7 s once past the inlining and
        # optimising thresholds. DATABASE_JIT=true leaves the server's setting alone.
        _options["options"] = f"{_options.get('options', '')} -c jit=off".strip()
    # A server that hasn't answered in 5 s is down: /readyz and the pages say so in time.
    _options.setdefault("connect_timeout", 5)

# DATABASE_POOL_SIZE=N (> 0, PostgreSQL only; issue 23): each process (gunicorn or Celery
# worker) borrows its connections from Django's psycopg pool of at most N, one per request
# or task, checked on loan (conn_health_checks: a restarted server's dead connections are
# replaced, not handed out); Django's pool wants CONN_MAX_AGE 0. Unset or 0: a persistent
# connection per thread, as before.
DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 0)
if DATABASE_POOL_SIZE < 0 or (DATABASE_POOL_SIZE and not _postgresql):
    raise ImproperlyConfigured(
        f"DATABASE_POOL_SIZE={DATABASE_POOL_SIZE}: a pool needs PostgreSQL (DATABASE_URL) and a "
        "size of 1 or more (0 or unset: no pool)."
    )
if DATABASE_POOL_SIZE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": 5,  # seconds a request waits for a free connection before it fails
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# ---------------------------------------------------------------- auth

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
# A director lands on their competitions and tonight's matchday (issue 8); the view sends
# anybody who directs nothing on to the list of competitions.
LOGIN_REDIRECT_URL = "director_home"
LOGOUT_REDIRECT_URL = "/"

AUTHENTICATION_BACKENDS = [
    # First, so that a locked-out username and address are refused before the password is
    # even checked. It needs the request: tests log in with client.force_login (or pass
    # request= to client.login).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login throttling (django-axes), on /accounts/login/ and /admin/login/ alike: after
# AXES_FAILURE_LIMIT wrong passwords for one username from one address, that pair is locked
# out for AXES_COOLOFF_MINUTES (each try meanwhile restarts the wait). Keyed on the pair, so
# a stranger guessing can't lock a director out at the club's own table. Unlock by hand:
# `manage.py axes_reset_username NAME`.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_MINUTES = env_int("AXES_COOLOFF_MINUTES", 15, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=AXES_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "troefclub.auth.login_lockout"
AXES_CLIENT_IP_CALLABLE = "troefclub.auth.client_ip"
# Reverse proxies in front of gunicorn that append to X-Forwarded-For (nginx: 1). 0 = the
# address is REMOTE_ADDR; behind a proxy that would key every lockout on the proxy.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
AXES_VERBOSE = False  # no banner on every manage.py command; failures and lockouts still log


# ---------------------------------------------------------------- e-mail

# The password reset needs e-mail: with no EMAIL_HOST its pages answer 404 and the login
# page says to ask the league admin instead (troefclub.auth.password_reset_available).
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # TLS from the start (port 465)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)  # STARTTLS (port 587)
EMAIL_PORT = env_int("EMAIL_PORT", 465 if EMAIL_USE_SSL else 587, minimum=1, maximum=65535)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured(
        "EMAIL_USE_TLS (STARTTLS, port 587) and EMAIL_USE_SSL (port 465) exclude each other: "
        "set one of them to false."
    )
EMAIL_TIMEOUT = 10  # seconds: a dead mail server must not hold a web request for long
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "troefclub@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Without a mail server nothing pretends to send: whatever Django mails goes to the log.
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)


# ---------------------------------------------------------------- i18n

# Dutch first (issue 8): most players speak Dutch; the header switch and the browser's
# Accept-Language choose English.
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "nl")  # also the management commands' language
LANGUAGES = [("nl", "Nederlands"), ("en", "English")]
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise ImproperlyConfigured(f"LANGUAGE_CODE must be one of {', '.join(dict(LANGUAGES))}.")
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "America/Paramaribo")
USE_I18N = True
USE_TZ = True


# ---------------------------------------------------------------- static files

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Without collectstatic (development, tests) whitenoise serves straight from the finders.
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG or TESTING


# ---------------------------------------------------------------- third-party apps

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"


# ---------------------------------------------------------------- REST API (issue 21)

# The API (`api/`, /api/v1/): public reads as the public pages, writes with a personal API
# token (`Authorization: Bearer …`, `api.auth`) or a table link's token (`Authorization:
# Table …`) in a header, never in the URL. No session login: a browser's cookies never
# authorise a write here, so there is no CSRF to check. JSON only (the browsable API's
# pages would need inline scripts the CSP refuses; the docs page is /api/v1/docs/).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.auth.ApiTokenAuthentication",
        "api.auth.TableLinkAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JsonBodyParser"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.IdCursorPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.TokenRateThrottle",
        "api.throttling.AddressRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        # Per personal API token (or table link) and per client address. A federation site
        # polling its standings every minute and a scorer app sending a round every few
        # seconds stay far below; a runaway script is told 429 with Retry-After.
        "token": env_rate("API_THROTTLE_TOKEN", "600/min"),
        "address": env_rate("API_THROTTLE_ADDRESS", "300/min"),
    },
    "NUM_PROXIES": (
        env_int("API_NUM_PROXIES", 0, minimum=0) if "API_NUM_PROXIES" in os.environ else None
    ),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "troefclub API",
    "DESCRIPTION": (
        "Standings, fixtures, games and rankings of Troefcall clubs, leagues and tournaments;"
        " results recorded through the same rules as the score sheet."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page's JS and CSS from our own static files (drf-spectacular-sidecar).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name each for the choice sets that share a field name (issue 21, the reads).
    "ENUM_NAME_OVERRIDES": {
        "CompetitionKindEnum": "tournaments.models.Competition.Kind",
        "EntryKindEnum": "api.serializers.entities.ENTRY_KINDS",
        "GameStateEnum": "api.serializers.games.GAME_STATES",
        "GameStatusEnum": "scoring.models.Game.Status",
        "MatchStateEnum": "api.serializers.games.MATCH_STATES",
        "SideEnum": "api.serializers.games.SIDES",
    },
    # Every operation's error answers (401, 404, 429, …) in the schema: `api.schema`.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.error_responses",
    ],
}

# CORS (django-cors-headers): off unless API_CORS_ORIGINS lists origins
# ("https://stcb.sr,https://knbb.nl"), and then only for /api/. Credentials (cookies) are
# never allowed: the API's writes take a token in a header.
CORS_ALLOWED_ORIGINS = env_origins("API_CORS_ORIGINS")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (
    "accept",
    "accept-language",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-match",
    "if-none-match",
)
CORS_EXPOSE_HEADERS = ("etag", "last-modified", "retry-after")


# ---------------------------------------------------------------- celery

# No broker configured = the embedded default: tasks run in-process, right away.
# (kombu warns about a memory:// URL without a host name, hence "localhost").
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = not env_str("CELERY_BROKER_URL")
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A down broker must not hold a web request for long: the result is already saved and
# standings catch up later, so give up publishing quickly.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# How often a worker (and beat) retries a lost broker before it exits for good; publishing
# has its own short CELERY_TASK_PUBLISH_RETRY_POLICY. A worker that gave up after 3 tries
# (about 12 s) was gone when Redis came back and nothing refreshed the standings, so
# unset or 0 means retry forever.
CELERY_BROKER_CONNECTION_MAX_RETRIES = (
    env_int("CELERY_BROKER_CONNECTION_MAX_RETRIES", 0, minimum=0) or None
)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
    "socket_timeout": 2,
    "socket_connect_timeout": 2,
    "max_retries": 1,
    # Tasks acknowledge late, so Redis hands a task to another worker when it is not
    # acknowledged within this time: a worker killed mid-refresh. kombu's default, an
    # hour, left standings wrong that long. 300 s is far longer than any refresh (well
    # under a second for 200 koppels, benchmarks/standings_refresh), so a running task is
    # never handed out twice; the stale sweep repairs the standings well before. We
    # queue no eta/countdown tasks, which Redis would also redeliver after this time.
    "visibility_timeout": 300,
}
# One task at a time per worker process: a killed process loses (and later redelivers)
# one refresh, not a prefetched batch.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

# The queues (issue 19): a standings refresh must never wait behind the ratings. One
# correction in an early game of a big season re-rates thousands of games (6-29 s), and a
# worker pool consuming both kinds of task can be taken whole by the ratings: one process
# rebuilding, the others waiting for its lock with the ratings tasks queued meanwhile. So
# each kind has its own queue, and production runs a worker for each (README "Workers and
# queues"): `-Q standings` for the standings refreshes and the stale sweep, `-Q ratings
# --concurrency 1` for the ratings (one refresh runs at a time anyway, `RatingsLock`).
# A worker started without -Q consumes both queues, as before: it works, and can starve.
# Each queue has an exchange and routing key of its own name (Celery's default would send
# every queue's messages with the default queue's routing key). Every task is routed here
# (tests/troefclub/test_queues.py); the default queue is only for a task that isn't.
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name) for name in ("standings", "ratings")
)
CELERY_TASK_DEFAULT_QUEUE = "standings"
CELERY_TASK_ROUTES = {
    "scoring.tasks.standings_refresh": {"queue": "standings"},
    "scoring.tasks.standings_refresh_stale": {"queue": "standings"},
    "rankings.tasks.ratings_refresh": {"queue": "ratings"},
    # The season rankings (issue 20) follow the standings as the ratings do, and like them
    # may take seconds at league size: the ratings worker runs them, never the standings'.
    "rankings.tasks.season_rankings_refresh": {"queue": "ratings"},
    "rankings.tasks.season_rankings_refresh_stale": {"queue": "ratings"},
    "api.tasks.idempotency_records_purge": {"queue": "standings"},
    "troefclub.tasks.reader_cache_bumps_owed_pay": {"queue": "standings"},
}

# Every write that can move the standings marks them stale in its transaction
# (`Competition.standings_stale_since`); this sweep rebuilds those still stale after
# STANDINGS_SWEEP_SECONDS, whatever became of their queued refresh (broker down, worker
# killed). Run by celery beat (README); in eager mode refreshes run inline and no beat is
# needed. A sweep not started within its interval expires: a worker that was away doesn't
# come back to a pile of them.
STANDINGS_SWEEP_SECONDS = env_int("STANDINGS_SWEEP_SECONDS", 30, minimum=1)
# The season rankings (issue 20) are refreshed this many seconds after the first result
# that owes it: the results of those seconds find that refresh queued and ask no other. A
# refresh reads the whole season (1-2 s of a core at 1,000 koppels), so an evening of 50
# tables would otherwise keep a core busy with one refresh a result. Below the sweep, which
# takes over a claim older than STANDINGS_SWEEP_SECONDS (a shorter sweep, as the worker
# tests set, makes the default shorter too).
SEASON_RANKINGS_DELAY_SECONDS = env_int(  # below STANDINGS_SWEEP_SECONDS
    "SEASON_RANKINGS_DELAY_SECONDS",
    min(10, STANDINGS_SWEEP_SECONDS // 2),
    minimum=0,
    maximum=STANDINGS_SWEEP_SECONDS - 1,
)
# How long the API keeps the answer of a keyed write (`Idempotency-Key`, issue 21): a retry
# within this many days gets the same answer; the purge runs once a day.
API_IDEMPOTENCY_DAYS = env_int("API_IDEMPOTENCY_DAYS", 30, minimum=1)

CELERY_BEAT_SCHEDULE = {
    "api-idempotency-records-purge": {
        "task": "api.tasks.idempotency_records_purge",
        "schedule": timedelta(days=1),
        "options": {"expires": 3600},
    },
    "standings-refresh-stale": {
        "task": "scoring.tasks.standings_refresh_stale",
        "schedule": timedelta(seconds=STANDINGS_SWEEP_SECONDS),
        "options": {"expires": STANDINGS_SWEEP_SECONDS},
    },
    # The reader cache's bumps a failing cache missed (troefclub/reader_cache.py): made
    # once it answers again; finding none owed costs one query.
    "reader-cache-bumps-owed-pay": {
        "task": "troefclub.tasks.reader_cache_bumps_owed_pay",
        "schedule": timedelta(seconds=STANDINGS_SWEEP_SECONDS),
        "options": {"expires": STANDINGS_SWEEP_SECONDS},
    },
    # The player ratings (issue 10), on the same beat: catches a refresh that was lost and
    # what no write queues one for (a matchday's date or a koppel changed in the admin).
    # Finding nothing changed costs four queries.
    "ratings-refresh": {
        "task": "rankings.tasks.ratings_refresh",
        "schedule": timedelta(seconds=STANDINGS_SWEEP_SECONDS),
        "options": {"expires": STANDINGS_SWEEP_SECONDS},
    },
    # The season rankings (issue 20): seasons left stale (a lost task) or never computed.
    "season-rankings-refresh-stale": {
        "task": "rankings.tasks.season_rankings_refresh_stale",
        "schedule": timedelta(seconds=STANDINGS_SWEEP_SECONDS),
        "options": {"expires": STANDINGS_SWEEP_SECONDS},
    },
}
# Each celery beat tick touches this file, leader or standby (troefclub/beat.py: one beat of
# all the nodes' sends); compose's healthcheck of a beat wants it younger than 120 s.
BEAT_HEARTBEAT_FILE = env_str("BEAT_HEARTBEAT_FILE", "/tmp/troefclub-beat.heartbeat")
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}


# ---------------------------------------------------------------- scoring at the table

# A result entered at the table and not confirmed by the other koppel for this many minutes
# lands in the director's queue (competitions that ask for confirmation): long enough for
# the koppels to confirm at the table themselves, short enough for the same evening.
# The release the table phone's service worker names its caches after (scoring/offline.py);
# empty: a hash of the service worker and the files it keeps. Set it to force every phone
# to drop its cached pages and files at the next visit.
PWA_RELEASE = env_str("PWA_RELEASE", "")
# The table phone takes no second round within this many milliseconds of the first: a
# nervous double tap is one round (static/js/table.js). No deal is played that fast.
TABLE_TAP_GUARD_MS = 500
TABLE_CONFIRM_WAIT_MINUTES = env_int("TABLE_CONFIRM_WAIT_MINUTES", 10, minimum=0)
# Guessing table links (troefclub/secret_links.py): after TABLE_LINK_MISS_LIMIT links that
# open nothing within TABLE_LINK_MISS_SECONDS of the first, one client address gets 429
# until then, except on the links its phones opened before. Nobody mistypes a QR code 30
# times a minute; a script guessing does.
TABLE_LINK_MISS_LIMIT = env_int("TABLE_LINK_MISS_LIMIT", 30, minimum=1)
TABLE_LINK_MISS_SECONDS = env_int("TABLE_LINK_MISS_SECONDS", 60, minimum=1)
# The cache holds those counts. Unset: each process' memory (one process: dev.py, the
# tests); gunicorn's workers then count apart, each up to the limit. CACHE_URL=redis://...
# (a database of its own, not the broker's) makes them count together.
CACHE_URL = env_str("CACHE_URL")
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"CACHE_URL={CACHE_URL!r} must be a redis:// URL (or unset).")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # A Redis that hangs fails a reader page's lookup in a second, and it renders.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# The readers' pages (standings, matchday, hall display, rankings) kept in that cache for
# this many seconds, each dropped at once when its data change (troefclub/reader_cache.py).
# Only with CACHE_URL: a bump in one worker's own memory wouldn't reach the others. 0: off.
READER_CACHE_SECONDS = env_int("READER_CACHE_SECONDS", 300, minimum=0)


# ---------------------------------------------------------------- rankings and ratings

# A player appears in the rating list (/ratings/) after this many rated games: a rating made
# of one or two games says little (OpenSkill's sigma is still wide), and the list would
# otherwise be topped by whoever won their only game.
RATING_MIN_GAMES = env_int("RATING_MIN_GAMES", 3, minimum=1)


# ---------------------------------------------------------------- security (production)

# Off by default so that plain-HTTP setups (dev.py, the browser tests) work; production
# behind HTTPS turns them on (README "Production"; `manage.py check --deploy` is then clean).
if not DEBUG:
    if env_bool("SECURE_PROXY_SSL_HEADER", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
    LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE  # see below

# The language cookie (the header's switch, `set_language`) goes where the session cookie
# goes: over HTTPS only when that one does (above), not with other sites' requests
# (SameSite), out of the page scripts' reach (no script reads it). Django's defaults send
# it over plain HTTP and to every script.
SESSION_COOKIE_SAMESITE = "Lax"  # Django's default, said here for the line below
LANGUAGE_COOKIE_SAMESITE = SESSION_COOKIE_SAMESITE
SESSION_COOKIE_HTTPONLY = True  # Django's default, likewise
LANGUAGE_COOKIE_HTTPONLY = SESSION_COOKIE_HTTPONLY

# Content-Security-Policy (django-csp): scripts and styles only from our own static files,
# no inline <script>, no on…= handlers, no eval (htmx runs with allowEval off, see
# base.html). tests/test_security.py keeps templates/ free of inline scripts and checks
# that every inline <style> left has its hash here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [
            csp.SELF,
            # templates/500.html carries its own <style>: it must render when nothing else
            # (static files included) can be relied on.
            "'sha256-qbciUgpIDOB4kVVWIOJsrlz//i+Mz/8ccFrpxk5qet4='",
            # django-simple-history's admin history list has one style attribute
            # (`<p class="paginator" style="border-top: 0">`); a hash admits exactly that.
            csp.UNSAFE_HASHES,
            "'sha256-XMXSevYjgSjXgRafBFDvtjwX+yyWLrxfso9DcNZ9UXM='",
        ],
        # Bootstrap's CSS draws its icons (navbar toggler, close button, select arrow) as
        # data: SVGs.
        "img-src": [csp.SELF, "data:"],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    },
}


# ---------------------------------------------------------------- health and logging

# /readyz's checks (troefclub/health.py), name: dotted path; each lives in the layer of
# what it reads (the standings' in scoring).
HEALTH_CHECKS = {
    "database": "troefclub.health.database_ready",
    "migrations": "troefclub.health.migrations_ready",
    "broker": "troefclub.health.broker_ready",
    "cache": "troefclub.health.cache_ready",
    "standings": "scoring.selectors.health.standings_fresh",
}

LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
# LOG_FORMAT=json: one JSON object a line (time, level, logger, message, request_id,
# task_id) from Django, gunicorn and Celery alike (troefclub/logs.py); plain by default.
LOG_FORMAT = env_str("LOG_FORMAT", "plain").lower()
if LOG_FORMAT not in ("plain", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r} must be plain or json.")
LOGGING = logging_config(level=LOG_LEVEL, log_format=LOG_FORMAT)
