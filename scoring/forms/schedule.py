"""The forms of the director's competition and matchday pages: a schedule, a Swiss pairing,
a matchday, a deduction, and the edits of one pairing (entries typed by name or key).
"""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.forms.seen import SEEN_MISSING, require_seen, seen_field
from tournaments.models import Competition, Deduction, Entry, Match, Matchday
from troefclub.text import fold
from troefclub.validators import validate_single_line_text

#
# These forms check the shape of the input (numbers in range, entries of this competition);
# whether a pairing or a lineup is allowed is the services' call, and their refusals come
# back as form errors through `rule_message`. A form that adds or changes what the page
# showed carries it hidden, required: the matchday `number` it adds, or a `seen` token
# (`scoring.tokens`), so a double click or a stale tab never adds or overwrites twice.

MAX_TABLE = 32767  # the database's small integer: an open of 1,000 koppels has 500 tables

MAX_MATCHDAY = 32767  # the database's small integer


MATCHDAY_NUMBER_MISSING = _(
    "This form does not say which matchday it adds (it was not sent from the schedule "
    "page): reload the page and try again."
)


def _matchday_number() -> forms.IntegerField:
    """The matchday a form adds, hidden: sent twice, the second finds it made already."""
    return forms.IntegerField(
        min_value=1, max_value=MAX_MATCHDAY, required=False, widget=forms.HiddenInput
    )


def _start_time(help_text: Any = "") -> forms.TimeField:
    """A matchday's optional start time, in the competition's time zone (`Matchday.time`)."""
    return forms.TimeField(
        label=_("Start time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=help_text or _("Optional: when play starts (needs the date)."),
    )


def _entry_choices(competition: Competition) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        queryset=Entry.objects.filter(competition=competition).select_related(
            "team__player_1", "team__player_2", "club"
        ),
        label=_("Entry"),
    )


class RoundRobinForm(forms.Form):
    """Generate the whole season's round robin: optional first date and the gap between."""

    start = forms.DateField(
        label=_("First matchday"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Optional: the date of matchday 1."),
    )
    days_between = forms.IntegerField(
        label=_("Days between matchdays"), min_value=1, max_value=366, initial=7
    )
    time = _start_time(_("Optional: when play starts each matchday (needs the first date)."))


class MatchdayAddForm(forms.Form):
    """Add the next matchday (`number`, hidden), empty, to fill with matches by hand."""

    number = _matchday_number()
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    time = _start_time()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self, "number", MATCHDAY_NUMBER_MISSING)
        return data


class SwissPairForm(forms.Form):
    """Pair the next Swiss matchday (`number`, hidden); a reason lets it go ahead before the
    last one finished."""

    number = _matchday_number()
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    time = _start_time()
    override_reason = forms.CharField(
        label=_("Pair anyway, because"),
        required=False,
        max_length=500,
        help_text=_("Stored with the matchday and shown on its page."),
        validators=[validate_single_line_text],
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self, "number", MATCHDAY_NUMBER_MISSING)
        return data


class DeductionForm(forms.Form):
    """Take competition points from an entry, with the reason shown under the standings.

    `seen` is the `deductions_token` of the list the page showed (`deduction_add`).
    """

    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Entry"))
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=1000)
    reason = forms.CharField(
        label=_("Reason"), max_length=200, validators=[validate_single_line_text]
    )
    seen = seen_field()

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"] = _entry_choices(competition)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class DeductionVoidForm(forms.Form):
    """Void one deduction of this competition, saying why (it is never deleted).

    An empty reason is left to `deduction_void` (`void_reason_required`): one place says it.
    """

    deduction = forms.ModelChoiceField(queryset=Deduction.objects.none(), widget=forms.HiddenInput)
    void_reason = forms.CharField(
        label=_("Why void it"),
        max_length=Deduction._meta.get_field("void_reason").max_length,
        required=False,
        validators=[validate_single_line_text],
    )

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["deduction"])
        # Voided ones too: voiding twice gets the service's "voided already", not "unknown".
        field.queryset = Deduction.objects.filter(competition=competition)


