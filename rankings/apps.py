from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self) -> None:
        # What moves the standings can move the player ratings (issue 10): every write that
        # queues a standings refresh queues the ratings' one after it. Said here, by the
        # app that follows, so that scoring needn't know the rankings.
        from rankings.services import RATINGS
        from scoring.services.refresh import STANDINGS

        STANDINGS.follow(RATINGS)
