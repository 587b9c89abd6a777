"""/api/v1/: the schema, its docs page, and each area's endpoints (`api/views/`).

Each module of `api/views/` lists its own `urlpatterns`; they are joined here under v1.
A later, incompatible version would be a `v2/` beside it, v1 kept while clients move.
"""

from django.urls import include, path
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

v1 = [
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
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
