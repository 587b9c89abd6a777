# troefclub: gunicorn + whitenoise. Configure with DATABASE_URL, CELERY_BROKER_URL,
# SECRET_KEY, ALLOWED_HOSTS (see README.md). The same image runs the Celery workers, one a
# queue (README "Workers and queues"), and exactly one beat (README "Standings"):
#   docker run ... troefclub celery -A troefclub worker -Q standings -n standings@%h -l info
#   docker run ... troefclub celery -A troefclub worker -Q ratings -n ratings@%h --concurrency 1 -l info
#   docker run ... troefclub celery -A troefclub beat -l info --schedule /tmp/celerybeat-schedule
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000

RUN useradd --create-home --uid 10001 troefclub
WORKDIR /app

COPY pyproject.toml README.md manage.py ./
COPY troefclub/ troefclub/
COPY tournaments/ tournaments/
COPY scoring/ scoring/
RUN pip install --no-cache-dir .

COPY templates/ templates/
COPY static/ static/
COPY data/ data/
COPY locale/ locale/
# The key only lets the settings load for these steps; it is not in the final environment.
RUN SECRET_KEY=build-only python manage.py compile_translations \
    && SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && chown -R troefclub:troefclub /app

USER 10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, socket; socket.create_connection(('127.0.0.1', int(os.environ['PORT'])), 4)"]
# gunicorn binds 0.0.0.0:$PORT and runs $WEB_CONCURRENCY workers when those are set.
CMD ["gunicorn", "troefclub.wsgi", "--access-logfile", "-", "--logger-class", "troefclub.gunicorn_logging.TokenHidingLogger"]
