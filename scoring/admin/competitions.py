"""The admin of competitions: set-up by choosing (formats, rule options, tie-breaks in
order), every rule change tried on the games recorded so far, and the games re-scored
when it is saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy

from scoring.admin.entries import EntryInline
from scoring.admin.guards import ResultGuardAdmin
from scoring.models import Game
from scoring.rules import (
    METRICS,
    TIEBREAK_KEYS,
    RuleSet,
    RuleViolation,
    check_tiebreaks,
    round_amounts,
)
from scoring.selectors.sheet import competition_games_replay
from scoring.services.confirmations import games_accept_all
from scoring.services.games import competition_games_rescore
from scoring.services.refresh import standings_refresh_on_commit
from scoring.tables import TIEBREAK_LABELS
from tournaments.models import Competition
from troefclub.admin_input import AdminInputMixin, OrderedChoicesField
from troefclub.rule_messages import rule_message


class CompetitionAdminForm(forms.ModelForm):
    """The admin's competition form; rules and tie-breaks are checked by the rules engine.

    A change of rule options is tried on every game already recorded: if one of them
    breaks the new rules (a kap by partner where it is now forbidden, a game that would
    have ended earlier), the form names that game and round and nothing is saved.
    """

    class Meta:
        model = Competition
        fields = [  # every field: the admin's fieldsets pick and order them
            "slug",
            "name",
            "season",
            "kind",
            "time_zone",
            *Competition.RULE_FIELDS,
            "trump_open_card",
            "points_win",
            "points_draw",
            "points_loss",
            "tiebreaks",
            "schedule_format",
            "bye_result",
            "bye_score_for",
            "bye_score_against",
            "koppels_per_side",
            "min_koppels",
            "sittings",
            "late_koppel_until_sitting",
            "squads_required",
            "ineligible_deduction",
            "forfeit_score_for",
            "forfeit_score_against",
            "confirmation_required",
            "withdrawal_fixtures",
            "withdrawal_played",
            "directors",
        ]
        help_texts = {
            "tiebreaks": format_lazy(
                _('A list, applied in order, e.g. ["points", "saldo"]. Known keys: {keys}.'),
                keys=", ".join(TIEBREAK_KEYS),
            ),
        }

    def clean_tiebreaks(self) -> Any:
        tiebreaks = self.cleaned_data.get("tiebreaks") or []
        if not isinstance(tiebreaks, list) or not all(isinstance(key, str) for key in tiebreaks):
            raise forms.ValidationError(
                _('Give the tie-breaks as a list of names, e.g. ["points", "saldo"].'),
                code="tiebreaks_not_a_list",
            )
        try:
            check_tiebreaks(tiebreaks)
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return tiebreaks

    def clean_kind(self) -> Any:
        kind = self.cleaned_data.get("kind")
        instance = self.instance
        if instance.pk is not None and kind != instance.kind and instance.entries.exists():
            # Entries are koppels in a pairs competition and clubs in a club competition.
            raise forms.ValidationError(
                _("The kind can't change while the competition has entries (%(entries)s)."),
                code="kind_has_entries",
                params={"entries": instance.get_kind_display()},
            )
        return kind

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self._check_club_match_shape(cleaned)
        if any(name in self.errors for name in Competition.RULE_FIELDS):
            return cleaned
        candidate = Competition(**{name: cleaned.get(name) for name in Competition.RULE_FIELDS})
        try:
            rules = candidate.rule_set
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        if self.instance.pk is None:
            return cleaned
        try:
            competition_games_replay(competition=self.instance, rules=rules)
        except RuleViolation as exc:
            game = Game.objects.select_related("match__matchday").get(pk=exc.params["game"])
            raise forms.ValidationError(
                _(
                    "These rules don't fit a game already played (%(matchday)s, %(game)s): "
                    "%(problem)s"
                ),
                code=exc.code,
                params={
                    "matchday": game.match.matchday,
                    "game": game,
                    "problem": rule_message(exc),
                },
            ) from None
        return cleaned

    def _check_club_match_shape(self, cleaned: dict[str, Any]) -> None:
        """Club matches: 1–6 koppels a side, a minimum and sittings within that number, and
        the last sitting a koppel may join between 1 and the sittings."""
        koppels = cleaned.get("koppels_per_side")
        if koppels is None:
            return
        if not 1 <= koppels <= 6:
            self.add_error("koppels_per_side", _("A side fields 1 to 6 koppels."))
            return
        for name in ("min_koppels", "sittings"):
            value = cleaned.get(name)
            if value is not None and not 1 <= value <= koppels:
                self.add_error(
                    name,
                    _("Between 1 and the koppels a side (%(koppels)s).") % {"koppels": koppels},
                )
        sittings, until = cleaned.get("sittings"), cleaned.get("late_koppel_until_sitting")
        if until is not None and sittings is not None and not 1 <= until <= sittings:
            self.add_error(
                "late_koppel_until_sitting",
                _("Between 1 and the sittings (%(sittings)s).") % {"sittings": sittings},
            )


RESULTS_READ_ONLY = _(
    "Results are checked by the rules engine, so they are entered and corrected on the "
    "director's pages (score sheet, match page), not here."
)

SCHEDULE_READ_ONLY = _(
    "Tables, forfeits and pairing reasons change results and the games at each table, so "
    "they are set on the director's match page (a forfeit needs its reason), not here."
)

# Competition fields that change the standings but not the games: a change queues a refresh.
STANDINGS_FIELDS = (
    "bye_result",
    "bye_score_for",
    "bye_score_against",
    "forfeit_score_for",
    "forfeit_score_against",
    "squads_required",
    "ineligible_deduction",
    "confirmation_required",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
)


TIEBREAK_CHOICES = [(key, TIEBREAK_LABELS[key]) for key in TIEBREAK_KEYS]

TIEBREAKS_HELP = _(
    "Entries level on competition points are ranked by these, in this order, each only "
    "among those still level on all before it; higher is better. Competition points always "
    "count first unless you place them yourself. Leave the rest empty."
)


def _tiebreaks_help() -> SafeString:
    """The tie-breaks' help: what they do, then what each compares, after its name, for the
    director who picks them (`METRICS`; DESIGN.md "Interchange format" says the same in
    full). A list, as HTML: the admin shows help texts unescaped, so every text is escaped
    here."""
    items = format_html_join(
        "",
        "<li>{}: {}</li>",
        ((TIEBREAK_LABELS[metric.key], _(metric.explanation)) for metric in METRICS),
    )
    return format_html('{}<ul class="tiebreak-help">{}</ul>', TIEBREAKS_HELP, items)


# Built when shown, in the language of the request.
tiebreaks_help = lazy(_tiebreaks_help, SafeString)


# The fields a bye's worth depends on: a change of one checks the bye again.
BYE_FIELDS = (
    "kind",
    "bye_score_for",
    "bye_score_against",
    "koppels_per_side",
    "sittings",
    *Competition.RULE_FIELDS,
)

BYE_SCORE_TOO_HIGH = _(
    "At most %(limit)s: a bye can't give more game points than a side can score in one "
    "match under these rules (%(games)s × %(per_game)s)."
)


def match_points_limit(rules: RuleSet, *, games: int) -> tuple[int, int] | None:
    """The most game points one side can score in a match of `games` games under `rules`,
    and in one game, as `(match, game)`; None when nothing bounds a game (it ends only
    when the director closes it).

    A game stops the moment a side reaches the target, so a side ends at most one round
    past it: the target less 1, then the biggest round (a baunie, with its stinkende
    bonus). With a fixed number of rounds, at most that many biggest rounds."""
    biggest = max(round_amounts(rules))
    bounds = []
    if rules.target_score is not None:
        bounds.append(rules.target_score - 1 + biggest)
    if rules.fixed_rounds is not None:
        bounds.append(rules.fixed_rounds * biggest)
    if not bounds:
        return None
    return min(bounds) * games, min(bounds)


class CompetitionSetupForm(CompetitionAdminForm):
    """The admin's competition form (`CompetitionAdminForm`), set up by choosing, not typing.

    - The tie-breaks are picked from a list, place by place (`OrderedChoicesField`); they
      are stored as before, a list of keys (DESIGN.md, read by the importer and exporter).
    - The bye's game points for follow the target score unless the director set them
      otherwise: when the target changes and the bye still gave the old target (or its
      default), the bye gives the new one (static/js/admin_setup.js does the same on the
      page, so the director sees it before saving).
    - A bye gives no more game points than a side can score in a match
      (`match_points_limit`); checked when the bye or what bounds it changes, so a
      competition imported with more can still be saved unchanged.
    """

    # Declared for its initial value: a field with a callable default would carry a
    # hidden "initial-" copy, and a page posted back without it would count as changed.
    time_zone = forms.CharField(
        label=capfirst(Competition._meta.get_field("time_zone").verbose_name),
        max_length=64,
        initial=Competition._meta.get_field("time_zone").get_default,
        help_text=Competition._meta.get_field("time_zone").help_text,
    )
    tiebreaks = OrderedChoicesField(
        label=capfirst(Competition._meta.get_field("tiebreaks").verbose_name),
        # A new competition starts with the model's tie-breaks (docs/interchange.md's).
        initial=Competition._meta.get_field("tiebreaks").get_default,
        choices=TIEBREAK_CHOICES,
        help_text=tiebreaks_help(),
        error_messages={
            "unknown": _("“%(value)s” is not a known tie-break: choose one from the list."),
            "twice": _(
                "“%(choice)s” is chosen twice (places %(first)s and %(second)s): each "
                "tie-break counts once, choose it once."
            ),
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bye = self.fields.get("bye_score_for")
        if bye is not None and "target_score" in self.fields:
            # static/js/admin_setup.js: the bye follows the target while it still equals it.
            bye.widget.attrs["data-follows"] = self["target_score"].auto_id
            bye.widget.attrs["data-default"] = Competition._meta.get_field(
                "bye_score_for"
            ).get_default()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if any(name in self.errors for name in BYE_FIELDS):
            return cleaned
        self._bye_follows_target(cleaned)
        if self.instance.pk is None or any(name in self.changed_data for name in BYE_FIELDS):
            self._check_bye_score(cleaned)
        return cleaned

    def _bye_follows_target(self, cleaned: dict[str, Any]) -> None:
        """What admin_setup.js does on the page, for a browser without JavaScript."""
        if "bye_score_for" not in self.fields or "bye_score_for" in self.changed_data:
            return  # set by the director (or by the script, to the new target already)
        target = cleaned.get("target_score")
        if "target_score" not in self.changed_data or target is None:
            return
        before = self["bye_score_for"].initial
        default = Competition._meta.get_field("bye_score_for").get_default()
        if before in (self["target_score"].initial, default) and before != target:
            cleaned["bye_score_for"] = target
            self.changed_data.append("bye_score_for")  # the history and the refresh see it

    def _check_bye_score(self, cleaned: dict[str, Any]) -> None:
        """A bye gives no more than a side can score in a match; in a pairs competition
        (one game a match) not both sides the target either."""
        if "bye_score_for" not in self.fields:
            return
        candidate = Competition(**{name: cleaned.get(name) for name in Competition.RULE_FIELDS})
        rules = candidate.rule_set  # valid: `CompetitionAdminForm.clean` checked it
        pairs = cleaned.get("kind") != Competition.Kind.CLUBS
        games = 1 if pairs else cleaned["koppels_per_side"] * cleaned["sittings"]
        limits = match_points_limit(rules, games=games)
        if limits is None:
            return
        limit, per_game = limits
        for name in ("bye_score_for", "bye_score_against"):
            if cleaned[name] > limit:
                self.add_error(
                    name,
                    forms.ValidationError(
                        BYE_SCORE_TOO_HIGH,
                        code="bye_score_too_high",
                        params={"limit": limit, "games": games, "per_game": per_game},
                    ),
                )
        target = rules.target_score
        if (
            pairs
            and target is not None
            and min(cleaned.get("bye_score_for", 0), cleaned.get("bye_score_against", 0)) >= target
        ):
            exc = RuleViolation("totals_both_reached_target", target=target)
            self.add_error(
                "bye_score_against", forms.ValidationError(rule_message(exc), code=exc.code)
            )


@admin.register(Competition)
class CompetitionAdmin(AdminInputMixin, ResultGuardAdmin):
    """Competitions; one with a played matchday can't be deleted. A change of its rules
    re-scores its games, of its standings settings or entries refreshes the table."""

    form = CompetitionSetupForm
    competition_lookup = "pk"
    refreshes_standings = False  # `save_model` and `save_formset` say when
    locked_message = ngettext_lazy(
        "Nothing was deleted: %(rows)s has played matchdays. A competition with results stays.",
        "Nothing was deleted: %(rows)s have played matchdays. A competition with results stays.",
        "count",
    )
    list_display = [
        "name",
        "season",
        "kind",
        "schedule_format",
        "target_score",
        "fixed_rounds",
        "entry_count",
        "public_page",
    ]
    list_filter = [
        "kind",
        "schedule_format",
        "season",
        "callers_required",
        "close_by_director_allowed",
    ]
    search_fields = ["name", "slug", "season"]
    prepopulated_fields = {"slug": ["name", "season"]}
    filter_horizontal = ["directors"]
    inlines = [EntryInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "season", "kind", "time_zone"]}),
        (
            _("Game rules"),
            {
                "description": _(
                    "How a game is scored and when it ends. A change is tried on every game "
                    "already played: games that break it are named and nothing is saved; "
                    "otherwise all games are re-scored and the standings rebuilt."
                ),
                "fields": [
                    "target_score",
                    "fixed_rounds",
                    "kap_partner_allowed",
                    "early_kap_penalty",
                    "redeal_allowed",
                    "callers_required",
                    "close_by_director_allowed",
                    "trump_open_card",
                ],
            },
        ),
        (
            _("Stinkende bonus"),
            {
                "description": _(
                    "Extra points when the koppel that did not call makes a kap or a baunie. "
                    "0 and 0 = off; on, every round needs its caller."
                ),
                "fields": ["stinkende_kap_bonus", "stinkende_baunie_bonus"],
            },
        ),
        (
            _("Standings"),
            {"fields": ["points_win", "points_draw", "points_loss", "tiebreaks"]},
        ),
        (
            _("Schedule and byes"),
            {
                "description": _(
                    "How the matchdays are made, and what a bye (no opponent) is worth."
                ),
                "fields": ["schedule_format", "bye_result", "bye_score_for", "bye_score_against"],
            },
        ),
        (
            _("Club matches"),
            {
                "description": _("For club competitions: the koppels of a side and squads."),
                "fields": [
                    "koppels_per_side",
                    "min_koppels",
                    "sittings",
                    "late_koppel_until_sitting",
                    "squads_required",
                    "ineligible_deduction",
                ],
            },
        ),
        (
            _("Results"),
            {
                "description": _(
                    "Game points of a forfeited match, and whether results wait for confirmation "
                    "before they count. A change rebuilds the standings."
                ),
                "fields": ["forfeit_score_for", "forfeit_score_against", "confirmation_required"],
            },
        ),
        (
            _("Withdrawals"),
            {
                "description": _(
                    "What a withdrawal does to the entry's matches (applied when it is "
                    "recorded): the matches not played yet, and the results it has."
                ),
                "fields": ["withdrawal_fixtures", "withdrawal_played"],
            },
        ),
        (
            _("Directors"),
            {
                "description": _(
                    "Directors enter and correct this competition's results. Only league "
                    "admins holding “Can assign the directors of a competition” change them."
                ),
                "fields": ["directors"],
            },
        ),
    ]

    class Media:
        js = ["js/admin_setup.js"]  # the bye follows the target (CSP: no inline scripts)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return super().get_queryset(request).annotate(entry_count=Count("entries"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """`directors` is read-only without `tournaments.assign_directors`: changing a
        competition's rules must not let a staff user make themselves its director. `slug`
        is read-only once the competition has matchdays (`slug_fixed`): every link to it
        would break.

        A read-only field is left out of the admin form (`ModelAdmin.get_form`), so a POST
        that names directors anyway is ignored, on add and on change alike; the history
        revert of simple-history builds its form the same way.
        """
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.has_perm("tournaments.assign_directors"):
            readonly.append("directors")
        if self.slug_fixed(obj):
            readonly.append("slug")
        return readonly

    def slug_fixed(self, obj: Competition | None) -> bool:
        """Whether `obj`'s slug can't change any more: it has matchdays, so its pages, score
        sheets and exports are linked and printed under it."""
        return obj is not None and obj.pk is not None and obj.matchdays.exists()

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, Any]:
        # A read-only slug is not on the form: prepopulating it would fail.
        fields = dict(super().get_prepopulated_fields(request, obj))
        if self.slug_fixed(obj):
            fields.pop("slug", None)
        return fields

    def save_model(self, request: HttpRequest, obj: Competition, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and any(name in form.changed_data for name in Competition.RULE_FIELDS):
            # The form already tried the new rules on every game; this stores the new points.
            changed = competition_games_rescore(competition_id=obj.pk)
            self.message_user(
                request,
                ngettext(
                    "Rules changed: %(count)d game re-scored.",
                    "Rules changed: %(count)d games re-scored.",
                    changed,
                )
                % {"count": changed},
            )
        if change and any(name in form.changed_data for name in STANDINGS_FIELDS):
            # Also beside a rule change: the re-scoring refreshes only when a game changed.
            standings_refresh_on_commit(obj.pk)
        if change and obj.confirmation_required and "confirmation_required" in form.changed_data:
            # Switched on mid-season: the games played so far were accepted as they were
            # (nobody asked for a confirmation then); they stay in the standings, confirmed
            # by this user, instead of all waiting in the queue. Disputed ones stay open.
            accepted = games_accept_all(competition_id=obj.pk, user=request.user)
            if accepted:
                self.message_user(
                    request,
                    ngettext(
                        "Confirmation switched on: the %(count)d game finished so far counts "
                        "as confirmed.",
                        "Confirmation switched on: the %(count)d games finished so far count "
                        "as confirmed.",
                        len(accepted),
                    )
                    % {"count": len(accepted)},
                )

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        # An entry added or removed is a row more or less in the table.
        if formset.new_objects or formset.changed_objects or formset.deleted_objects:
            standings_refresh_on_commit(form.instance.pk)

    @admin.display(description=_("entries"), ordering="entry_count")
    def entry_count(self, competition: Competition) -> int:
        return competition.entry_count  # type: ignore[attr-defined]

    @admin.display(description=_("public page"))
    def public_page(self, competition: Competition) -> str:
        url = reverse("competition_detail", kwargs={"slug": competition.slug})
        return format_html('<a href="{}">{}</a>', url, _("view"))
