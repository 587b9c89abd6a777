"""Changing a competition's rules re-scores its games, or is refused naming the game."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site

from scoring.admin.competitions import CompetitionAdminForm
from scoring.models import Game, Standing
from scoring.rules import RuleSet, RuleViolation
from scoring.selectors.sheet import competition_games_replay
from scoring.services.games import competition_games_rescore, game_totals_enter
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.standings import standings_rebuild
from tests.builders import record
from tests.factories import GameFactory, UserFactory
from tests.patching import patch_everywhere
from tests.seen import game_token_now
from tournaments.models import Competition


def admin_form(competition: Competition, **changes: object) -> CompetitionAdminForm:
    data: dict[str, object] = {
        field: getattr(competition, field)
        for field in CompetitionAdminForm.Meta.fields
        if field != "directors"
    }
    data = {key: ("" if value is None else value) for key, value in data.items()}
    data["tiebreaks"] = '["points", "saldo"]'
    data.update(changes)
    return CompetitionAdminForm(data=data, instance=competition)


def test_a_higher_target_reopens_finished_games(game):
    for _ in range(4):
        record(game, result="kap", side="a")
    competition = game.match.matchday.competition
    Competition.objects.filter(pk=competition.pk).update(target_score=25)

    assert competition_games_rescore(competition_id=competition.pk) == 1
    game.refresh_from_db()
    assert (game.score_a, game.status) == (20, Game.Status.OPEN)


def test_a_new_bonus_changes_the_points_of_recorded_rounds(game):
    caller_b = game.seats[1]
    record(
        game,
        result="kap",
        side="a",
        caller_id=caller_b,
    )
    competition = game.match.matchday.competition
    Competition.objects.filter(pk=competition.pk).update(stinkende_kap_bonus=3)

    competition_games_rescore(competition_id=competition.pk)
    assert list(game.rounds.values_list("points_a", flat=True)) == [8]


def test_rules_that_break_a_recorded_round_name_the_game_and_round(game):
    record(game, result="gewone_winst", side="a")
    record(game, result="kap_partner", side="a")
    competition = game.match.matchday.competition

    with pytest.raises(RuleViolation) as caught:
        competition_games_replay(competition=competition, rules=RuleSet(kap_partner_allowed=False))
    assert caught.value.code == "kap_partner_not_allowed"
    assert (caught.value.params["game"], caught.value.params["round"]) == (game.pk, 2)


def test_totals_games_are_checked_against_the_new_target(game):
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=14)
    with pytest.raises(RuleViolation) as caught:
        competition_games_replay(
            competition=game.match.matchday.competition, rules=RuleSet(target_score=10)
        )
    # 20–14 under a target of 10: both would have reached it, impossible.
    assert caught.value.code == "totals_both_reached_target"


def test_admin_form_refuses_rules_that_break_a_played_game(game):
    record(game, result="kap_partner", side="a")
    form = admin_form(game.match.matchday.competition, kap_partner_allowed=False)

    assert not form.is_valid()
    message = " ".join(str(error) for error in form.non_field_errors())
    assert "Matchday" in message and "kap called by the partner" in message


def test_admin_form_refuses_a_rule_set_that_cannot_end_a_game(game):
    form = admin_form(
        game.match.matchday.competition,
        target_score="",
        fixed_rounds="",
        close_by_director_allowed=False,
    )
    assert not form.is_valid()
    message = " ".join(str(error) for error in form.non_field_errors())
    assert "check “target score”" in message and "target_score" not in message  # issue 18


def test_admin_save_rescores_and_queues_a_standings_refresh(game, rf, monkeypatch):
    for _ in range(4):
        record(game, result="kap", side="a")
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)
    form = admin_form(competition, target_score=30)
    assert form.is_valid(), form.errors

    request = rf.post("/admin/")
    request.user = UserFactory.create(is_staff=True, is_superuser=True)
    model_admin = site._registry[Competition]
    # On the instance for this test only: the registered admin is shared with every test.
    monkeypatch.setattr(model_admin, "message_user", lambda *args, **kwargs: None)
    queued: list[int] = []
    assert patch_everywhere(monkeypatch, standings_refresh_on_commit, queued.append)
    model_admin.save_model(request, form.save(commit=False), form, change=True)
    # Owed by the re-scoring (a game changed) and by the bye that followed the target: one
    # refresh after the commit (a transaction's writes share it).
    assert set(queued) == {competition.pk}

    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    standings_rebuild(competition_id=competition.pk)
    assert set(Standing.objects.values_list("played", flat=True)) == {0}


def test_rescore_leaves_other_competitions_alone(game):
    other = GameFactory.create()
    record(other, result="baunie", side="b")
    competition_games_rescore(competition_id=game.match.matchday.competition_id)
    other.refresh_from_db()
    assert other.score_b == 15


def test_admin_form_refuses_a_kind_change_while_entries_exist(game):
    competition = game.match.matchday.competition
    form = admin_form(competition, kind="clubs")
    assert not form.is_valid()
    assert "kind" in form.errors
