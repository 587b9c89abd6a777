"""troefclub: score keeping for Troefcall clubs, leagues and tournaments."""

from troefclub.celery import app as celery_app

__all__ = ("celery_app",)
