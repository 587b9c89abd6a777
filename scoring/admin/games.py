"""Admin for games, rounds and standings: the setup is editable, the results are not.

A round's points, a game's score and status and the standings are the rules engine's
output (`scoring.services`). Saving them here would bypass the engine, so they are
read-only, with a link to the director's score sheet where results are entered and
corrected. Game and Round keep their audit trail (`SimpleHistoryAdmin`, "History").
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from scoring.admin.guards import NAMED_ROWS, ResultGuardAdmin, rows_named
from scoring.admin.voids import VOID_FIELDS, VoidAdminMixin
from scoring.models import Game, Round, Standing
from scoring.rules import RuleViolation, pairs_match_games_violations, sitting_koppels_violations
from scoring.selectors.sheet import game_setup_check
from scoring.services.table import game_links_koppels_follow
from scoring.services.voids import game_void
from tournaments.models import Competition, Match, Team
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message


class GameAdminForm(forms.ModelForm):
    """Who plays a game, checked like the importer does (`game_setup_check`).

    `a_is_home` is derived from the koppels, never typed in. Once a game has rounds (or
    totals), its match, koppels and seats stay as they are. A pairs match has one game, and
    a koppel sits at one table in a sitting of a matchday (issue 6).
    """

    class Meta:
        model = Game
        fields = [
            "match",
            "sitting",
            "table",
            "team_a",
            "team_b",
            "seat_1",
            "seat_2",
            "seat_3",
            "seat_4",
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        match, team_a, team_b = (cleaned.get(name) for name in ("match", "team_a", "team_b"))
        if match is None or team_a is None or team_b is None:
            return cleaned  # the field errors say what is missing
        seats = [cleaned.get(f"seat_{n}") for n in (1, 2, 3, 4)]
        game = self.instance if self.instance.pk else None
        try:
            if game is not None and game.by_totals:
                stored = (game.match_id, game.team_a_id, game.team_b_id)
                if stored != (match.pk, team_a.pk, team_b.pk):
                    raise RuleViolation("game_has_rounds_setup")
            self.instance.a_is_home = game_setup_check(
                match=match,
                team_a=team_a,
                team_b=team_b,
                seats=seats,
                game=game,
                table=cleaned.get("table"),
                sitting=cleaned.get("sitting"),
            )
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        for name, refusal in self._place_refusals(match, team_a, team_b, cleaned.get("sitting")):
            self.add_error(name, forms.ValidationError(rule_message(refusal), code=refusal.code))
        return cleaned

    def _place_refusals(
        self, match: Match, team_a: Team, team_b: Team, sitting: int | None
    ) -> list[tuple[str, RuleViolation]]:
        """Per field, why this game can't take its place (issue 6), by the one check of
        who plays where (`scoring.rules.places`): a pairs match has one game
        (`pairs_match_games_violations`), and a koppel plays at one table in a sitting of
        a matchday (`sitting_koppels_violations`). Faults among the stored games alone are
        not this form's. The violations hold the koppels themselves, so the words name
        them."""
        refusals: list[tuple[str, RuleViolation]] = []
        others = Game.objects.exclude(pk=self.instance.pk).select_related(*TEAM_NAME_JOINS)
        if match.matchday.competition.kind == Competition.Kind.PAIRS:
            games = [(game.team_a, game.team_b) for game in others.filter(match=match)]
            games.append((team_a, team_b))
            home, away = match.home.team, match.away.team
            for violation in pairs_match_games_violations(home, away, games):
                if violation.code == "pairs_match_one_game":
                    refusals.append(("match", violation))
        if sitting is not None:
            day = others.filter(match__matchday=match.matchday_id).order_by("pk")
            seated = [(game.sitting, game.team_a, game.team_b) for game in day]
            seated.append((sitting, team_a, team_b))
            for violation in sitting_koppels_violations(seated):
                if (
                    violation.code == "koppel_twice_in_sitting"
                    and violation.params["index"] == len(seated) - 1
                ):
                    name = "team_a" if violation.params["koppel"] == team_a else "team_b"
                    refusals.append((name, violation))
        return refusals


# A game's koppels and their players, to name them in messages.
TEAM_NAME_JOINS = ["team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"]


RESULTS_READ_ONLY = _(
    "Scores, status and rounds are computed by the rules engine from what the director "
    "entered. They are read-only here: enter and correct results on the score sheet."
)

DERIVED_GAME_FIELDS = [
    "status",
    "score_a",
    "score_b",
    "kaps_a",
    "kaps_b",
    "baunies_a",
    "baunies_b",
    "total_a",
    "total_b",
    "confirmed_at",
    "confirmed_by",
]


def score_sheet_link(game: Game) -> str:
    if game.pk is None:
        return "—"
    url = reverse(
        "game_sheet",
        kwargs={"slug": game.match.matchday.competition.slug, "game_id": game.pk},
    )
    return format_html('<a href="{}">{}</a>', url, _("open the score sheet"))


def rounds_link(game: Game) -> str:
    """How many rounds `game` has, linked to the (paginated) round list of the game: the
    game's page lists none inline, so a game with hundreds of rounds still loads."""
    if game.pk is None:
        return "—"
    count = game.rounds.count()
    url = reverse("admin:scoring_round_changelist") + "?" + urlencode({"game__id__exact": game.pk})
    text = ngettext("%(count)d round", "%(count)d rounds", count) % {"count": count}
    return format_html('<a href="{}">{}</a>', url, text)


