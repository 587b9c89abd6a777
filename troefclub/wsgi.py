"""WSGI entry point (gunicorn troefclub.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")

application = get_wsgi_application()
