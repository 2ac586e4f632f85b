"""The query engine: a pool of worker processes, each with the store open read-only, one query at a time.

A worker is expendable. Before it opens the store it moves into a new, empty network namespace, so no query
can open a connection (SERVICE makes pyoxigraph do HTTP). It runs each query on a thread with a large stack
and serializes the whole result before answering, so a failure is never a truncated 200. The supervisor
waits for the answer and kills the worker when the query outlives the time limit, when the worker's resident
memory passes the limit, or finds it dead (a stack overflow or a crash); then it starts a fresh one. Only
the query that did it fails: every worker runs one query at a time.
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import itertools
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

from kg.endpoint.policy import Dataset, HttpError, Limits

if TYPE_CHECKING:
    from pyoxigraph import Store

log = logging.getLogger("kg.endpoint")

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
STACK_BYTES = 256 << 20
POLL_SECONDS = 0.02
START_SECONDS = 60.0
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")

SOLUTION_MEDIA = [
    "application/sparql-results+json",
    "application/sparql-results+xml",
    "text/csv",
    "text/tab-separated-values",
]
GRAPH_MEDIA = ["text/turtle", "application/n-triples", "application/rdf+xml"]


@dataclass(frozen=True)
class Job:
    """One request for a worker: a query with its dataset, or a Graph Store GET of one graph."""

    accept: str
    query: str | None = None
    dataset: Dataset = field(default_factory=Dataset)
    graph: str | None = None


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: bytes


@dataclass(frozen=True)
class Head:
    """What a worker sends before a reply's bytes: its status, media type and size."""

    status: int
    content_type: str
    size: int


Admit = Callable[[int], Awaitable[None]]
#: The supervisor's word on an announced reply over SMALL_REPLY bytes: send its bytes, or drop it. A smaller
#: reply follows its head at once (no round trip): it needs no room in the budget of result bytes.
SEND, DROP = "send", "drop"
SMALL_REPLY = 64 << 10


# --- inside a worker ---------------------------------------------------------------------------------------


def isolate_network() -> str | None:
    """Enter a new network namespace with no interfaces up; None when it worked, else why not.

    As root CLONE_NEWNET is enough; otherwise a new user namespace grants it. Either way a connect() to
    127.0.0.1 must then fail with ENETUNREACH, which is checked rather than assumed.
    """
    if os.environ.get("KG_SERVE_NETNS") == "off":  # to exercise the fallback on a machine that has namespaces
        return "turned off by KG_SERVE_NETNS=off"
    libc = ctypes.CDLL(None, use_errno=True)
    flags = CLONE_NEWNET if os.geteuid() == 0 else CLONE_NEWUSER | CLONE_NEWNET
    if libc.unshare(flags) != 0:
        return f"unshare(CLONE_NEWNET) failed: {os.strerror(ctypes.get_errno())}"
    with socket.socket() as probe:
        probe.settimeout(1)
        code = probe.connect_ex(("127.0.0.1", 9))
    if code != errno.ENETUNREACH:
        return f"connect to 127.0.0.1 gave {errno.errorcode.get(code, code)}, not ENETUNREACH"
    return None