# The match itself is removed (with its empty game, `match_delete`) on the director's
# matchday page: its game's PROTECT keeps the admin from deleting a match with a game.
PAIRS_GAME_KEPT = ngettext_lazy(
    "Nothing was deleted: %(rows)s is the game of a pairs match, and a pairs match has "
    "exactly one game. To take the pairing off the schedule, delete the match instead "
    "(✕ on the director's matchday page).",
    "Nothing was deleted: %(rows)s are the games of pairs matches, and a pairs match has "
    "exactly one game. To take the pairings off the schedule, delete the matches instead "
    "(✕ on the director's matchday page).",
    "count",
)


@admin.register(Game)
class GameAdmin(VoidAdminMixin, AdminInputMixin, ResultGuardAdmin, SimpleHistoryAdmin):
    """Games: who plays where. Once a game holds a result (rounds, totals, or over) its
    place, koppels and seats are fixed and it can't be deleted; every save or delete
    refreshes its competition's table (a game added or gone changes whether its match is
    complete). The game of a pairs match is never deleted here (`PAIRS_GAME_KEPT`): the
    match would be left without its one game; it goes with its match (`match_delete`,
    on the director's matchday page). Rounds are not
    listed inline (a game may hold up to `MAX_ROUNDS_PER_GAME`): `rounds` links to them."""

    form = GameAdminForm
    competition_lookup = "match__matchday__competition_id"

    actions = ["void_selected"]

    def void_row(self, row: Any, reason: str, user: Any) -> Any:
        # Voided with a reason (`game_void`, issue 22): the action and the row's void page.
        return game_void(game_id=row.pk, reason=reason, by=user)

    # Every field the form edits: a game's place, koppels and seats are its result's frame.
    locked_fields = GameAdminForm.Meta.fields
    locked_message = _(
        "Nothing was deleted: %(rows)s have results. Results are undone on the score sheet first."
    )
    list_display = [
        "__str__",
        "competition",
        "match",
        "sitting",
        "table",
        "status",
        "score_a",
        "score_b",
    ]
    list_filter = [
        "status",
        "match__matchday__competition",
        ("voided_at", admin.EmptyFieldListFilter),
    ]
    list_select_related = [
        "match__matchday__competition",
        "match__home__team__player_1",
        "match__home__team__player_2",
        "match__home__club",
        "match__away__team__player_1",
        "match__away__team__player_2",
        "match__away__club",
        "team_a__player_1",
        "team_a__player_2",
        "team_b__player_1",
        "team_b__player_2",
    ]
    search_fields = [
        "team_a__key",
        "team_a__name",
        "team_b__key",
        "team_b__name",
        "team_a__player_1__name",
        "team_a__player_2__name",
        "team_b__player_1__name",
        "team_b__player_2__name",
    ]
    autocomplete_fields = ["match", "team_a", "team_b", "seat_1", "seat_2", "seat_3", "seat_4"]
    readonly_fields = [*DERIVED_GAME_FIELDS, "a_is_home", "score_sheet", "rounds", *VOID_FIELDS]

    fieldsets = [
        (None, {"fields": ["match", "sitting", "table", "team_a", "team_b", "a_is_home"]}),
        (
            _("Seats (clockwise; seats 1 and 3 are koppel A)"),
            {"fields": ["seat_1", "seat_2", "seat_3", "seat_4"]},
        ),
        (
            _("Result (read-only)"),
            {
                "description": RESULTS_READ_ONLY,
                "fields": [
                    "score_sheet",
                    "rounds",
                    "status",
                    ("score_a", "score_b"),
                    ("kaps_a", "kaps_b"),
                    ("baunies_a", "baunies_b"),
                    ("total_a", "total_b"),
                    ("confirmed_at", "confirmed_by"),
                ],
            },
        ),
        (
            _("Void (read-only)"),
            {
                "description": _(
                    "A voided game counts nowhere; its match's total counts the other games."
                ),
                "fields": VOID_FIELDS,
            },
        ),
    ]

    @admin.display(description=_("competition"), ordering="match__matchday__competition__name")
    def competition(self, game: Game) -> object:
        return game.match.matchday.competition

    @admin.display(description=_("score sheet"))
    def score_sheet(self, game: Game) -> str:
        return score_sheet_link(game)

    @admin.display(description=_("rounds (read-only: correct them on the score sheet)"))
    def rounds(self, game: Game) -> str:
        return rounds_link(game)

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        before = (
            Game.objects.filter(pk=obj.pk).values_list("team_a_id", "team_b_id").first()
            if change
            else None
        )
        super().save_model(request, obj, form, change)
        if before is not None:  # a koppel that left takes its table link with it
            game_links_koppels_follow(game_id=obj.pk, koppels_before=before)

    def get_queryset(self, request: HttpRequest) -> Any:
        # All of `list_select_related`: the change list skips it once the queryset has a
        # select_related of its own (issue 7: 6 queries a row, 594 for a page of games).
        return super().get_queryset(request).select_related(*self.list_select_related)

    # ------------------------------------------------------------ a pairs match's game stays

    @staticmethod
    def pairs_games(rows: QuerySet[Game]) -> QuerySet[Game]:
        """The games of `rows` that are the one game of a pairs match."""
        return rows.filter(match__matchday__competition__kind=Competition.Kind.PAIRS)

    def delete_refusal(self, rows: QuerySet[Any]) -> str | None:
        # Not through `has_delete_permission`: deleting the match must still take its game
        # (Django asks every related row's admin before a cascade).
        refusal = super().delete_refusal(rows)  # a result is the first reason to keep a game
        if refusal is not None:
            return refusal
        pairs = self.pairs_games(rows)
        named = list(pairs[: NAMED_ROWS + 1])
        if not named:
            return None
        count = len(named) if len(named) <= NAMED_ROWS else pairs.count()
        return str(PAIRS_GAME_KEPT % {"rows": rows_named(named), "count": count})

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if self.pairs_games(_game_rows(object_id)).exists():
            extra_context = {**(extra_context or {}), "show_delete": False}
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        rows = _game_rows(object_id)
        # A game holding a result is refused by `has_delete_permission` (403), as elsewhere.
        if self.pairs_games(rows).exists() and not self.locked_rows(rows).exists():
            refusal = self.delete_refusal(rows)
            self.message_user(request, refusal or "", messages.ERROR)
            return HttpResponseRedirect(reverse("admin:scoring_game_change", args=[rows.get().pk]))
        return super().delete_view(request, object_id, extra_context)


