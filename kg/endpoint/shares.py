"""Shares of the server among clients: query workers per token, and result bytes held by the main process.

A token may have at most `per_token` queries at the workers at once; the rest of its requests wait their turn
(503 after the time limit), so one token's runaways leave the other tokens the remaining workers. A request
waiting for its token's turn is told so (`queued`): `kg serve` then counts its connection as idle, so it can be
closed to make room for another client's and never holds a connection slot against other tokens. `kg serve`
(/query, /store and the answer page) and `kg mcp` (its query tool and its library calls) use the same shares.
A query at a worker is not stopped by its caller going away (a worker cannot be interrupted mid-query): it runs
to its reply or its time limit, and its token keeps the turn until then, so ending sessions or cancelling calls
cannot give one token more than its share of the workers. A reply is held
in the main process until the client has read it. A worker announces a reply's size before its bytes; a large
reply crosses into the main process only once its size fits in the budget, and gives the room back once the
client has it or the send deadline has passed. The main process so never holds more than `max_inflight` bytes
of large results, however slowly the clients read, and small replies never wait behind them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from kg.endpoint.engine import SMALL_REPLY, Job, Pool, Reply
from kg.endpoint.policy import HttpError

#: Seconds a large reply may wait for room in the budget; its worker waits with it, so not long.
ROOM_WAIT = 2.0


def default_share(workers: int) -> int:
    """A token's default share of `workers`: a quarter, at least 1 (docs/benchmarks.md measured the choice)."""
    return max(1, workers // 4)


#: Requests one token may have waiting for its turn, per request of its share: past it, 503 at once. A queue
#: holds connections; bounded, one token's flood of requests cannot fill the connection slots it shares with
#: other tokens (clients behind one address, say), however many it opens.
WAITING_PER_TURN = 4


class TokenSlots:
    """At most `per_token` requests of one token at work, and `WAITING_PER_TURN` times that many waiting for a
    turn; None as a key means no limit (no access file)."""

    def __init__(self, per_token: int) -> None:
        self.per_token = per_token
        self.slots: dict[str, asyncio.Semaphore] = {}
        self.waiting: dict[str, int] = {}

    @asynccontextmanager
    async def slot(
        self, key: str | None, timeout: float, queued: Callable[[bool], None] | None = None
    ) -> AsyncIterator[None]:
        """A turn for `key` within `timeout` seconds (else 503), held for the block; `queued(True)` while it
        waits, `queued(False)` once it has its turn or gave up."""
        async with self.turn(key, timeout, queued):
            yield

    @asynccontextmanager
    async def turn(
        self, key: str | None, timeout: float, queued: Callable[[bool], None] | None = None
    ) -> AsyncIterator[Turn]:
        """As `slot`, but the turn may be handed to a task (`Turn.until`): it then ends when the task does, not
        with the block, so a job its caller left still counts against its token while a worker runs it."""
        turn = Turn()
        if key is None:
            yield turn
            return
        slots = self.slots.setdefault(key, asyncio.Semaphore(self.per_token))
        if slots.locked() and self.waiting.get(key, 0) >= WAITING_PER_TURN * self.per_token:
            raise HttpError(
                503, f"this token already has {self.per_token} requests running and as many waiting as it may; retry"
            )
        self.waiting[key] = self.waiting.get(key, 0) + 1
        if queued is not None:
            queued(True)
        try:
            await asyncio.wait_for(slots.acquire(), timeout)
        except TimeoutError:
            raise HttpError(
                503, f"this token already has {self.per_token} requests running, for {timeout:g} s; try again"
            ) from None
        finally:
            self.waiting[key] -= 1
            if queued is not None:
                queued(False)
        try:
            yield turn
        finally:
            if turn.task is None or turn.task.done():
                slots.release()
            else:
                turn.task.add_done_callback(lambda _: slots.release())


class Turn:
    """A token's turn, held by its block or handed to the task doing its work."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None

    def until(self, task: asyncio.Task) -> None:
        self.task = task


class ByteBudget:
    """Result bytes the main process may hold at once."""

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, 0
        self.changed = asyncio.Condition()

    async def reserve(self, size: int, timeout: float) -> Hold:
        """A hold of `size` bytes (at most the limit), once they fit; 503 when they do not within `timeout` s."""
        async with self.changed:
            try:
                await asyncio.wait_for(self.changed.wait_for(lambda: self.used + size <= self.limit), timeout)
            except TimeoutError:
                raise HttpError(
                    503, f"the server is still sending other results after {timeout:g} s; try again"
                ) from None
            self.used += size
        return Hold(self, size)

    async def _change(self, delta: int) -> None:
        async with self.changed:
            self.used += delta
            self.changed.notify_all()


#: Tasks started from a callback, kept here until done (the event loop holds only weak references to tasks).
BACKGROUND: set[asyncio.Task] = set()


def in_background(work: Coroutine[Any, Any, None]) -> None:
    task = asyncio.ensure_future(work)
    BACKGROUND.add(task)
    task.add_done_callback(BACKGROUND.discard)


async def release(holds: list[Hold]) -> None:
    for hold in holds:
        await hold.release()


class Hold:
    """Bytes reserved in a ByteBudget, given back exactly once."""

    def __init__(self, budget: ByteBudget, size: int) -> None:
        self.budget, self.size = budget, size

    async def release(self) -> None:
        size, self.size = self.size, 0
        if size:
            await self.budget._change(-size)


@dataclass
class Shares:
    """A worker pool shared fairly: a turn per token (`slots`), and room for large results (`budget`)."""

    pool: Pool
    slots: TokenSlots
    budget: ByteBudget
    timeout: float

    @asynccontextmanager
    async def run(
        self, job: Job, key: str | None, queued: Callable[[bool], None] | None = None
    ) -> AsyncIterator[Reply]:
        """The job's reply, run in `key`'s turn (None: no share, one party). A reply over SMALL_REPLY bytes
        needs room in the budget before it leaves the worker, and holds it until the caller is done with it."""
        holds: list[Hold] = []
        gone = False

        async def admit(size: int) -> None:
            if size > SMALL_REPLY:
                if gone:  # nobody will read it: the worker drops it
                    raise HttpError(503, "the caller has gone")
                hold = await self.budget.reserve(size, min(ROOM_WAIT, self.timeout))
                if gone:
                    await hold.release()
                    raise HttpError(503, "the caller has gone")
                holds.append(hold)

        task: asyncio.Task[Reply] | None = None
        try:
            async with self.slots.turn(key, self.timeout, queued) as turn:
                task = self.pool.start(await self.pool.take(key), job, admit, key)
                turn.until(task)
            yield await asyncio.shield(task)
        finally:
            gone = True
            if task is not None and not task.done():  # the caller left: the room is given back with the worker
                task.add_done_callback(lambda _: in_background(release(holds)))
            else:
                await release(holds)
