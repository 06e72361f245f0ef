"""Project settings, read from the environment.

Embedded default (nothing set): SQLite file + the in-memory channel layer, one
process. Production: set DATABASE_URL (PostgreSQL) and REDIS_URL (channel layer
shared between web processes), SECRET_KEY, DEBUG=0 and ALLOWED_HOSTS.
"""

import os
from pathlib import Path

import dj_database_url

from barnga.env import SettingError, env_bool, env_float, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = env_bool("DEBUG", False)
# PRODUCTION=1 (README, "Reliability and security"): refuses to start without a real
# SECRET_KEY or with DEBUG on; with HTTPS=1 as well, `check --deploy` is clean.
PRODUCTION = env_bool("PRODUCTION", False)
if PRODUCTION and DEBUG:
    raise SettingError("DEBUG must be off when PRODUCTION=1")
# Without SECRET_KEY a fixed development key is used, which is only fit for a
# laptop; PRODUCTION=1 refuses to start without a real one.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise SettingError("SECRET_KEY must be set when PRODUCTION=1")
    SECRET_KEY = "dev-insecure-barnga-key-not-for-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "tournament",
]

MIDDLEWARE = [
    "tournament.views.HealthzMiddleware",  # before the host check and the HTTPS redirect
    # Pages compressed for browsers that ask: the facilitator's panel at 1,000 players
    # is about 2 MB, 70 kB compressed (Django's own guards against BREACH, and the
    # CSRF token is masked anew on every response).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.security.SecurityHeadersMiddleware",
    "tournament.security.MethodNotAllowedPageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last on purpose: WhiteNoise is sync-only, and innermost it makes Django run the
    # whole stack in one thread per request. Anywhere above, Django runs the middleware
    # below it async, and under ASGI each of those crosses between the event loop and a
    # thread twice per request; a join storm spent most of its time in those waits.
    "whitenoise.middleware.WhiteNoiseMiddleware",
]

ROOT_URLCONF = "barnga.urls"

