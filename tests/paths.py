"""Where the tests find the repository's files, wherever a test module sits in tests/."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA = REPO_ROOT / "data"  # the real competitions (DESIGN.md "Real data in `data/`")
SAMPLE = DATA / "club-evening-sample.json"
STCB = DATA / "stcb-2019-08-24.json"
CASES = Path(__file__).resolve().parent / "cases"  # inputs of real failures (../shared/cases)
ARTIFACTS = Path(__file__).resolve().parent / "e2e" / "artifacts"  # browser screenshots
