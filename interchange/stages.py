"""The optional `playoff` and `division` keys of a `troefclub-competition/1` document
(issue 22): a play-off stage's link to the competition it was seeded from, its seeds and
its bracket; a competition's division in its league's season.

```json
"playoff": {"source": "league-2026", "kind": "knockout", "size": 4, "legs": 1,
            "level_rule": "higher_seed", "lot_reason": "",
            "seeds": [{"entry": "t1", "rank": 1, "placed_by": "points"}, ...],
            "ties": [{"round": 1, "position": 1, "home": "t1", "away": "t4", "winner": "t1"}, ...]},
"division": {"league": "STCB", "name": "Hoofdklasse", "level": 1, "promoted": 1, "relegated": 1}
```

A tie's matches are not named: leg l of a tie of round r is the match of matchday
(r − 1) × legs + l with the tie's home entry at home (leg 2: its away entry), as
`scoring.services.playoffs` makes them. The source competition must be in the database
already (import it first); its entries are found by the seeds' keys.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from interchange.errors import InterchangeError
from interchange.values import _MISSING, _Object
from tournaments.models import Competition, Division, Entry, Match, Playoff, PlayoffSeed, PlayoffTie

PLAYOFF_FIELDS = ("source", "kind", "size", "legs", "level_rule", "lot_reason", "seeds", "ties")
SEED_FIELDS = ("entry", "rank", "placed_by")
TIE_FIELDS = ("round", "position", "home", "away", "winner")
DIVISION_FIELDS = ("league", "name", "level", "promoted", "relegated")


def stages_parse(top: _Object, entries: list[str]) -> dict[str, Any]:
    """The `playoff` and `division` objects of the document, checked (keys of `entries`);
    {} when the document has neither. Raises InterchangeError naming the place."""
    found: dict[str, Any] = {}
    if top.has("playoff"):
        found["playoff"] = _playoff_parse(
            _Object(top.value["playoff"], "playoff", PLAYOFF_FIELDS), entries
        )
    if top.has("division"):
        item = _Object(top.value["division"], "division", DIVISION_FIELDS)
        found["division"] = {
            "league": item.text("league", max_length=80, name=True),
            "name": item.text("name", max_length=80, name=True),
            "level": item.integer("level", minimum=1),
            "promoted": item.integer("promoted", default=1),
            "relegated": item.integer("relegated", default=1),
        }
    return found


def _entry_key(item: _Object, key: str, entries: list[str], *, nullable: bool) -> str | None:
    value = item.text(key, max_length=80, nullable=nullable, default=None if nullable else _MISSING)
    if value is not None and value not in entries:
        raise InterchangeError(
            item.place, _("“%(entry)s” is not one of the entries") % {"entry": value}
        )
    return str(value) if value is not None else None


def _playoff_parse(item: _Object, entries: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {
        "source": item.text("source", max_length=80, slug=True),
        "kind": item.text("kind", max_length=8, default=Playoff.Kind.KNOCKOUT),
        "size": item.integer("size"),
        "legs": item.integer("legs", default=1),
        "level_rule": item.text("level_rule", max_length=16, default=Playoff.LevelRule.HIGHER_SEED),
        "lot_reason": item.text("lot_reason", max_length=2000, default="", blank=True),
    }
    if values["kind"] not in Playoff.Kind.values:
        raise InterchangeError(item.place, _("“kind” must be “knockout” or “deciding”"))
    if values["level_rule"] not in Playoff.LevelRule.values:
        raise InterchangeError(
            item.place, _("“level_rule” must be “higher_seed” or “deciding_game”")
        )
    if values["size"] not in (2, 4, 8) or values["legs"] not in (1, 2):
        raise InterchangeError(
            item.place, _("a knock-out has 2, 4 or 8 entries and 1 or 2 legs a tie")
        )
    seeds = []
    for number, raw in enumerate(item.array("seeds"), start=1):
        seed = _Object(raw, f"{item.place}, seed {number}", SEED_FIELDS)
        seeds.append(
            {
                "entry": _entry_key(seed, "entry", entries, nullable=False),
                "rank": seed.integer("rank", minimum=1),
                "placed_by": seed.text("placed_by", max_length=20, default="", blank=True),
            }
        )
    if len(seeds) != values["size"] or len({s["entry"] for s in seeds}) != len(seeds):
        raise InterchangeError(
            item.place, _("“seeds” must name %(size)s different entries") % values
        )
    ties = []
    for number, raw in enumerate(item.array("ties"), start=1):
        tie = _Object(raw, f"{item.place}, tie {number}", TIE_FIELDS)
        parsed = {
            "round": tie.integer("round", minimum=1, maximum=3),
            "position": tie.integer("position", minimum=1, maximum=4),
            "home": _entry_key(tie, "home", entries, nullable=True),
            "away": _entry_key(tie, "away", entries, nullable=True),
            "winner": _entry_key(tie, "winner", entries, nullable=True),
        }
        if parsed["winner"] is not None and parsed["winner"] not in (
            parsed["home"],
            parsed["away"],
        ):
            raise InterchangeError(tie.place, _("the winner of a tie is one of its two entries"))
        ties.append(parsed)
    values["seeds"], values["ties"] = seeds, ties
    return values


def stages_import(
    found: dict[str, Any], competition: Competition, entries: dict[str, Entry]
) -> None:
    """Write the parsed `playoff` and `division` of the imported `competition`; `entries`
    its entries by key. Raises InterchangeError (a source not in the database, a seed not
    entered there, a division level taken)."""
    if "division" in found:
        values = found["division"]
        if Division.objects.filter(
            league=values["league"], season=competition.season, level=values["level"]
        ).exists():
            raise InterchangeError(
                "division", _("the league has a division at this level this season already")
            )
        Division.objects.create(**values, season=competition.season, competition=competition)
    if "playoff" in found:
        _playoff_import(found["playoff"], competition, entries)


def _playoff_import(
    values: dict[str, Any], competition: Competition, entries: dict[str, Entry]
) -> None:
    source = Competition.objects.filter(slug=values["source"]).first()
    if source is None or source.pk == competition.pk:
        raise InterchangeError(
            "playoff",
            _("the source competition “%(slug)s” is not in the database: import it first")
            % {"slug": values["source"]},
        )
    source_entries = {entry.key: entry for entry in source.entries.select_related("team", "club")}
    playoff = Playoff.objects.create(
        competition=competition,
        source=source,
        **{key: values[key] for key in ("kind", "size", "legs", "level_rule", "lot_reason")},
    )
    for number, seed in enumerate(values["seeds"], start=1):
        if seed["entry"] not in source_entries:
            raise InterchangeError(
                f"playoff, seed {number}",
                _("“%(entry)s” is not an entry of the source competition") % seed,
            )
        PlayoffSeed.objects.create(
            playoff=playoff,
            seed=number,
            entry=entries[seed["entry"]],
            source_entry=source_entries[seed["entry"]],
            source_rank=seed["rank"],
            decided_by=seed["placed_by"],
        )
    matches = {
        (match.matchday.number, match.home_id): match
        for match in Match.objects.filter(matchday__competition=competition).select_related(
            "matchday"
        )
    }
    rounds = playoff.rounds
    for tie in values["ties"]:
        home = entries[tie["home"]] if tie["home"] else None
        away = entries[tie["away"]] if tie["away"] else None
        first = (tie["round"] - 1) * values["legs"] + 1
        PlayoffTie.objects.create(
            playoff=playoff,
            round=tie["round"],
            position=tie["position"],
            home=home,
            away=away,
            winner=entries[tie["winner"]] if tie["winner"] else None,
            leg_1=matches.get((first, home.pk)) if home else None,
            leg_2=matches.get((first + 1, away.pk)) if away and values["legs"] == 2 else None,
            decider=matches.get((rounds * values["legs"] + tie["round"], home.pk))
            if home
            else None,
        )


def stages_export(competition: Competition) -> dict[str, Any]:
    """The competition's `playoff` and `division` keys, when it has them."""
    found: dict[str, Any] = {}
    division = Division.objects.filter(competition=competition).first()
    if division is not None:
        found["division"] = {
            "league": division.league,
            "name": division.name,
            "level": division.level,
            "promoted": division.promoted,
            "relegated": division.relegated,
        }
    playoff = Playoff.objects.filter(competition=competition).select_related("source").first()
    if playoff is not None:
        keys = {entry.pk: entry.key for entry in competition.entries.select_related("team", "club")}

        def key(entry_id: int | None) -> str | None:
            return keys[entry_id] if entry_id else None

        found["playoff"] = {
            "source": playoff.source.slug,
            "kind": playoff.kind,
            "size": playoff.size,
            "legs": playoff.legs,
            "level_rule": playoff.level_rule,
            "lot_reason": playoff.lot_reason,
            "seeds": [
                {
                    "entry": key(seed.entry_id),
                    "rank": seed.source_rank,
                    "placed_by": seed.decided_by,
                }
                for seed in playoff.seeds.all()
            ],
            "ties": [
                {
                    "round": tie.round,
                    "position": tie.position,
                    "home": key(tie.home_id),
                    "away": key(tie.away_id),
                    "winner": key(tie.winner_id),
                }
                for tie in playoff.ties.all()
            ],
        }
    return found


def stages_delete(competition: Competition) -> None:
    """Before a replacing import deletes `competition`: its own stage and division rows go
    (the file brings them again); a competition that seeded play-offs is not replaced.
    Raises InterchangeError."""
    stage = Playoff.objects.filter(source=competition).select_related("competition").first()
    if stage is not None:
        raise InterchangeError(
            "competition",
            _("it seeded “%(stage)s”: its final standings can't be replaced")
            % {"stage": stage.competition.slug},
        )
    PlayoffTie.objects.filter(playoff__competition=competition).delete()
    PlayoffSeed.objects.filter(playoff__competition=competition).delete()
    Playoff.objects.filter(competition=competition).delete()
    Division.objects.filter(competition=competition).delete()
