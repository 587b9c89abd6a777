from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Results")

    def ready(self) -> None:
        # Makes the standings' refresh queue, which writes of the registry (deductions,
        # entries) ask for by name (`troefclub.refresh.refresh_on_commit`).
        from scoring.services import refresh  # noqa: F401
