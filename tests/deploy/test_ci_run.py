"""`.ci/run` (issue 23): Debian's HAProxy for the multi-node test, installed only when
missing, and the README's two commands, through dev.py (which installs the hashed lock)."""

from __future__ import annotations

import re

from tests.paths import REPO_ROOT as ROOT

SCRIPT = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_haproxy_is_installed_only_when_missing():
    block = re.search(r"^if (.*haproxy.*); then\n(.*?)^fi$", SCRIPT, flags=re.M | re.S)
    assert block, ".ci/run installs no haproxy"
    assert "command -v haproxy" in block.group(1)
    assert "apt-get install -y -qq haproxy" in block.group(2)


def test_it_runs_dev_py_check_then_test():
    commands = re.findall(r"^python3 dev\.py (\w+)$", SCRIPT, flags=re.M)
    assert commands == ["check", "test"]
    assert "pip install" not in SCRIPT  # dev.py installs the lock, with its hashes
