"""deploy/haproxy.cfg is a configuration HAProxy accepts, with the defaults and with the
addresses the multi-node test gives it; the multi-node benchmark's settings keep every
Redis key it makes under the benchmark's prefix (issue 19's rule)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from celery import Celery

from benchmarks import multinode_settings
from benchmarks.multinode_run import HAPROXY_CFG
from benchmarks.throwaway import KEY_PREFIX


def _haproxy() -> str:
    found = shutil.which("haproxy")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI checks deploy/haproxy.cfg: install haproxy (Debian's package)")
        pytest.skip("haproxy is not installed")
    return found


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"HAPROXY_BIND": "127.0.0.1:9401", "WEB_A": "127.0.0.1:9402", "WEB_B": "127.0.0.1:9403",
         "WEB_MAXCONN": "4"},
    ],
)  # fmt: skip
def test_haproxy_accepts_the_config(tmp_path: Path, env: dict[str, str]) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "HAPROXY_STATS_SOCKET": str(tmp_path / "s"), **env}
    done = subprocess.run(
        [_haproxy(), "-c", "-f", str(HAPROXY_CFG)],
        env=env, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_config_retries_only_what_never_reached_a_node() -> None:
    lines = [line.split("#")[0].strip() for line in HAPROXY_CFG.read_text().splitlines()]
    retry_on = [line for line in lines if line.startswith("retry-on")]
    assert retry_on == ["retry-on conn-failure"]
    assert "option redispatch 1" in lines
    assert "http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host localhost" in lines


def test_the_benchmark_nodes_keep_their_keys_under_the_prefix() -> None:
    app = Celery(set_as_current=False)
    app.config_from_object(multinode_settings, namespace="CELERY")
    assert app.conf.broker_transport_options["global_keyprefix"] == KEY_PREFIX
    # The Procfile's queue names and beat's sweep stay production's.
    assert app.conf.beat_schedule
    for cache in multinode_settings.CACHES.values():
        assert str(cache["KEY_PREFIX"]).startswith(KEY_PREFIX)