TEMPLATES = [
    # A phone's screen only (barnga/jinja2.py says why); looked up first, so every
    # other name falls through to Django's templates.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "barnga.jinja2.environment", "autoescape": True},
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "NAME": "django",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # `name|bdi` everywhere a name is shown (tournament/templatetags/names.py).
            "builtins": ["tournament.templatetags.names"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "barnga.asgi.application"
WSGI_APPLICATION = None

# Database: SQLite file unless DATABASE_URL is set. A positive CONN_MAX_AGE with
# health checks: reconnecting on every action costs most of PostgreSQL's throughput.
try:
    DATABASES = {
        "default": dj_database_url.config(
            default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
            conn_max_age=env_int("CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
except ValueError as exc:  # dj_database_url's ParseError and UnknownSchemeError
    raise SettingError(f"DATABASE_URL is not a database address ({exc})") from None
BARNGA_DB_THREADS = env_int("BARNGA_DB_THREADS", 8)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # Under ASGI every HTTP request runs in a thread of its own, so a persistent
    # connection per thread was a new connection per request, left open until garbage
    # collection: a join storm of 200 reached 180 connections (README, "Load test").
    # A pool per process instead: sockets' threads and requests borrow and return.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": env_int("DB_POOL_SIZE", BARNGA_DB_THREADS + 24),
        "timeout": 30,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django turns psycopg's prepared statements off; its own cursors bind on the
    # client and never prepare. The few statements run on every action go through
    # tournament.rawsql.prepared_cursor, which binds on the server: prepared after
    # psycopg's default five runs, PostgreSQL no longer plans them each time.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for each other instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # File-backed (live-server and multi-connection tests need it); one file per run.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("BARNGA_TEST_DB", str(BASE_DIR / "test-db.sqlite3"))
    }

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and REDIS_URL.partition("://")[0] not in ("redis", "rediss", "unix"):
    # Accepted silently, it let every page load and every websocket fail.
    raise SettingError(f"REDIS_URL must start redis://, rediss:// or unix://, not {REDIS_URL!r}")
# With Redis: pub/sub with pipelined publishes (tournament/layers.py), measured several
# times faster than channels-redis' list-based RedisChannelLayer (README, "Scaling");
# CHANNEL_LAYER=core picks the latter, CHANNEL_LAYER=pubsub channels-redis' own pub/sub.
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pipelined")
if REDIS_URL and CHANNEL_LAYER in ("pipelined", "pubsub"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tournament.layers.PipelinedPubSubChannelLayer"
            if CHANNEL_LAYER == "pipelined"
            else "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis' RedisChannelLayer, without its loss of a message popped
            # as a socket closes (tournament/layers.py).
            "BACKEND": "tournament.layers.KeepingRedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                # The default capacity (100) silently drops group messages under load.
                "capacity": env_int("CHANNEL_CAPACITY", 5000),
                "expiry": 60,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Only for collectstatic (containers); WhiteNoise serves from the app folders otherwise.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Security headers; the production checklist (check --deploy) is met when DEBUG is off.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True  # pages send the token from the markup (hx-headers), never the cookie
# Content-Security-Policy and Permissions-Policy: tournament.security.SecurityHeadersMiddleware.
HTTPS = not DEBUG and env_bool("HTTPS", False)
# Browsers ignore Cross-Origin-Opener-Policy from an untrustworthy origin (plain HTTP
# at a classroom's network address) and log a console error on every page for it.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None
if HTTPS:
    SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if env_bool("TRUST_PROXY", False):
        # TLS ends at the proxy, which says so in this header (and strips a client's own).
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# LOG_LEVEL sets every logger; unset, the app's own and channels-redis's log at INFO,
# the rest (Django's included, which defaults to INFO) at WARNING.
_LOG_LEVEL = os.environ.get("LOG_LEVEL", "").strip().upper() or None
if _LOG_LEVEL not in (None, "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise SettingError(
        f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {os.environ['LOG_LEVEL']!r}"
    )
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": _LOG_LEVEL or "WARNING"},
    "loggers": {
        "tournament": {"level": _LOG_LEVEL or "INFO"},
        # channels-redis reports group messages dropped over capacity at INFO only:
        # show them, a dropped message is a player's screen that never updates.
        "channels_redis": {"level": _LOG_LEVEL or "INFO"},
        "django": {"level": _LOG_LEVEL or "WARNING"},
    },
}

# How often the in-process timer loop looks for rounds and disputes past their deadline.
BARNGA_TIMER_INTERVAL = env_float("BARNGA_TIMER_INTERVAL", 1.0)
BARNGA_RUN_TIMERS = env_bool("BARNGA_RUN_TIMERS", True)
# How long a bot waits after the last action at its table before it acts.
BARNGA_BOT_DELAY = env_float("BARNGA_BOT_DELAY", 1.0)
# In a dispute, how long a bot waits after the last claim before it may change its
# own: the people at its table have that long to make their case by gestures.
BARNGA_BOT_DISPUTE_DELAY = env_float("BARNGA_BOT_DISPUTE_DELAY", 10.0)
# While a revoke may be called on the last trick (All Fives), how long the bots at a
# table with people wait after the trick before the next card: a call closes at the
# next lead, and a bot leading a second later left no time to call.
BARNGA_BOT_CALL_DELAY = env_float("BARNGA_BOT_CALL_DELAY", 4.0)
# The load test's bare group-echo route (/ws/bench/echo/): never set in production.
BARNGA_BENCH_ECHO = env_bool("BARNGA_BENCH_ECHO", False)
# …each echo first stored in one durable transaction (`loadtest --baseline-store`).
BARNGA_BENCH_ECHO_STORE = env_bool("BARNGA_BENCH_ECHO_STORE", False)
# BARNGA_DB_THREADS (above): threads that run the player sockets' database work in
# each web process; one waiting for a table lock held by another process then holds
# up only itself (README, "Running several processes").

# Static files straight from the app folders: no collectstatic step before serving.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
TRUST_PROXY = env_bool("TRUST_PROXY", False)
# Proxies in front that append to X-Forwarded-For: 1 for the compose proxy alone, 2
# with a TLS terminator in front of it (else every phone is the terminator's address,
# and one guesser's limits fall on every class).
PROXY_HOPS = env_int("PROXY_HOPS", 1)
if PROXY_HOPS < 1:
    raise SettingError(f"PROXY_HOPS must be at least 1, not {PROXY_HOPS}")

# Joining: attempts per address and per workshop in one minute. A classroom's or a
# conference venue's phones usually reach us through one NAT address, so the
# per-address limit is sized for a room (issue 10: 200 joins within 10 s), not a
# device; at 20 a class of 30 joining together saw its last 10 refused. Floods are
# still capped per workshop, and code and PIN guessing have limits of their own.
BARNGA_JOIN_LIMIT_PER_ADDRESS = env_int("BARNGA_JOIN_LIMIT_PER_ADDRESS", 300)
BARNGA_JOIN_LIMIT_PER_WORKSHOP = env_int("BARNGA_JOIN_LIMIT_PER_WORKSHOP", 300)
# Websocket messages: largest accepted frame and messages per second per connection.
# Much larger ones never reach a consumer: Daphne closes the socket (1009) past its
# --websocket-max-message-size, 1 MiB by default, before buffering more.
BARNGA_WS_MAX_BYTES = 64 * 1024
BARNGA_WS_RATE = 20
# Guessing: wrong join codes per address, and wrong rejoin PINs per name, in 10 minutes.
BARNGA_JOIN_BAD_CODE_LIMIT = env_int("BARNGA_JOIN_BAD_CODE_LIMIT", 30)
BARNGA_REJOIN_BAD_PIN_LIMIT = env_int("BARNGA_REJOIN_BAD_PIN_LIMIT", 5)
# Facilitator log-in: failed passwords in 10 minutes per user name and per address
# (a facilitator's account opens every workshop's names, sheets and exports).
BARNGA_LOGIN_FAIL_LIMIT = env_int("BARNGA_LOGIN_FAIL_LIMIT", 10)
BARNGA_LOGIN_FAIL_LIMIT_PER_ADDRESS = env_int("BARNGA_LOGIN_FAIL_LIMIT_PER_ADDRESS", 50)
# Students' data: `manage.py purge_workshops` deletes workshops created longer ago.
BARNGA_RETENTION_DAYS = env_int("BARNGA_RETENTION_DAYS", 30)
# How often each web process checks that Redis still holds the channel layer's groups.
BARNGA_LAYER_CHECK_SECONDS = env_float("BARNGA_LAYER_CHECK_SECONDS", 1.0)
# How often each web process compares its sockets' versions with the database's
# (tournament/layerwatch.py: a change whose message was never published). Not much
# less: under a burst a message may take a couple of seconds to reach its sockets.
BARNGA_VERSION_CHECK_SECONDS = env_float("BARNGA_VERSION_CHECK_SECONDS", 5.0)


def gc_threshold(value: str) -> tuple[int, int, int]:
    """'50000,10,10' → (50000, 10, 10): the collector's three thresholds."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or int(parts[0]) == 0:
        raise SettingError(
            f"BARNGA_GC_THRESHOLD must be three whole numbers, the first above 0, "
            f"such as 50000,10,10 (got {value!r})"
        )
    return int(parts[0]), int(parts[1]), int(parts[2])


# The cyclic garbage collector's thresholds in each web process (barnga/asgi.py).
# Python's (700, 10, 10) made a loaded process collect its youngest objects every few
# milliseconds of work and everything every ~10 s, finding almost no garbage.
BARNGA_GC_THRESHOLD = gc_threshold(os.environ.get("BARNGA_GC_THRESHOLD", "50000,10,10"))
