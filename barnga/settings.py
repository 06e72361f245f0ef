"""Project settings, read from the environment.

Embedded default (nothing set): SQLite file + the in-memory channel layer, one
process. Production: set DATABASE_URL (PostgreSQL) and REDIS_URL (channel layer
shared between web processes), SECRET_KEY, DEBUG=0 and ALLOWED_HOSTS.
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# Without SECRET_KEY a fixed development key is used, which is only fit for a
# laptop; PRODUCTION=1 refuses to start without a real one.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if env_bool("PRODUCTION", False):
        raise RuntimeError("SECRET_KEY must be set when PRODUCTION=1")
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
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "barnga.urls"

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

ASGI_APPLICATION = "barnga.asgi.application"
WSGI_APPLICATION = None

# Database: SQLite file unless DATABASE_URL is set. A positive CONN_MAX_AGE with
# health checks: reconnecting on every action costs most of PostgreSQL's throughput.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
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

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                # The default capacity (100) silently drops group messages under load.
                "capacity": int(os.environ.get("CHANNEL_CAPACITY", "5000")),
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
if not DEBUG and env_bool("HTTPS", False):
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"tournament": {"level": os.environ.get("LOG_LEVEL", "INFO")}},
}

# How often the in-process timer loop looks for rounds and disputes past their deadline.
BARNGA_TIMER_INTERVAL = float(os.environ.get("BARNGA_TIMER_INTERVAL", "1.0"))
BARNGA_RUN_TIMERS = env_bool("BARNGA_RUN_TIMERS", True)
# How long a bot waits after the last action at its table before it acts.
BARNGA_BOT_DELAY = float(os.environ.get("BARNGA_BOT_DELAY", "1.0"))

# Static files straight from the app folders: no collectstatic step before serving.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
TRUST_PROXY = env_bool("TRUST_PROXY", False)

# Joining: attempts per address and per workshop in one minute.
BARNGA_JOIN_LIMIT_PER_ADDRESS = int(os.environ.get("BARNGA_JOIN_LIMIT_PER_ADDRESS", "20"))
BARNGA_JOIN_LIMIT_PER_WORKSHOP = int(os.environ.get("BARNGA_JOIN_LIMIT_PER_WORKSHOP", "300"))
# Websocket messages: largest accepted frame and messages per second per connection.
BARNGA_WS_MAX_BYTES = 64 * 1024
BARNGA_WS_RATE = 20
