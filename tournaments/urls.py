"""Public pages (no login) and the director's pages of one competition, under /c/<slug>/."""

from django.urls import path

from scoring import history_views as history
from scoring import views as director
from tournaments import director_views as manage
from tournaments import views as public

GAME = "c/<slug:slug>/game/<int:game_id>/"
SHEET = GAME + "sheet/"

urlpatterns = [
    path("", public.competition_list, name="competition_list"),
    path("c/<slug:slug>/", public.competition_detail, name="competition_detail"),
    path("c/<slug:slug>/matchday/<int:number>/", public.matchday_detail, name="matchday_detail"),
    path(
        "c/<slug:slug>/matchday/<int:number>/print/", public.matchday_print, name="matchday_print"
    ),
    path("c/<slug:slug>/match/<int:match_id>/", public.match_detail, name="match_detail"),
    path("c/<slug:slug>/match/<int:match_id>/totals/", director.match_totals, name="match_totals"),
    path(GAME, public.game_detail, name="game_detail"),
    # The director's score sheet and its writes.
    path(SHEET, director.game_sheet, name="game_sheet"),
    path(SHEET + "round/<int:round_id>/edit/", director.round_edit, name="round_edit"),
    path(SHEET + "round/<int:round_id>/delete/", director.round_delete, name="round_delete"),
    path(SHEET + "undo/", director.round_undo, name="round_undo"),
    path(SHEET + "totals/", director.game_totals, name="game_totals"),
    path(SHEET + "close/", director.game_close, name="game_close"),
    path(SHEET + "reopen/", director.game_reopen, name="game_reopen"),
    path(SHEET + "confirm/", director.game_confirm, name="game_confirm"),
    # The director's schedule, matchday and match pages.
    path("c/<slug:slug>/manage/", manage.competition_manage, name="competition_manage"),
    path(
        "c/<slug:slug>/matchday/<int:number>/manage/",
        manage.matchday_manage,
        name="matchday_manage",
    ),
    path("c/<slug:slug>/match/<int:match_id>/manage/", manage.match_manage, name="match_manage"),
    # The directors' audit history of a game and of a match.
    path(GAME + "history/", history.game_history, name="game_history"),
    path(
        "c/<slug:slug>/match/<int:match_id>/history/", history.match_history, name="match_history"
    ),
]
