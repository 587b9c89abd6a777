"""/api/v1/: the schema, its docs page, and each area's endpoints (`api/views/`).

Each module of `api/views/` lists its own `urlpatterns`; they are joined here under v1.
A later, incompatible version would be a `v2/` beside it, v1 kept while clients move.
"""

from typing import Any

from django.http import HttpRequest
from django.urls import include, path
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView

from api.views import (
    docs,
    entities,
    feeds,
    games,
    tables,
    writes_games,
    writes_matches,
    writes_rounds,
)

app_name = "api"


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema, always in English: a program's contract, whose titles and
    descriptions do not change with the reader's Accept-Language (the answers' messages
    do). Rendered inside the override: its texts are lazy until then."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        with translation.override("en"):
            response = super().dispatch(request, *args, **kwargs)
            return response.render()


v1 = [
    path("schema/", SchemaView.as_view(), name="schema"),
    # The writes first: their fixed words (`matchdays/pair/`) would otherwise be taken for
    # a read's key (the reads take any segment and answer 404 for an unknown one).
    *writes_rounds.urlpatterns,
    *writes_games.urlpatterns,
    *writes_matches.urlpatterns,
    *docs.urlpatterns,
    *entities.urlpatterns,
    *games.urlpatterns,
    *tables.urlpatterns,
    *feeds.urlpatterns,
]

urlpatterns = [
    path("v1/", include(v1)),
]
