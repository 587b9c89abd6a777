"""Public pages (no login) and the director's pages of one competition, under /c/<slug>/."""

from django.urls import path, re_path

from scoring import history_views as history
from scoring import table_views as table
from scoring import views as director
from tournaments import board_views as board
from tournaments import director_views as manage
from tournaments import export_views as paper
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
    # Paper and downloads: PDF score sheets (directors: they hold the table links' QR
    # codes) and the pairing sheet; standings and results as CSV or Excel.
    path(GAME + "sheet.pdf", paper.game_sheet_pdf, name="game_sheet_pdf"),
    path(
        "c/<slug:slug>/matchday/<int:number>/sheets.pdf",
        paper.matchday_sheets_pdf,
        name="matchday_sheets_pdf",
    ),
    path(
        "c/<slug:slug>/matchday/<int:number>/pairings.pdf",
        paper.matchday_pairings_pdf,
        name="matchday_pairings_pdf",
    ),
    re_path(
        r"^c/(?P<slug>[-a-zA-Z0-9_]+)/standings\.(?P<fmt>csv|xlsx)/$",
        paper.standings_export,
        name="standings_export",
    ),
    re_path(
        r"^c/(?P<slug>[-a-zA-Z0-9_]+)/results\.(?P<fmt>csv|xlsx)/$",
        paper.results_export,
        name="results_export",
    ),
    path("c/<slug:slug>/match/<int:match_id>/", public.match_detail, name="match_detail"),
    # The hall's big screen (public) and the director's live board of a matchday.
    path("c/<slug:slug>/display/", board.hall_display, name="hall_display"),
    path("c/<slug:slug>/matchday/<int:number>/board/", board.matchday_board, name="matchday_board"),
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
    # Scoring at the table: the game's link for the director, the table's own page (no
    # account, the link's token), the director's queue of disputes and unconfirmed results.
    path(GAME + "link/", table.game_link, name="game_link"),
    path("t/<str:token>/", table.table_sheet, name="table_sheet"),
    path("c/<slug:slug>/queue/", table.director_queue, name="director_queue"),
    path(SHEET + "seats/", director.game_seats, name="game_seats"),
    # Where a director lands after logging in: their competitions and tonight's matchday.
    path("director/", director.director_home, name="director_home"),
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
