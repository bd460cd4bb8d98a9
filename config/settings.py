"""Settings, read from environment variables (see docs/configuration.md)."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config import clients
from config.env import envbool, envfloat, envint, envlist, envstr

# Lets the admin and querysets be written with type parameters (ModelAdmin[Game]) at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

TESTING = "pytest" in sys.modules or envbool("TESTING", False)
DEBUG = envbool("DEBUG", False)

SECRET_KEY = envstr("SECRET_KEY")
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
    elif envstr("SCOREKEEPER_COMMAND"):
        # A manage.py command that serves nothing (account, import_game, lexicons, migrate...;
        # manage.py sets this for every command but runserver and check), run where
        # no SECRET_KEY is set, such as a fresh clone: a random key of its own, new each run,
        # so nothing it might sign is trusted by a server or by its next run.
        SECRET_KEY = secrets.token_urlsafe(50)
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (only manage.py's commands that serve "
            "nothing run without one)."
        )

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
if TESTING:
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, "testserver"]
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# Behind an HTTPS proxy or load balancer (see docs/deploy.md): secure cookies, HSTS and
# trusting the proxy's X-Forwarded-Proto. Off in development, on by default otherwise.
SECURE = envbool("SECURE", not (DEBUG or TESTING))
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 3600 if SECURE else 0)
# Subdomains and the browsers' preload list are the site owner's decision: off unless asked.
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # scorer links carry the game's secret
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# How many proxies (nginx, a load balancer) stand in front of the app, each appending to
# X-Forwarded-For: the client address for rate limits and logs is that many entries from the
# right. 0: the address that connected (no proxy).
TRUSTED_PROXIES = envint("TRUSTED_PROXIES", 0)
if "TRUST_X_FORWARDED_FOR" in os.environ:
    raise ImproperlyConfigured(
        "TRUST_X_FORWARDED_FOR is replaced by TRUSTED_PROXIES: the number of proxies in front "
        "of the app (1 for one nginx or load balancer). Unset TRUST_X_FORWARDED_FOR."
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",  # its Swagger UI from the app's own static files, not a CDN
    "referee",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "scorekeeper.http.middleware.Compression",
    "scorekeeper.http.middleware.RefusedRequestLog",
    "scorekeeper.http.middleware.RateLimit",
    "scorekeeper.http.middleware.Idempotency",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.http.middleware.ApiJsonErrors",
    "scorekeeper.http.middleware.DatabaseBusy",
    "scorekeeper.web.not_found.GameNotFoundPage",
    "scorekeeper.http.middleware.ContentSecurityPolicy",
    "scorekeeper.http.middleware.PermissionsPolicy",
]

# Content-Security-Policy: everything from this origin, nothing inline, no eval, no frames.
# (htmx is told not to inject its indicator styles or evaluate code: base.html.)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Powerful browser features the app never uses, switched off for it and anything it embeds.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
    "midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()"
)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", 60),
        # A kept connection is tried before a request uses it (one round trip), so a request
        # after the server dropped it (a restart, a terminated backend) gets a new one.
        conn_health_checks=True,
    )
}
# Seconds a write waits for SQLite's write lock before it gives up (answered 503, "try again").
SQLITE_BUSY_TIMEOUT = envint("SQLITE_BUSY_TIMEOUT", 5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # BEGIN IMMEDIATE takes the write lock when a transaction starts, so two requests that
    # change the same game queue up instead of failing with "database is locked"; WAL lets
    # readers (scoreboards) carry on while a turn is written, and synchronous=NORMAL is WAL's
    # safe setting (a power cut may lose the last commits, never the database).
    # Every write transaction is short, so the busy timeout only bounds a request held up by
    # something else (a backup, a stuck script): it answers 503 rather than hold a thread.
    # Writers queue for the write lock instead of sleeping in SQLite's busy handler.
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": SQLITE_BUSY_TIMEOUT,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a file, not shared memory, so concurrent requests in tests really race.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"scorekeeper-test-{os.getpid()}.sqlite3")
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, so that psycopg prepares what a connection runs again and
    # again (a turn's few statements, the streams' reads): PostgreSQL parses and plans each once.
    # Off for a pooler that can't keep prepared statements (PgBouncer's transaction pooling
    # before 1.21).
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = envbool(
        "DATABASE_SERVER_BINDING", True
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache every worker and app server shares: with Redis (CACHE_URL, e.g.
# redis://127.0.0.1:6379/0) it holds the rate-limit counters; by default it is the database's
# table `scorekeeper_cache` (made by `migrate`). CACHE_URL=memory keeps it in each process (one
# process only; the tests). Idempotency-Key answers have a table of their own
# (scorekeeper.http.retries).
CACHE_URL = envstr("CACHE_URL") or ("memory" if TESTING else "db")
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
elif CACHE_URL == "db":
    CACHES = {
        "default": {
            "BACKEND": "config.cache.DatabaseCache",  # Django's, its writes queued
            "LOCATION": "scorekeeper_cache",
        }
    }
elif CACHE_URL == "memory":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    raise ImproperlyConfigured(
        f"CACHE_URL must be redis://…, rediss://…, unix://…, db or memory; got {CACHE_URL!r}"
    )

# What one client may hold open on the server (gunicorn's ASGI workers, config.workers): its
# connections, and among them live streams; one more is answered 429. 0: no bound. Behind
# TRUSTED_PROXIES the connections are the proxies' and are not counted; streams still are, by
# the client the proxies name. A club whose tables all share one address (a venue's Wi-Fi)
# needs about two connections a table.
CLIENT_MAX_CONNECTIONS = envint("CLIENT_MAX_CONNECTIONS", 96)
CLIENT_MAX_STREAMS = envint("CLIENT_MAX_STREAMS", 48)
# A venue's network, where many tables share one public address: "203.0.113.7=150" (an
# address or a network, and the tables behind it; several, comma-separated). Each such
# address holds room for that many tables more (config.clients), and its per-client rate
# limits grow as many times (scorekeeper.http.limits).
SHARED_ADDRESSES = envstr("SHARED_ADDRESSES")
clients.shared_addresses(SHARED_ADDRESSES)  # refused here, at start, when malformed
# A request's line and headers arrive within so many seconds, bytes and headers (408, 431), and
# its body (at most DATA_UPLOAD_MAX_MEMORY_SIZE, else 413) within REQUEST_BODY_SECONDS (408):
# read in the event loop, so a slow client holds no thread.
REQUEST_HEAD_SECONDS = envfloat("REQUEST_HEAD_SECONDS", 10.0)
REQUEST_HEAD_BYTES = envint("REQUEST_HEAD_BYTES", 32 * 1024)
REQUEST_HEADERS = envint("REQUEST_HEADERS", 100)
REQUEST_BODY_SECONDS = envfloat("REQUEST_BODY_SECONDS", 20.0)

# Requests per client per minute; 0 turns a limit off.
RATE_LIMIT_TURNS = envint("RATE_LIMIT_TURNS", 120)
RATE_LIMIT_JUDGE = envint("RATE_LIMIT_JUDGE", 60)
# A game's board at an earlier turn (its page's ?turn=) and the page to correct a turn.
RATE_LIMIT_REPLAYS = envint("RATE_LIMIT_REPLAYS", 120)
# An event's page, its live part and its players' scorecards (a 304 counts too).
RATE_LIMIT_EVENT_PAGES = envint("RATE_LIMIT_EVENT_PAGES", 240)
RATE_LIMIT_IMPORTS = envint("RATE_LIMIT_IMPORTS", 20)  # game records imported per minute
RATE_LIMIT_GAMES = envint("RATE_LIMIT_GAMES", 30)  # games created per client per hour
RATE_LIMIT_LOGINS = envint("RATE_LIMIT_LOGINS", 20)  # sign-in attempts per client per hour
# Clubs made, and accounts a director makes for roster players, per client per hour.
RATE_LIMIT_ACCOUNTS = envint("RATE_LIMIT_ACCOUNTS", 20)
# The director's costly actions, each its own bucket: rounds paired and late entries per
# client per minute, events made (from the form, the API or a .t file) per client per hour,
# and the games pairing makes per client per hour (a 300-player event's round makes 150).
RATE_LIMIT_PAIRINGS = envint("RATE_LIMIT_PAIRINGS", 10)
RATE_LIMIT_ENTRIES = envint("RATE_LIMIT_ENTRIES", 30)
RATE_LIMIT_EVENTS = envint("RATE_LIMIT_EVENTS", 30)
RATE_LIMIT_PAIRED_GAMES = envint("RATE_LIMIT_PAIRED_GAMES", 1500)
# The director's screen (/clubs/<slug>/live) marks a game stalled after this many minutes
# without a turn; ?stall= changes it for a night.
STALL_MINUTES = envint("STALL_MINUTES", 10)
# Push (scorekeeper.live): each change goes to every open screen the moment it commits.
# REDIS_URL carries it between processes and servers; unset, one process serves everything.
REDIS_URL = envstr("REDIS_URL")
# A stream lasts at most this long, then the browser reconnects (each 80-100% of it).
PUSH_STREAM_SECONDS = envint("PUSH_STREAM_SECONDS", 300)
# An `event: alive` on every open stream at least this often (each stream 50-100% of it) keeps
# proxies, whose idle limit is usually 60 s, from closing it, and tells the scorer's page its
# stream still speaks; each is a write to every screen, so not more often (docs/performance.md).
PUSH_HEARTBEAT_SECONDS = envint("PUSH_HEARTBEAT_SECONDS", 30)
# Open streams per ASGI process, at most: fewer where its descriptors are fewer, with room left
# for turns (config.clients.stream_room); one more is answered 503 and its page polls.
PUSH_MAX_STREAMS = envint("PUSH_MAX_STREAMS", 20_000)
# Open streams per WSGI process, each holding a thread (make run); 0 under gunicorn's gthread.
PUSH_THREAD_STREAMS = envint("PUSH_THREAD_STREAMS", 32)
# Without REDIS_URL, processes sharing a database read it this often for each other's changes
# (config/gunicorn.conf.py sets 0.5 for its workers); 0: one process serves everything.
PUSH_WATCH_SECONDS = envfloat("PUSH_WATCH_SECONDS", 0.0)
# A folder where a server's processes share the spectator's live part, drawn once per change
# where it commits (scorekeeper.web.live_parts), and mark the games their screens show
# (scorekeeper.live.hub); config/gunicorn.conf.py makes one for workers with no REDIS_URL
# between them; empty: each process draws its own. One that another user owns or could write
# in is refused at start and where it is used (config.private_folder), and none is shared.
LIVE_PARTS_DIR = envstr("LIVE_PARTS_DIR")
# Pages poll for changes every so many seconds while their stream is not open (the scorer's
# page also while its stream has said nothing for PUSH_HEARTBEAT_SECONDS and a poll); 0: never.
LIVE_POLL_SECONDS = envint("LIVE_POLL_SECONDS", 3)
# What one search for plays (the analysis, a solo game's comparison) may cost: it stops after
# so many legal plays or milliseconds and says it is incomplete; at most ANALYSIS_CONCURRENCY
# run at once in a process (one more is answered 503 at once).
ANALYSIS_MAX_PLAYS = envint("ANALYSIS_MAX_PLAYS", 250_000)
ANALYSIS_MAX_MS = envint("ANALYSIS_MAX_MS", 1000)
ANALYSIS_CONCURRENCY = envint("ANALYSIS_CONCURRENCY", 1)
LOGIN_PATH = "/accounts/login/"
# Accounts: Django's sign-in and sign-out views; no sign-up page (`manage.py account add`).
LOGIN_URL = LOGIN_PATH
LOGIN_REDIRECT_URL = "clubs"
LOGOUT_REDIRECT_URL = "home"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logs.JsonFormatter"}},
    "filters": {
        "mask_secrets": {"()": "config.logs.MaskSecrets"},
        "quiet_disallowed_host": {"()": "config.logs.QuietDisallowedHost"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "filters": ["quiet_disallowed_host", "mask_secrets"],
        }
    },
    "root": {
        "handlers": ["console"],
        "level": envstr("LOG_LEVEL", "WARNING" if TESTING else "INFO"),
    },
    "loggers": {
        # Refused requests are logged once, as JSON, by scorekeeper.http.middleware.
        "django.request": {"level": "ERROR"},
        # runserver's access lines, through the masking console handler.
        "django.server": {"level": "WARNING", "handlers": ["console"], "propagate": False},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = envstr("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "config.storage.StaticStorage"
        )
    },
}

# Word lists. LEXICON_DIR holds plain word lists (one word per line; the file stem is the
# lexicon id). With no LEXICON_DIR the CSW19 list shipped inside the pyscrabbler package is
# used. Lists imported with `manage.py import_lexicon` go to LEXICON_USER_DIR. Compiled,
# memory-mapped tries are cached in LEXICON_CACHE_DIR, keyed by each list's checksum.
LEXICON_DIR = envstr("LEXICON_DIR") or None
LEXICON_USER_DIR = Path(envstr("LEXICON_USER_DIR") or BASE_DIR / "var" / "lexica")
LEXICON_CACHE_DIR = Path(envstr("LEXICON_CACHE_DIR") or BASE_DIR / "var" / "lexicon-cache")
DEFAULT_LEXICON = envstr("DEFAULT_LEXICON", "CSW19")