class CappedBuffer:
    """A write target that refuses to grow past `limit` bytes, so a huge result fails early with 507."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.size += len(data)
        if self.size > self.limit:
            raise ResultTooLarge
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def value(self) -> bytes:
        return b"".join(self.parts)


class ResultTooLarge(Exception):
    pass


def chosen_media(accept: str, offered: list[str]) -> str:
    """The offered media type the Accept header prefers (by q, then order); the first offered by default."""
    ranked = []
    for i, part in enumerate(accept.split(",")):
        media, *params = (p.strip() for p in part.split(";"))
        q = next((p[2:] for p in params if p.startswith("q=")), "1")
        try:
            ranked.append((-float(q), i, media.lower()))
        except ValueError:
            continue
    for _, _, media in sorted(ranked):
        if media in offered:
            return media
        if media in ("*/*", "application/*", "text/*"):
            return next((m for m in offered if m.startswith(media[:-1]) or media == "*/*"), offered[0])
    return offered[0]


def answer(store: Store, job: Job, max_result: int) -> Reply:
    """Run one job to a complete, serialized reply (never a partial one)."""
    import pyoxigraph
    from pyoxigraph import NamedNode, QueryResultsFormat, RdfFormat

    solution_formats = dict(
        zip(
            SOLUTION_MEDIA,
            [QueryResultsFormat.JSON, QueryResultsFormat.XML, QueryResultsFormat.CSV, QueryResultsFormat.TSV],
            strict=True,
        )
    )
    graph_formats = dict(zip(GRAPH_MEDIA, [RdfFormat.TURTLE, RdfFormat.N_TRIPLES, RdfFormat.RDF_XML], strict=True))
    capped = CappedBuffer(max_result)
    out = cast(IO[bytes], capped)  # the part of a binary file pyoxigraph writes to
    try:
        if job.graph is not None:
            media = chosen_media(job.accept, GRAPH_MEDIA)
            triples = (q.triple for q in store.quads_for_pattern(None, None, None, NamedNode(job.graph)))
            pyoxigraph.serialize(triples, out, format=graph_formats[media])
        else:
            assert job.query is not None  # a job names a graph or carries a query
            result = store.query(job.query, base_iri=None, **dataset_arguments(job.dataset))
            if isinstance(result, pyoxigraph.QueryTriples):
                media = chosen_media(job.accept, GRAPH_MEDIA)
                result.serialize(out, format=graph_formats[media])
            else:
                media = chosen_media(job.accept, SOLUTION_MEDIA)
                result.serialize(out, format=solution_formats[media])
    except SyntaxError as exc:
        return Reply(400, "text/plain; charset=utf-8", f"{exc}\n".encode())
    except ResultTooLarge:
        message = (
            f"the result exceeds {max_result // 2**20} MiB: add a LIMIT, or use `kg export` for whole-graph dumps\n"
        )
        return Reply(507, "text/plain; charset=utf-8", message.encode())
    except Exception as exc:  # an engine error (OSError, an evaluation error): report it, keep serving
        return Reply(500, "text/plain; charset=utf-8", f"the query failed in the engine: {exc}\n".encode())
    charset = "; charset=utf-8" if media.startswith("text/") or media.endswith("json") else ""
    return Reply(200, media + charset, capped.value())


def dataset_arguments(dataset: Dataset) -> dict:
    """pyoxigraph's keyword arguments for a dataset; named_graphs is always set when default_graph is."""
    from pyoxigraph import NamedNode

    if dataset.union:
        return {"use_default_graph_as_union": True}
    return {
        "default_graph": [NamedNode(g) for g in dataset.default or ()],
        "named_graphs": [NamedNode(g) for g in dataset.named or ()],
    }


def worker_main(conn: Connection, store_path: str, max_result: int) -> None:
    """A worker's life: isolate, open the store, then answer jobs one by one on a large-stack thread."""
    parent = os.getppid()
    problem = isolate_network()  # first: unshare(CLONE_NEWUSER) needs a single-threaded process
    die_with_parent(parent)
    from pyoxigraph import Store

    try:
        store = Store.read_only(store_path)
    except OSError as exc:
        conn.send(("failed", str(exc)))  # one line for the supervisor, not a traceback on stderr
        return
    conn.send(("ready", problem))

    def serve() -> None:
        while True:
            try:
                job = conn.recv()
            except EOFError:
                return
            reply = answer(store, job, max_result)
            conn.send((reply.status, reply.content_type, len(reply.body)))  # the size first: see Pool.run
            if len(reply.body) <= SMALL_REPLY or conn.recv() == SEND:  # else no room for it: drop it
                conn.send_bytes(reply.body)

    threading.stack_size(STACK_BYTES)
    thread = threading.Thread(target=serve, name="query")
    thread.start()
    thread.join()