# A competition of at most this many entries lists them in selects, simplest for a club
# evening; a bigger one (a 1,000-koppel tournament) would send thousands of <option>s in
# every form, so its forms take an entry typed by name or key, with suggestions from one
# shared <datalist> (`ENTRY_LIST_ID`, `entry_suggestions`), and a match by its table
# (issue 7).
ENTRY_SELECT_MAX = 40

ENTRY_LIST_ID = "entry-list"

# The key closing a suggestion: "A. Jansen & B. Smit (t17)".
SUGGESTION_KEY = re.compile(r"\(([^()]+)\)\s*$")


def entry_suggestions(competition: Competition) -> list[str]:
    """What the entry inputs of a big competition suggest, one text per entry, by name:
    "<name> (<key>)", the name as `str(entry)` shows it. One query, no model instances."""
    rows = (
        Entry.objects.filter(competition=competition)
        .values_list(
            "team__key",
            "team__name",
            "team__player_1__name",
            "team__player_2__name",
            "club__key",
            "club__name",
        )
        .order_by("pk")
    )
    texts = []
    for team_key, team_name, player_1, player_2, club_key, club_name in rows:
        if team_key is not None:
            name = team_name or f"{player_1} & {player_2}"
            texts.append(f"{name} ({team_key})")
        else:
            texts.append(f"{club_name} ({club_key})")
    return sorted(texts, key=str.casefold)


def entry_choices(competition: Competition) -> list[tuple[Any, str]]:
    """The choices of an entry select, "---------" first, then every entry by id with its
    name as `str(entry)` shows it: one query for all the selects of a page, where each
    `ModelChoiceField` would read the entries again."""
    rows = (
        Entry.objects.filter(competition=competition)
        .values_list(
            "pk",
            "team_id",
            "team__name",
            "team__player_1__name",
            "team__player_2__name",
            "club__name",
        )
        .order_by("pk")
    )
    return [("", "---------")] + [
        (pk, (team_name or f"{first} & {second}") if team_id is not None else str(club))
        for pk, team_id, team_name, first, second, club in rows
    ]


def entry_lookup(competition: Competition, text: str) -> list[Entry]:
    """The entries of `competition` that `text` names, as a director types it, best reading
    first: a suggestion "<name> (<key>)" or a key; else a koppel's or club's own name, or
    "<player> & <player>" in either order; else one player's name (every entry that player
    is in). Compared folded (`fold`: any case, accents, runs of spaces). Empty for an empty
    text or no match; more than one when a name or player is in several entries, sorted by
    name. One query over the competition's entries (fine at 1,000), no per-entry queries.
    """
    wanted = fold(text)
    if not wanted:
        return []
    entries = list(
        Entry.objects.filter(competition=competition)
        .select_related("team__player_1", "team__player_2", "club")
        .order_by("pk")
    )
    keys = [wanted]
    if found := SUGGESTION_KEY.search(text):
        keys.insert(0, fold(found.group(1)))
    for key in keys:
        by_key = [entry for entry in entries if fold(entry.key) == key]
        if by_key:
            return by_key[:1]
    first, separator, second = (part.strip() for part in wanted.partition("&"))
    named: list[Entry] = []
    by_player: list[Entry] = []
    for entry in entries:
        if entry.team is None:
            if entry.club is not None and fold(entry.club.name) == wanted:
                named.append(entry)
            continue
        players = sorted((fold(entry.team.player_1.name), fold(entry.team.player_2.name)))
        if fold(entry.team.name) == wanted or (separator and players == sorted((first, second))):
            named.append(entry)
        elif wanted in players:
            by_player.append(entry)
    return sorted(named or by_player, key=lambda entry: fold(str(entry)))


# How many entries a "matches several" message names before "and N more".
AMBIGUOUS_NAMED = 5


