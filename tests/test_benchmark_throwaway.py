"""Benchmarks never touch production (issue 19, item 5): `benchmarks/throwaway.py` and the
load benchmark's checks, run against real PostgreSQL and a private Redis, without running a
benchmark.

The database tests need PostgreSQL, the broker tests `redis-server` (a private one on a
free port: an empty database to plant "production" keys in); locally they skip without
them, with CI=true they fail.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from celery import Celery
from django.db import connection

from benchmarks import load, load_settings, throwaway
from benchmarks.throwaway import KEY_PREFIX, QUEUE_PREFIX, REFUSED
from tests.scoring.test_worker import ROOT, PrivateRedis, _database_url, _wait_for
from tests.scoring.test_worker import private_redis as private_redis  # the fixture

# A task that production queued, as kombu stores it in Redis.
PRODUCTION_MESSAGE = '{"headers": {"task": "scoring.tasks.standings_refresh"}, "body": "e30="}'


def _refused(capsys: pytest.CaptureFixture[str], call: object) -> str:
    """Run `call`; it must refuse (exit status 2). Returns what it said on stderr."""
    assert callable(call)
    with pytest.raises(SystemExit) as exit_info:
        call()
    assert exit_info.value.code == REFUSED
    return capsys.readouterr().err


# ---------------------------------------------------------------- the database


@pytest.fixture
def server_url(db: None) -> str:
    """A URL of the test database's PostgreSQL server (the test database's own name)."""
    return _database_url()


@pytest.fixture
def foreign_database(server_url: str) -> Iterator[tuple[str, str]]:
    """A database named as the load benchmark's would be next to a production-looking
    DATABASE_URL, made by someone else (no mark) and holding a table with a row: that URL
    and the database's name. Dropped at the end."""
    production = urlsplit(server_url)._replace(path=f"/{connection.settings_dict['NAME']}_prod")
    production_url = urlunsplit(production)
    _url, name = throwaway.database_beside(production_url, "load")
    with throwaway._maintenance(server_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(urlunsplit(production._replace(path=f"/{name}"))) as real:
        real.execute("CREATE TABLE results (points integer)")
        real.execute("INSERT INTO results VALUES (20)")
    try:
        yield production_url, name
    finally:
        with throwaway._maintenance(server_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _rows(server_url: str, name: str) -> list[tuple[int]]:
    url = urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT points FROM results").fetchall()


def test_load_works_beside_database_url_never_in_it():
    url, name = throwaway.database_beside("postgres://u:p@db.example:5433/troefclub?x=1", "load")
    assert (url, name) == (
        "postgres://u:p@db.example:5433/troefclub_load_bench?x=1",
        "troefclub_load_bench",
    )


def test_load_refuses_a_database_of_its_name_that_it_did_not_make(
    foreign_database, server_url, capsys, monkeypatch
):
    production_url, name = foreign_database
    monkeypatch.setattr(load, "broker_check", lambda url: None)  # the broker: tests below
    environ = {"DATABASE_URL": production_url, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/9"}

    said = _refused(capsys, lambda: load.preflight(environ))

    assert f"the database {name!r} exists and no benchmark made it" in said
    assert _refused(capsys, lambda: throwaway.database_ensure(server_url, name, fresh=True))
    assert _refused(capsys, lambda: throwaway.database_drop(server_url, name))
    assert _rows(server_url, name) == [(20,)]  # untouched


def test_a_database_the_benchmark_made_is_marked_reused_and_dropped(server_url):
    name = f"{connection.settings_dict['NAME']}_made_bench"
    throwaway.database_drop(server_url, name)
    try:
        assert throwaway.database_ensure(server_url, name) is True
        assert throwaway.database_state(server_url, name) == "ours"
        assert throwaway.database_ensure(server_url, name) is False  # kept between runs
    finally:
        throwaway.database_drop(server_url, name)
    assert throwaway.database_state(server_url, name) == "missing"


def test_the_other_benchmarks_take_their_own_database_and_no_broker(server_url):
    environ = {"DATABASE_URL": server_url, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}
    name = throwaway.database_beside(server_url, "ratings")[1]
    try:
        assert throwaway.database_own(environ, "ratings") == name
        assert environ["DATABASE_URL"].endswith(f"/{name}")
        assert environ["CELERY_BROKER_URL"] == ""  # eager; and .env can't fill it in
        assert throwaway.database_state(server_url, name) == "ours"
    finally:
        throwaway.database_drop(server_url, name)


def test_on_sqlite_the_benchmarks_take_a_file_of_their_own(tmp_path, monkeypatch):
    monkeypatch.setenv("TROEF_BENCH_CACHE", str(tmp_path / "cache"))
    configured = tmp_path / "db.sqlite3"
    environ = {"DATABASE_URL": f"sqlite:///{configured}"}

    own = throwaway.database_own(environ, "polls")

    assert Path(own).parent == tmp_path / "cache"
    assert Path(own).name.endswith("_polls_bench.sqlite3")
    assert environ["DATABASE_URL"] == f"sqlite:///{own}"


def test_load_needs_postgresql_and_a_broker(capsys):
    said = _refused(capsys, lambda: load.preflight({"DATABASE_URL": "sqlite:///db.sqlite3"}))
    assert "PostgreSQL" in said
    said = _refused(capsys, lambda: load.preflight({"DATABASE_URL": "postgres://h/troefclub"}))
    assert "CELERY_BROKER_URL" in said


def test_every_benchmark_that_sets_django_up_picks_its_own_database_first():
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        setup = re.search(r"^\s*django\.setup\(\)", path.read_text(encoding="utf-8"), re.M)
        if setup is None:
            continue
        before = setup.string[: setup.start()]
        assert re.search(r"database_own\(|preflight\(|broker_dropped\(", before), path.name


# ---------------------------------------------------------------- the broker


def _plant(server: PrivateRedis) -> redis.Redis:
    """Production's keys in the broker database: queued tasks, kombu's bookkeeping, a key
    of another program."""
    client = redis.Redis.from_url(server.url)
    client.lpush("standings", PRODUCTION_MESSAGE)
    client.lpush("celery", PRODUCTION_MESSAGE)
    client.hset("unacked", "tag-1", PRODUCTION_MESSAGE)
    client.sadd("_kombu.binding.standings", "standings\x06\x16\x06\x16standings")
    client.set("sentinel", "keep me")
    return client


def _keys(client: redis.Redis) -> set[bytes]:
    """Every key of the broker database (redis-py answers bytes)."""
    return {key if isinstance(key, bytes) else key.encode() for key in client.scan_iter()}


def _production_intact(client: redis.Redis) -> None:
    assert client.lrange("standings", 0, -1) == [PRODUCTION_MESSAGE.encode()]
    assert client.lrange("celery", 0, -1) == [PRODUCTION_MESSAGE.encode()]
    assert client.hgetall("unacked") == {b"tag-1": PRODUCTION_MESSAGE.encode()}
    assert client.smembers("_kombu.binding.standings")
    assert client.get("sentinel") == b"keep me"


def test_load_refuses_a_broker_database_holding_production_keys(private_redis, capsys):
    client = _plant(private_redis)
    environ = {"DATABASE_URL": "postgres://h/troefclub", "CELERY_BROKER_URL": private_redis.url}

    said = _refused(capsys, lambda: load.preflight(environ))

    assert "holds 5 key(s) the benchmark didn't make" in said
    assert "'standings'" in said and "'sentinel'" in said
    assert f"redis://127.0.0.1:{private_redis.port}/1" in said  # what to use instead
    _production_intact(client)


def test_the_benchmark_deletes_its_own_keys_and_nothing_else(private_redis):
    client = _plant(private_redis)
    client.lpush(KEY_PREFIX + "bench-standings", "left by a run cut short")
    client.hset(KEY_PREFIX + "unacked", "tag-2", "left by a run cut short")
    client.set("troefclub-benchmark", "a name alike, not the prefix")

    assert throwaway.broker_clear(private_redis.url) == 2

    assert not client.exists(KEY_PREFIX + "bench-standings", KEY_PREFIX + "unacked")
    _production_intact(client)
    assert client.get("troefclub-benchmark") == b"a name alike, not the prefix"
    assert throwaway.broker_clear(private_redis.url) == 0


def test_the_benchmark_routes_every_task_to_its_own_queues():
    app = Celery(set_as_current=False)
    app.config_from_object(load_settings, namespace="CELERY")
    for task in load_settings.CELERY_TASK_ROUTES:
        queue = app.amqp.router.route({}, task)["queue"]
        assert queue.name.startswith(QUEUE_PREFIX), task
        assert (queue.exchange.name, queue.routing_key) == (queue.name, queue.name)
    assert app.conf.broker_transport_options["global_keyprefix"] == KEY_PREFIX
    assert app.conf.task_default_queue.startswith(QUEUE_PREFIX)
    assert not app.conf.beat_schedule


@pytest.mark.parametrize("one_pool", [False, True])
def test_the_benchmarks_workers_consume_only_its_own_queues(one_pool):
    commands = load.worker_commands(one_pool=one_pool, concurrency=2, tag="8104")
    consumed = [command[command.index("-Q") + 1].split(",") for _name, command in commands]
    assert sorted(queue for queues in consumed for queue in queues) == sorted(
        load_settings.BENCH_QUEUES.values()
    )
    assert all(queue.startswith(QUEUE_PREFIX) for queues in consumed for queue in queues)


@pytest.mark.worker
def test_a_benchmark_worker_leaves_production_queues_and_keys_alone(private_redis, tmp_path):
    client = _plant(private_redis)
    planted = _keys(client)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": load.SETTINGS,
        "CELERY_BROKER_URL": private_redis.url,
        "SECRET_KEY": "benchmark-test-not-secret",
        "DEBUG": "false",
    }
    (name, command), *_ = load.worker_commands(one_pool=True, concurrency=1, tag="test")
    log = tmp_path / "worker.log"
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    try:
        _wait_for(
            lambda: process.poll() is None and " ready." in log.read_text(errors="replace"),
            within=60,
            failure=lambda: f"the benchmark's {name} never got ready:\n" + log.read_text(),
        )
        banner = log.read_text().split("[queues]")[1].split("[tasks]")[0]
        queues = sorted(re.findall(r"\.> (\S+)", banner))
        assert queues == sorted(load_settings.BENCH_QUEUES.values())
        made = _keys(client) - planted
        assert made and all(key.startswith(KEY_PREFIX.encode()) for key in made), made
    finally:
        process.terminate()
        process.wait(timeout=30)
    _production_intact(client)
    left = _keys(client) - planted  # the worker's bindings: the benchmark clears them
    assert throwaway.broker_clear(private_redis.url) == len(left)
    assert _keys(client) == planted