def _game_rows(object_id: str) -> QuerySet[Game]:
    """The game of an admin URL's id, as rows (none when the id is not a number: Django
    then says it does not exist)."""
    try:
        return Game.objects.filter(pk=int(unquote(object_id)))
    except ValueError:
        return Game.objects.none()


@admin.register(Round)
class RoundAdmin(AdminInputMixin, SimpleHistoryAdmin):
    """Rounds to look up and audit (History); entered and corrected on the score sheet."""

    list_display = [
        "game",
        "number",
        "result",
        "side",
        "caller",
        "tricks_a",
        "tricks_b",
        "points_a",
        "points_b",
        "recorded_at",
        "recorded_by",
    ]
    list_filter = ["result", "game__match__matchday__competition"]
    list_select_related = [
        "game__team_a__player_1",
        "game__team_a__player_2",
        "game__team_b__player_1",
        "game__team_b__player_2",
        "caller",
        "recorded_by",
    ]
    search_fields = ["game__team_a__key", "game__team_b__key", "caller__name"]
    date_hierarchy = "recorded_at"
    readonly_fields = ["score_sheet"]

    @admin.display(description=_("score sheet"))
    def score_sheet(self, rnd: Round) -> str:
        return score_sheet_link(rnd.game)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(AdminInputMixin, admin.ModelAdmin):
    """Computed rows (`standings_refresh`): to look at, never to edit. `byes` and `deducted`
    are already counted in `points`; `head_to_head` shows the mini-table points when
    head-to-head separated the entry from others tied with it."""

    list_display = [
        "competition",
        "rank",
        "entry",
        "played",
        "won",
        "drawn",
        "lost",
        "points",
        "points_for",
        "points_against",
        "saldo",
        "kaps",
        "baunies",
        "byes",
        "deducted",
        "head_to_head",
        "computed_at",
    ]
    list_display_links = ["entry"]
    list_filter = ["competition"]
    list_select_related = [
        "competition",
        "entry__team__player_1",
        "entry__team__player_2",
        "entry__club",
    ]
    search_fields = ["entry__team__key", "entry__team__name", "entry__club__name"]
    ordering = ["competition", "rank"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
