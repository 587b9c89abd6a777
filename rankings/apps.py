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
        from rankings.season_names import season_names_connect
        from rankings.season_refresh import SEASON_RANKINGS, competition_season
        from rankings.services import RATINGS
        from scoring.services.refresh import STANDINGS

        STANDINGS.follow(RATINGS)
        # And the season rankings of the competition's season (issue 20).
        STANDINGS.follow(SEASON_RANKINGS, key=competition_season)
        # A rename moves the names the stored season rankings show.
        season_names_connect()
