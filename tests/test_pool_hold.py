"""Finished work goes back to the store at least every HOLD seconds (issue 34, item 8):
a worker runs its chunk one job at a time and, once HOLD seconds have passed, returns what
it has finished with the jobs it has not started, which go out again."""
from __future__ import annotations

import time

import solver.common.pool as pool


def _slow(chunk: list, seconds: float) -> list:
    """A job function: each job sleeps ``seconds`` and returns its own value."""
    out = []
    for job in chunk:
        time.sleep(seconds)
        out.append(job)
    return out


def test_a_chunk_returns_what_is_finished_once_hold_has_passed(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(pool.time, "monotonic", lambda: clock[0])

    def work(chunk, arg):
        clock[0] += arg  # each job takes ``arg`` seconds of the fake clock
        return [job * 10 for job in chunk]

    assert pool.timed_chunk(work, [1, 2, 3, 4, 5, 6], 0.1, hold=0.25) == ([10, 20, 30], [4, 5, 6])
    # a slow first job is still done: at least one job a chunk, so the batch moves on
    clock[0] = 0.0
    assert pool.timed_chunk(work, [1, 2], 5.0, hold=0.25) == ([10], [2])
    clock[0] = 0.0
    assert pool.timed_chunk(work, [1, 2, 3], 0.01, hold=0.25) == ([10, 20, 30], [])


def test_the_jobs_a_worker_did_not_start_go_out_again():
    jobs = list(range(12))
    got = list(pool.pool_results(iter(jobs), len(jobs), _slow, 0.06, 1, (), chunk_size=12))
    assert sorted(got) == jobs  # none lost, none twice, though no chunk could finish whole in HOLD
