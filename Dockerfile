# The web image: Daphne serving barnga.asgi (HTTP + websockets), the locked dependencies.
# docker-compose.yml runs two of these behind nginx; see README, "Running several processes".
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/app/.venv \
    UV_LINK_MODE=copy \
    DJANGO_SETTINGS_MODULE=barnga.settings \
    PATH=/app/.venv/bin:$PATH

WORKDIR /app
RUN pip install --no-cache-dir "uv==0.13.9"

# Dependencies first (cached while only the code changes), exactly as locked.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project

COPY . .
RUN useradd --system --uid 10001 --home /app barnga
USER barnga

EXPOSE 8000
# The proxy in front sets X-Forwarded-For/-Proto; Daphne trusts them (--proxy-headers).
# A listen backlog of 1024 (Twisted's default is 50) for a room reconnecting at once.
CMD ["daphne", "--proxy-headers", "-e", "tcp:port=8000:interface=0.0.0.0:backlog=1024", "barnga.asgi:application"]
