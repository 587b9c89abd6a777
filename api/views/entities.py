"""Public reads of clubs, players, koppels, competitions and seasons (no login)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max
from django.urls import path
from rest_framework import generics

from api.conditional import ConditionalMixin, Stamp
from api.serializers.entities import ClubSerializer
from tournaments.models import Club


class ClubList(ConditionalMixin, generics.ListAPIView):
    """The clubs, oldest first (cursor-paged). Filter: `name` (contains, any case)."""

    serializer_class = ClubSerializer
    filterset_fields = {"name": ["icontains"]}

    def get_queryset(self) -> Any:
        return Club.objects.order_by("id")

    def stamp(self) -> Stamp:
        # TODO(issue 21, entities): a rename must change the stamp too.
        seen = Club.objects.aggregate(count=Count("id"), newest=Max("id"))
        return Stamp(version=f"clubs:{seen['count']}:{seen['newest']}")


class ClubDetail(ConditionalMixin, generics.RetrieveAPIView):
    """One club by its `key`."""

    serializer_class = ClubSerializer
    lookup_field = "key"
    queryset = Club.objects.all()

    def stamp(self) -> Stamp:
        # TODO(issue 21, entities): a rename must change the stamp too.
        name = Club.objects.filter(key=self.kwargs["key"]).values_list("name", flat=True).first()
        return Stamp(version=f"club:{name}")


urlpatterns = [
    path("clubs/", ClubList.as_view(), name="club-list"),
    path("clubs/<slug:key>/", ClubDetail.as_view(), name="club-detail"),
]
