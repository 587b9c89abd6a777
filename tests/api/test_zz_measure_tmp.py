"""Throwaway: request time and queries of each read endpoint at 10 and 1,000 koppels."""
import statistics
import time
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.api.test_reads_budgets import API, BUDGETS, _sized


@pytest.mark.django_db
def test_measure(client: Client, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    started = time.perf_counter()
    sizes = {n: _sized(n) for n in (10, 1000)}
    print("BUILD", time.perf_counter() - started)
    for name, (path_of, _budget) in sorted(BUDGETS.items()):
        line = [name]
        for n, sized in sizes.items():
            path = API + path_of(sized)
            client.get(path)
            times = []
            for _ in range(7):
                with CaptureQueriesContext(connection) as captured:
                    t = time.perf_counter()
                    response = client.get(path)
                    times.append(time.perf_counter() - t)
                assert response.status_code == 200
            etag = response["ETag"]
            t = time.perf_counter()
            for _ in range(7):
                client.get(path, headers={"If-None-Match": etag})
            poll = (time.perf_counter() - t) / 7
            line.append(f"{n}: {len(captured.captured_queries)}q {statistics.median(times)*1000:.1f}ms 304 {poll*1000:.1f}ms {len(response.content)}B")
        print("MEASURE", " | ".join(line))