#: prctl(2) option: the signal the kernel sends this process when the thread that started it ends.
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel kill the worker when its server ends (killed outright, or ended without stopping it): a
    runaway query holds the interpreter, ignores the closed pipe, and would run on, orphaned, for ever. Set after
    the namespace change, which clears it; a server already gone ends the worker here."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != parent:
        os._exit(1)


# --- the supervisor ----------------------------------------------------------------------------------------


class Worker:
    """One worker process and our end of its pipe."""

    def __init__(self, store: Path, limits: Limits) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=worker_main, args=(child, str(store), limits.max_result), daemon=True, name="kg-serve-worker"
        )
        self.process.start()
        child.close()
        if not self.conn.poll(START_SECONDS):
            self.stop()
            raise OSError("a query worker did not start")
        try:
            state, detail = self.conn.recv()
        except EOFError:
            self.stop()
            raise OSError(
                f"a query worker could not open the store {store} (exit code {self.process.exitcode})"
            ) from None
        if state != "ready":
            self.stop()
            raise OSError(f"a query worker could not open the store {store}: {detail}")
        self.isolation_problem = detail

    def rss(self) -> int:
        try:
            with open(f"/proc/{self.process.pid}/statm") as statm:
                return int(statm.read().split()[1]) * PAGE_BYTES
        except (OSError, IndexError, ValueError):
            return 0

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()


