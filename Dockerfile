# troefclub: one image for every process type of the Procfile (compose.yaml runs it as web,
# standings, ratings, beat and the one-shot migrate; README "Run it for a league"). Settings
# come from the environment (.env.example lists them); the image holds no .env and no key.
#
#   docker build -t troefclub .
#   docker run --env-file .env -p 8000:8000 troefclub                      # web (gunicorn)
#   docker run --env-file .env troefclub python manage.py migrate_locked  # once per upgrade
#   docker run --env-file .env troefclub celery -A troefclub worker -Q standings -n standings@%h -l info

# ---------------------------------------------------------------- builder
# The dependencies from requirements.lock, every file checked against its hash, into
# /opt/venv; then the app's compiled translations and collected static files. Nothing of
# this stage but /opt/venv and /app reaches the image.
FROM python:3.11-slim AS builder

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/opt/venv/bin:$PATH

RUN python -m venv /opt/venv
COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes -r /tmp/requirements.lock

WORKDIR /app
# Every app of pyproject.toml's packages (tests/deploy/test_dockerfile.py keeps this list
# whole) and what they read at run time.
COPY manage.py pyproject.toml ./
COPY troefclub/ troefclub/
COPY tournaments/ tournaments/
COPY scoring/ scoring/
COPY rankings/ rankings/
COPY interchange/ interchange/
COPY api/ api/
COPY templates/ templates/
COPY static/ static/
COPY locale/ locale/
COPY data/ data/
# The key only lets the settings load for these two steps; it is not in the image's
# environment. The bytecode is compiled here, once, so that the read-only code needs none.
RUN SECRET_KEY=build-only python manage.py compile_translations \
    && SECRET_KEY=build-only python manage.py collectstatic --noinput --verbosity 0 \
    && python -m compileall -q troefclub tournaments scoring rankings interchange api

# ---------------------------------------------------------------- image
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    PATH=/opt/venv/bin:$PATH \
    PORT=8000

# The code belongs to root and is read-only for the app's user; only /app itself is its
# (celery beat keeps its schedule file in the working directory).
RUN useradd --create-home --uid 10001 troefclub
COPY --from=builder /opt/venv /opt/venv
COPY --from=builder /app /app
RUN chown troefclub:troefclub /app
WORKDIR /app

USER 10001
EXPOSE 8000
# The process is up (GET /healthz: no database); compose.yaml asks the web service for
# /readyz instead, and gives each worker a check of its own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]
# gunicorn's settings module binds HOST:PORT with WEB_CONCURRENCY workers (the Procfile's web).
CMD ["gunicorn", "--config", "python:troefclub.gunicorn_conf", "troefclub.wsgi"]
