"""Pairing a round in a worker process (not a thread: the matching holds the GIL), bounded in time."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.service import tournament_pairing
from bot.service.tournament_pairing import PairingFailed, paired, worker_pids
from bot.tournaments import Result, Settings, Tournament, next_round, start


def swiss_after_one_round(players: int = 12) -> Tournament:
    """A small Swiss with round 1 played (the first seat wins every game)."""
    t = start(Settings("swiss"), [(f"p{k}", f"Player {k}", 1500.0 - k) for k in range(players)])
    rnd = next_round(t)
    t = t.with_round(rnd)
    for g in rnd.pairings:
        t = t.with_result(Result(1, g, g.first))
    return t


async def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (exited or a zombie), looking for up to 20 s."""
    for _ in range(200):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        await asyncio.sleep(0.1)
    return False


async def test_a_round_is_paired_in_a_worker_process_exactly_as_the_rules_pair_it():
    t = swiss_after_one_round()
    rnd = await paired(t)
    assert rnd == next_round(t)
    assert worker_pids() and os.getpid() not in worker_pids()


async def test_a_pairing_not_back_in_time_fails_its_worker_is_stopped_and_the_next_pairing_gets_a_new_one():
    t = swiss_after_one_round()
    await paired(t)  # the worker runs
    (before,) = worker_pids()
    with pytest.raises(PairingFailed):
        await paired(t, timeout=0)  # never back in no time
    assert await gone(before)
    assert tournament_pairing._executor is None
    assert await paired(t) == next_round(t)
    assert worker_pids() != [before]