class EntryTextField(forms.CharField):
    """An entry of `competition` typed by its name or key (`entry_lookup`), suggested from
    the page's shared datalist; cleans to the `Entry`.

    Refused in words naming what was typed: no such entry, or a name several share.
    """

    def __init__(self, *, competition: Competition, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 250)
        attrs = {
            "list": ENTRY_LIST_ID,
            "autocomplete": "off",
            "autocapitalize": "none",
            "spellcheck": "false",
            "class": "entry-input",
            "placeholder": _("name or key"),
        }
        super().__init__(widget=forms.TextInput(attrs=attrs), **kwargs)
        self.competition = competition

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        return entry_from_text(self.competition, text) if text else None


def entry_from_text(competition: Competition, text: str) -> Entry:
    """The one entry of `competition` that `text` names (`entry_lookup`).

    Raises ValidationError naming the text: `entry_unknown`, `entry_ambiguous`.
    """
    found = entry_lookup(competition, text)
    if not found:
        message = (
            _("There is no koppel “%(text)s” in this competition.")
            if competition.kind == Competition.Kind.PAIRS
            else _("There is no club “%(text)s” in this competition.")
        )
        raise forms.ValidationError(message, code="entry_unknown", params={"text": text})
    if len(found) > 1:
        names = ", ".join(f"{entry} ({entry.key})" for entry in found[:AMBIGUOUS_NAMED])
        rest = len(found) - AMBIGUOUS_NAMED
        if rest > 0:
            names = ngettext("%(names)s and %(rest)d more", "%(names)s and %(rest)d more", rest) % {
                "names": names,
                "rest": rest,
            }
        several = (
            ngettext(
                "“%(text)s” matches %(count)d koppel: %(names)s: pick one from the list.",
                "“%(text)s” matches %(count)d koppels: %(names)s: pick one from the list.",
                len(found),
            )
            if competition.kind == Competition.Kind.PAIRS
            else ngettext(
                "“%(text)s” matches %(count)d club: %(names)s: pick one from the list.",
                "“%(text)s” matches %(count)d clubs: %(names)s: pick one from the list.",
                len(found),
            )
        )
        raise forms.ValidationError(
            several,
            code="entry_ambiguous",
            params={"text": text, "count": len(found), "names": names},
        )
    return found[0]


def _entry_field(
    competition: Competition, label: Any, *, scalable: bool, choices: Any = None
) -> forms.Field:
    """A select of the competition's entries (listing `choices` when given, see
    `entry_choices`), or for a big competition (`scalable`) a text input with the shared
    suggestions."""
    if scalable:
        typed = EntryTextField(competition=competition)
        typed.label = label
        return typed
    select = _entry_choices(competition)
    if choices is not None:
        select.choices = choices  # shown as given; a sent value is still checked in the queryset
    select.label = label
    return select


