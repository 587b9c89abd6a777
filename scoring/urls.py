"""The pages of play: public (a competition, its matchdays, matches and games, the hall
display, downloads) and the director's (schedule, matchday, match, score sheet, board,
queue, history, printed sheets), under /c/<slug>/; a table's own page under /t/<token>/.
"""

from django.urls import path, re_path

from scoring.views import (
    board,
    competition_manage,
    divisions,
    history,
    home,
    match_manage,
    matchday_manage,
    offline,
    paper,
    playoffs,
    public,
    sheet,
    sheet_game,
    sheet_queue,
    table,
    table_director,
    withdrawals_manage,
)

GAME = "c/<slug:slug>/game/<int:game_id>/"
SHEET = GAME + "sheet/"

urlpatterns = [
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
    # Play-offs (issue 22): the director's seeding and the public bracket of a stage.
    path("divisions/<path:season>/", divisions.season_divisions_page, name="season_divisions"),
    path("c/<slug:slug>/playoffs/", playoffs.playoff_manage, name="playoff_manage"),
    path("c/<slug:slug>/bracket/", playoffs.playoff_bracket_page, name="playoff_bracket"),
    path("c/<slug:slug>/bracket.pdf", playoffs.playoff_bracket_pdf, name="playoff_bracket_pdf"),
    # The hall's big screen (public) and the director's live board of a matchday.
    path("c/<slug:slug>/display/", board.hall_display, name="hall_display"),
    path("c/<slug:slug>/matchday/<int:number>/board/", board.matchday_board, name="matchday_board"),
    path(
        "c/<slug:slug>/match/<int:match_id>/totals/", match_manage.match_totals, name="match_totals"
    ),
    path(GAME, public.game_detail, name="game_detail"),
    # The director's score sheet and its writes.
    path(SHEET, sheet.game_sheet, name="game_sheet"),
    path(SHEET + "round/<int:round_id>/edit/", sheet.round_edit, name="round_edit"),
    path(SHEET + "round/<int:round_id>/delete/", sheet.round_delete, name="round_delete"),
    path(SHEET + "undo/", sheet.round_undo, name="round_undo"),
    # The sheet's offline queue: one queued round a request, answered in JSON.
    path(SHEET + "round/", sheet_queue.sheet_round_send, name="sheet_round_send"),
    path(SHEET + "totals/", sheet_game.game_totals, name="game_totals"),
    path(SHEET + "close/", sheet_game.game_close, name="game_close"),
    path(SHEET + "reopen/", sheet_game.game_reopen, name="game_reopen"),
    path(SHEET + "confirm/", sheet_game.game_confirm, name="game_confirm"),
    # Scoring at the table: the game's link for the director, the table's own page (no
    # account, the link's token), the director's queue of disputes and unconfirmed results.
    path(GAME + "link/", table_director.game_link, name="game_link"),
    path("t/<str:token>/", table.table_sheet, name="table_sheet"),
    # The phone's queue of rounds (static/js/table.js), answered in JSON.
    path("t/<str:token>/round/", table.table_round_send, name="table_round_send"),
    # The table page as an app that works offline: its manifest, and the service worker
    # (at the root: its scope covers the table pages and the score sheets).
    path("t/<str:token>/manifest.webmanifest", offline.table_manifest, name="table_manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("c/<slug:slug>/queue/", table_director.director_queue, name="director_queue"),
    path(SHEET + "seats/", sheet_game.game_seats, name="game_seats"),
    # Where a director lands after logging in: their competitions and tonight's matchday.
    path("director/", home.director_home, name="director_home"),
    # The director's schedule, matchday and match pages.
    path("c/<slug:slug>/manage/", competition_manage.competition_manage, name="competition_manage"),
    # Withdrawals of entries and the check-in of an evening (issue 22).
    path(
        "c/<slug:slug>/withdrawals/",
        withdrawals_manage.withdrawals_manage,
        name="withdrawals_manage",
    ),
    path(
        "c/<slug:slug>/matchday/<int:number>/checkin/",
        withdrawals_manage.checkin_manage,
        name="checkin_manage",
    ),
    path(
        "c/<slug:slug>/matchday/<int:number>/manage/",
        matchday_manage.matchday_manage,
        name="matchday_manage",
    ),
    path(
        "c/<slug:slug>/match/<int:match_id>/manage/", match_manage.match_manage, name="match_manage"
    ),
    # The directors' audit history of a game and of a match.
    path(GAME + "history/", history.game_history, name="game_history"),
    path(
        "c/<slug:slug>/match/<int:match_id>/history/", history.match_history, name="match_history"
    ),
]
