"""Where per-repository work runs.

* `local`: a process pool on this machine (`jobs` processes; `jobs=1` runs in this
  process). A worker process that dies (out of memory, a crash) takes only its own task
  down: the tasks that were running beside it are run again, each alone.
* `dask`: Dask distributed (the optional extra `[cluster]`): a `LocalCluster` of `jobs`
  single-threaded worker processes, or the scheduler at `scheduler` (`tcp://host:8786`).
  Workers must see the inputs and the output folder under the same paths (one machine or
  a shared filesystem). The dashboard's address is printed when the cluster starts.

`run` yields one `Outcome` per item as it completes, with the worker's process id, its
peak resident memory so far, the task's seconds and the CPU seconds its process used
meanwhile (on a loaded machine the wall time is mostly waiting; the CPU time is not).
"""
from __future__ import annotations

import logging
import os
import pickle
import socket
import time
import uuid
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterator

ENGINES = ("local", "dask")


class EngineError(RuntimeError):
    """The engine cannot start (Dask missing, scheduler unreachable, bad arguments)."""


class WorkerDied(RuntimeError):
    """The process running a task ended without an answer."""


@dataclass
class Outcome:
    index: int                 # position of the item in the list given to `run`
    value: Any = None          # what the function returned
    error: str | None = None   # why it has no value ("TypeName: message")
    worker: str = ""           # host:pid of the process that ran it
    peak_rss_mb: float = 0.0   # that process's peak resident memory when the task ended
    seconds: float = 0.0
    cpu_seconds: float = 0.0   # CPU time of the worker process while the task ran


def _peak_rss_mb() -> float:
    try:
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(kb / 1024, 1)           # KiB on Linux
    except (ImportError, OSError):
        return 0.0


def traced(fn: Callable, item) -> dict:
    """Run `fn(item)` and say where and at what memory cost it ran (the task every engine
    sends; module-level so process pools can pickle it)."""
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn(item)
    return {"value": value, "worker": f"{socket.gethostname()}:{os.getpid()}",
            "peak_rss_mb": _peak_rss_mb(), "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - c0}


def _outcome(i: int, res: dict | None = None, exc: BaseException | None = None) -> Outcome:
    if exc is not None:
        return Outcome(i, error=f"{type(exc).__name__}: {exc}")
    return Outcome(i, res["value"], None, res["worker"], res["peak_rss_mb"], res["seconds"],
                   res["cpu_seconds"])


def check_picklable(fn: Callable) -> None:
    try:
        pickle.dumps(fn)
    except Exception as exc:
        raise EngineError(f"{getattr(fn, '__qualname__', fn)!r} cannot be sent to worker processes "
                          f"({exc}); use a function defined at module level, jobs=1, or "
                          "engine='dask'") from None


def check_engine(engine: str, scheduler: str | None = None) -> None:
    """Raise EngineError for an unknown engine, or a scheduler address without Dask."""
    if engine not in ENGINES:
        raise EngineError(f"unknown engine {engine!r} (choose {' or '.join(ENGINES)})")
    if scheduler and engine != "dask":
        raise EngineError("a scheduler address (--scheduler) needs the dask engine (--engine dask)")


def run(fn: Callable, items: list, *, engine: str = "local", jobs: int | None = None,
        scheduler: str | None = None, dashboard: bool = True,
        info: Callable[[str], None] = print) -> Iterator[Outcome]:
    """Run `fn(item)` for every item on `engine`; yield outcomes as they complete. An
    exception in `fn` becomes the outcome's `error`; it never stops the others."""
    check_engine(engine, scheduler)
    jobs = max(1, jobs or os.cpu_count() or 1)
    if not items:
        return iter(())
    if engine == "dask":
        return _dask(fn, items, jobs, scheduler, dashboard, info)
    return _local(fn, items, jobs)


def _local(fn, items, jobs) -> Iterator[Outcome]:
    if jobs == 1 or len(items) == 1:
        for i, item in enumerate(items):
            try:
                yield _outcome(i, traced(fn, item))
            except Exception as exc:
                yield _outcome(i, exc=exc)
        return
    check_picklable(fn)
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    todo = deque(range(len(items)))
    suspects: list[int] = []            # running when a worker died: each is run again alone
    jobs = min(jobs, len(items))
    while todo or suspects:
        if suspects:
            i = suspects.pop(0)
            with ProcessPoolExecutor(max_workers=1) as alone:
                try:
                    yield _outcome(i, alone.submit(traced, fn, items[i]).result())
                except BrokenProcessPool:
                    yield _outcome(i, exc=WorkerDied("the worker process died running this "
                                                     "task (out of memory or a crash)"))
                except Exception as exc:
                    yield _outcome(i, exc=exc)
            continue
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            running: dict = {}
            broken = False
            while (todo or running) and not broken:
                while todo and len(running) < jobs:   # no queue behind the workers
                    i = todo.popleft()
                    running[pool.submit(traced, fn, items[i])] = i
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for f in done:
                    i = running.pop(f)
                    try:
                        res = f.result()
                    except BrokenProcessPool:
                        suspects.append(i)
                        broken = True
                        continue
                    except Exception as exc:
                        yield _outcome(i, exc=exc)
                        continue
                    yield _outcome(i, res)
            if broken:
                suspects.extend(running.values())


def _dask(fn, items, jobs, scheduler, dashboard, info) -> Iterator[Outcome]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise EngineError("the dask engine needs Dask distributed: "
                          "pip install 'context-workbench[cluster]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="30s")
        else:
            import dask
            # The workers' statistical profiler samples every thread's stack each 10 ms;
            # on these pure-Python tasks it made them markedly slower. Off on our own
            # cluster (a scheduler given by address keeps its workers' settings).
            # Workers that are not daemons may start the memory-capped parser process a
            # large file is read in (a daemon's files are parsed in the worker itself).
            with dask.config.set({"distributed.worker.profile.enabled": False,
                                  "distributed.worker.daemon": False}):
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                       dashboard_address=":0" if dashboard else None,
                                       silence_logs=logging.CRITICAL)
            client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise EngineError(f"cannot reach the Dask scheduler {scheduler or '(local cluster)'}: {exc}") from None
    try:
        if dashboard and client.dashboard_link:
            info(f"Dask dashboard: {client.dashboard_link}")
        tag = uuid.uuid4().hex[:8]
        futures = [client.submit(traced, fn, item, pure=False, key=f"workbench-{tag}-{i}")
                   for i, item in enumerate(items)]
        index = {f.key: i for i, f in enumerate(futures)}
        for fut in as_completed(futures):
            i = index[fut.key]
            try:
                res = fut.result()
            except Exception as exc:      # the task raised, or its worker died (KilledWorker)
                yield _outcome(i, exc=exc)
            else:
                yield _outcome(i, res)
            fut.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def progress_bar(total: int, desc: str, enabled: bool = True):
    """A tqdm bar (a widget in notebooks), or None when progress is off."""
    if not enabled or total == 0:
        return None
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=desc, unit="repo")