class SwapForm(forms.Form):
    """Swap two entries' places on a matchday (two matches, or a match and the bye).

    `seen` is the `matchday_token` of the pairings the page showed: a swap sent twice
    would swap back (`matchday_entries_swap`). `scalable`: entries typed, not selected
    (`ENTRY_SELECT_MAX`); `choices`: the selects' options read once for the page
    (`entry_choices`).
    """

    entry_a = forms.ModelChoiceField(queryset=Entry.objects.none())
    entry_b = forms.ModelChoiceField(queryset=Entry.objects.none())
    seen = seen_field()

    def __init__(
        self,
        *args: Any,
        competition: Competition,
        scalable: bool = False,
        choices: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for name, label in (("entry_a", _("Swap")), ("entry_b", _("with"))):
            self.fields[name] = _entry_field(competition, label, scalable=scalable, choices=choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class TableMoveForm(forms.Form):
    """Move a match to another table of its matchday (a match already there swaps).

    `scalable`: the match is typed (`MatchTextField`: its table, or a koppel playing in
    it) instead of selected from every match of the matchday.
    """

    match = forms.ModelChoiceField(queryset=Match.objects.none(), label=_("Match"))
    table = forms.IntegerField(label=_("to table"), min_value=1, max_value=MAX_TABLE)

    def __init__(
        self, *args: Any, matchday: Matchday, scalable: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        matches = Match.objects.filter(matchday=matchday).select_related(
            "home__team__player_1",
            "home__team__player_2",
            "home__club",
            "away__team__player_1",
            "away__team__player_2",
            "away__club",
        )
        if scalable:
            self.fields["match"] = MatchTextField(matchday=matchday, matches=matches)
        else:
            field = cast(forms.ModelChoiceField, self.fields["match"])
            field.queryset = matches


class MatchTextField(forms.CharField):
    """A match of `matchday` typed by its table number or by an entry playing in it
    (`entry_lookup`: the shared suggestions); cleans to the `Match`.

    Refused in words: no match at that table, no such entry, or an entry without a match
    on this matchday.
    """

    def __init__(self, *, matchday: Matchday, matches: Any, **kwargs: Any) -> None:
        attrs: dict[str, Any] = {
            "list": ENTRY_LIST_ID,
            "autocomplete": "off",
            "autocapitalize": "none",
            "spellcheck": "false",
            "class": "match-input",
        }
        pairs = matchday.competition.kind == Competition.Kind.PAIRS
        attrs["placeholder"] = _("table or koppel") if pairs else _("table or club")
        super().__init__(
            label=_("Match"),
            max_length=250,
            widget=forms.TextInput(attrs=attrs),
            help_text=(
                _("Its table number, or a koppel playing in it.")
                if pairs
                else _("Its table number, or a club playing in it.")
            ),
            **kwargs,
        )
        self.matchday = matchday
        self.matches = matches

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        if not text:
            return None
        if text.isascii() and text.isdigit():  # a table number; a koppel's key may be digits too
            number = int(text)  # at most 250 digits (max_length)
            at_table = (
                list(self.matches.filter(table=number).order_by("pk")[:1])
                if number <= MAX_TABLE
                else []
            )
            if at_table:
                return at_table[0]
            if not entry_lookup(self.matchday.competition, text):
                raise forms.ValidationError(
                    _("There is no match at table %(text)s on this matchday."),
                    code="table_empty",
                    params={"text": text},
                )
        entry = entry_from_text(self.matchday.competition, text)
        playing = list(self.matches.filter(Q(home=entry) | Q(away=entry)).order_by("pk")[:1])
        if not playing:
            raise forms.ValidationError(
                _("%(entry)s has no match on this matchday."),
                code="entry_without_match",
                params={"entry": entry},
            )
        return playing[0]


class MatchAddForm(forms.Form):
    """Add a match by hand: home, away and optionally its table. `scalable` and `choices`
    as for `SwapForm`."""

    home = forms.ModelChoiceField(queryset=Entry.objects.none())
    away = forms.ModelChoiceField(queryset=Entry.objects.none())
    table = forms.IntegerField(
        label=_("Table"),
        min_value=1,
        max_value=MAX_TABLE,
        required=False,
        help_text=_("Empty: the first free table."),
    )

    def __init__(
        self,
        *args: Any,
        competition: Competition,
        scalable: bool = False,
        choices: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for name, label in (("home", _("Home")), ("away", _("Away"))):
            self.fields[name] = _entry_field(competition, label, scalable=scalable, choices=choices)


class MatchDeleteForm(forms.Form):
    """Remove a match of this matchday that has no results."""

    match = forms.ModelChoiceField(queryset=Match.objects.none(), widget=forms.HiddenInput)

    def __init__(self, *args: Any, matchday: Matchday, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["match"])
        field.queryset = Match.objects.filter(matchday=matchday)


class MatchdayDeleteForm(forms.Form):
    """Delete the matchday the page showed (its id, hidden): sent twice, the second finds it
    gone, and a matchday made anew under the same number is not deleted unseen."""

    matchday = forms.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self, "matchday", SEEN_MISSING)
        return data
