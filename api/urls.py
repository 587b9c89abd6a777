"""/api/v1/: the schema, its docs page, and each area's endpoints (`api/views/`).

Each module of `api/views/` lists its own `urlpatterns`; they are joined here under v1.
A later, incompatible version would be a `v2/` beside it, v1 kept while clients move.
"""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from api.views import docs, entities

app_name = "api"

v1 = [
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
    *docs.urlpatterns,
    *entities.urlpatterns,
]

urlpatterns = [
    path("v1/", include(v1)),
]
