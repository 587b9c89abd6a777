from django.apps import AppConfig


class InterchangeConfig(AppConfig):
    """The competition file, in and out: `manage.py import_competition` and
    `export_competition` (docs/interchange.md)."""

    name = "interchange"
    verbose_name = "Interchange"
