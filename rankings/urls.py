"""Public pages of players, koppels, clubs, season rankings, ratings and search (issue 10)."""

from django.urls import path

from rankings import profile_views, search_views, season_views

urlpatterns = [
    path("rankings/", season_views.rankings_latest, name="rankings_latest"),
    path("rankings/<path:season>/", season_views.season_rankings, name="season_rankings"),
    path("ratings/", season_views.rating_list, name="rating_list"),
    path("archive/", season_views.archive_page, name="seasons_archive"),
    path("player/<slug:key>/", profile_views.player_detail, name="player_detail"),
    path("koppel/<slug:key>/", profile_views.koppel_detail, name="koppel_detail"),
    path(
        "koppel/<slug:key>/vs/<slug:other>/",
        profile_views.koppel_head_to_head,
        name="koppel_head_to_head",
    ),
    path("club/<slug:key>/", profile_views.club_detail, name="club_detail"),
    path("search/", search_views.search, name="search"),
]
