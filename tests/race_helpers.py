"""Run jobs at the same moment, as several phones or workers would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask


def race(
    app: Flask,
    jobs: list[Callable[..., Any]],
    *,
    prepare: Callable[[], Any] | None = None,
    timeout: float = 60.0,
) -> list[Any]:
    """Each job in its own thread and app context, released together by a barrier.

    ``prepare`` runs in the job's context before the barrier (e.g. a phone reading the
    slate) and its result is passed to the job. Returns each job's result or exception.
    """
    results: list[Any] = [None] * len(jobs)
    barrier = threading.Barrier(len(jobs))

    def run(i: int) -> None:
        try:
            with app.app_context():
                args = () if prepare is None else (prepare(),)
                barrier.wait(timeout=10)
                results[i] = jobs[i](*args)
        except BaseException as exc:  # noqa: BLE001 - reported to the test thread
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return results