class Pool:
    """Workers handed out one query at a time; a worker that fails a limit is replaced before reuse."""

    def __init__(self, store: Path, workers: int, limits: Limits) -> None:
        self.store, self.limits = store, limits
        self.workers = [Worker(store, limits) for _ in range(workers)]
        self.isolation_problem = self.workers[0].isolation_problem
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kg-serve-wait")
        self.free = list(self.workers)
        self.waiting: list[tuple[int, str | None, asyncio.Future[Worker]]] = []
        self.running: dict[str | None, int] = {}
        self.arrivals = itertools.count()

    async def run(self, job: Job, admit: Admit | None = None, party: str | None = None) -> Reply:
        """The job's reply. The worker announces the reply's size first; `admit(size)` may wait for room for
        it (or refuse with an HttpError) before the bytes cross into this process. `party` (a token's name)
        is whose job it is: a freed worker goes to the waiting party with the fewest jobs running. Once at a
        worker the job is not cancelled with its caller (see `start`)."""
        return await asyncio.shield(self.start(await self.take(party), job, admit, party))

    def start(self, worker: Worker, job: Job, admit: Admit | None, party: str | None) -> asyncio.Task[Reply]:
        """The job on `worker`, as a task of its own: a caller that goes away (a client gone, an MCP session
        ended or its call cancelled) cannot stop a worker mid-query, so the task runs until the reply or the
        time limit and then gives the worker back. Cancelling the await of it once left the worker out of the
        pool for good (issue 36, F7: two ended sessions took both of `kg mcp`'s workers)."""
        task = asyncio.ensure_future(self._run_on(worker, job, admit, party))
        task.add_done_callback(_retrieved)
        return task

    async def take(self, party: str | None) -> Worker:
        """A worker for `party`, at once or in its turn (503 after the time limit); cancelling the wait gives
        back a worker handed over just then."""
        if self.free and not self.waiting:
            self.running[party] = self.running.get(party, 0) + 1
            return self.free.pop()
        chosen: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        entry = (next(self.arrivals), party, chosen)
        self.waiting.append(entry)
        try:
            async with asyncio.timeout(self.limits.timeout):
                return await chosen
        except (TimeoutError, asyncio.CancelledError) as exc:
            if entry in self.waiting:
                self.waiting.remove(entry)
            if chosen.done() and not chosen.cancelled():  # handed a worker just as the wait ended
                self._give(chosen.result(), party)
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise HttpError(
                503, f"all {len(self.workers)} query workers stayed busy for {self.limits.timeout:g} s; try again"
            ) from None

    def _give(self, worker: Worker, done_by: str | None) -> None:
        """Hand a freed worker to the waiting party with the fewest jobs running (the earliest among equals)."""
        self.running[done_by] -= 1
        while self.waiting:
            entry = min(self.waiting, key=lambda e: (self.running.get(e[1], 0), e[0]))
            self.waiting.remove(entry)
            _, party, chosen = entry
            if not chosen.done():
                self.running[party] = self.running.get(party, 0) + 1
                chosen.set_result(worker)
                return
        self.free.append(worker)

    async def _run_on(self, worker: Worker, job: Job, admit: Admit | None, party: str | None) -> Reply:
        loop = asyncio.get_running_loop()
        refused: HttpError | None = None
        head, failure = await loop.run_in_executor(self.executor, self._exchange, worker, job)
        if isinstance(head, Head):
            try:
                if admit is not None:
                    await admit(head.size)
            except HttpError as exc:  # no room for the reply: the worker drops it and is free at once
                refused = exc
                head, failure = await loop.run_in_executor(self.executor, self._tell, worker, DROP)
            else:
                head, failure = await loop.run_in_executor(self.executor, self._body, worker, head)
        if failure:
            worker = await loop.run_in_executor(None, self._replace, worker, failure)
        self._give(worker, party)
        if refused is not None:
            raise refused
        assert isinstance(head, Reply)
        return head

    def _body(self, worker: Worker, head: Head) -> tuple[Reply, str | None]:
        try:
            worker.conn.send(SEND)
            return Reply(head.status, head.content_type, worker.conn.recv_bytes()), None
        except (EOFError, OSError):
            return self._crashed(worker)

    def _tell(self, worker: Worker, word: str) -> tuple[Reply, str | None]:
        try:
            worker.conn.send(word)
            return _refusal(503, "no room for the reply"), None
        except OSError:
            return self._crashed(worker)

    def _crashed(self, worker: Worker) -> tuple[Reply, str]:
        worker.process.join(5)
        code = worker.process.exitcode
        return _refusal(
            500, f"the query engine crashed on this query (exit code {code}): it was restarted; simplify the query"
        ), f"crashed (exit code {code})"

    def _exchange(self, worker: Worker, job: Job) -> tuple[Head | Reply, str | None]:
        """The reply's head (status, type, size), or a 5xx and the reason the worker must be replaced."""
        deadline = time.monotonic() + self.limits.timeout
        try:
            worker.conn.send(job)
            while not worker.conn.poll(POLL_SECONDS):
                if time.monotonic() > deadline:
                    return _refusal(
                        503, f"query cut off: it exceeded the {self.limits.timeout:g} s time limit"
                    ), "exceeded the time limit"
                if worker.rss() > self.limits.max_memory:
                    limit = self.limits.max_memory / 2**20
                    return _refusal(
                        503, f"query cut off: it exceeded the {limit:g} MiB memory limit"
                    ), "exceeded the memory limit"
            head = Head(*worker.conn.recv())
            if head.size <= SMALL_REPLY:
                return Reply(head.status, head.content_type, worker.conn.recv_bytes()), None
            return head, None
        except (EOFError, OSError):
            return self._crashed(worker)

    def _replace(self, worker: Worker, failure: str) -> Worker:
        log.warning("kg serve: query worker %s %s; restarting it", worker.process.pid, failure)
        started = time.monotonic()
        worker.stop()
        while True:
            try:
                fresh = Worker(self.store, self.limits)
                self.workers[self.workers.index(worker)] = fresh
                log.info("kg serve: query worker %s started in %.1f s", fresh.process.pid, time.monotonic() - started)
                return fresh
            except OSError as exc:
                log.error("kg serve: could not restart a query worker: %s", exc)
                time.sleep(1)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        for worker in self.workers:
            worker.stop()


def _retrieved(task: asyncio.Task[Reply]) -> None:
    """Mark a job task's outcome as seen: when its caller has gone, nobody else looks at it."""
    if not task.cancelled():
        task.exception()


def _refusal(status: int, message: str) -> Reply:
    return Reply(status, "text/plain; charset=utf-8", (message + "\n").encode())
