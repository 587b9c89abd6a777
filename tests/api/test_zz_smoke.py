import pytest
from tests.api.writes_helpers import *
from tests.seen import game_token_now
pytestmark = pytest.mark.django_db

def test_smoke(client, game):
    token = director_token(game.match.matchday.competition)
    r = post(client, f"games/{game.pk}/rounds/record/", {"number": 1, "result": "kap", "side": "a", "caller": game.seat_1_id, "version": game_token_now(game_id=game.pk)}, auth=bearer(token))
    print(r.status_code, r.json())
    v = r.json()["version"]
    r = post(client, f"games/{game.pk}/close/", {"version": v}, auth=bearer(token))
    print(r.status_code, r.json())
    r = post(client, f"games/{game.pk}/close/", {"version": "zzz"}, auth=bearer(token))
    print(r.status_code, r.json())
    r = post(client, f"games/{game.pk}/reopen/", {"version": "zzz"}, auth=bearer(token), language="nl")
    print(r.status_code, r.json())
    r = post(client, f"games/{game.pk}/rounds/record/", {"number": 2, "result": "kap", "side": "a", "tricks_a": 7, "version": "x"}, auth=bearer(token), key=None)
    print(r.status_code, r.json())
    link = link_of(game)
    r = post(client, f"games/{game.pk}/rounds/record/", {"number": 2, "result": "kap", "side": "a", "tricks_a": 7, "version": "x"}, auth=table(link))
    print(r.status_code, r.json())
    r = post(client, f"games/{game.pk}/rounds/record/", {"number": 2, "result": "kap", "side": "a", "tricks_a": 7, "tricks_b": 0, "version": "x"}, auth=None)
    print(r.status_code, r.json())
    r = post(client, f"games/99999999999999999999/close/", {"version": "x"}, auth=bearer(token))
    print(r.status_code, r.json())
    r = post(client, f"games/{game.pk}/rounds/record/", {"number": 2, "result": "kap", "tricks_a": 7, "version": "x"}, auth=bearer(token))
    print(r.status_code, r.json())
