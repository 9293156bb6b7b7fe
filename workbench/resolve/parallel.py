"""A full run's evaluation in two processes (`_evaluate_in_two`): this one takes the
files from the front, a forked helper from the back, one at a time, until they meet
(`_Meet`, counters in shared memory; the helper may first do other work, `Meanwhile`), and the helper sends its rows back through a pipe
(`_helper_result`). A helper that fails, or shows no progress for
`HELPER_STALL_SECONDS`, is killed (`_kill`) and its files are evaluated by this process.
The files the helper took show on the progress bar as it takes them (`_BackProgress`).
Which runs evaluate in two: `passes.PARALLEL_MIN_EDGES`.
"""
from __future__ import annotations

import os
import pickle
import signal
import struct
import time
import warnings

from . import kept
from .evaluate import Resolver
from .fileeval import _evaluate
from .lang import rules_of
from .model import Model


def _evaluate_in_two(m: Model, res: Resolver, part_rows, spans: dict, imports_of: dict, paths: list,
                     tick, meanwhile=None):
    """`_evaluate(..., paths, ...)` by this process and a forked helper: this one takes the
    files from the front, the helper from the back, one at a time, until they meet (so
    neither waits long for the other), and the helper sends its rows back through a pipe.
    A file's edges get the same values whichever files are evaluated with it and in
    whatever order (`memo`), so the rows are those of one process evaluating everything.
    None when no helper could be started; a helper that fails leaves its files to this
    process, and so does one that hangs: once this process is done with its files, it
    waits for the helper's result only while the helper shows progress (a file evaluated,
    bytes of the result; `HELPER_STALL_SECONDS`, `_helper_result`). The helper only
    evaluates (a full run's model holds everything evaluation reads, and `part_rows` has
    its one part already: no database access) and ends without running any exit handler.
    `meanwhile` (a `Meanwhile`), when given, is run by the helper before its first file
    (other work of the run, done while this process evaluates): its result in
    `meanwhile.result` (None when the helper failed)."""
    for fam in sorted({f for f in m.fam.values() if f is not None}):
        rules_of(fam).before_helper(m)          # what it would read from the database later
    try:
        meet = _Meet(len(paths))
        r, w = os.pipe()
    except (OSError, ImportError):
        return None
    try:
        with warnings.catch_warnings():
            # Python 3.12 warns on forking a process with threads (DuckDB's): the helper
            # touches neither the database nor any lock but the one in `_Meet`
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return None
    if pid == 0:                                    # the helper
        code = 1
        try:
            os.close(r)
            # the database is not the helper's to touch (the parent's connection, forked):
            # should evaluation reach for it, the helper fails and the parent does its files
            m.con = None

            def taken():                            # from the back, as evaluated
                while (i := meet.take(front=False)) is not None:
                    yield paths[i]
            extra = meanwhile.fn() if meanwhile is not None else None
            meet.beat()
            # each file it evaluates is a beat of progress the main process watches
            got = _evaluate(m, res, part_rows, spans, imports_of, taken(), meet.beat)
            data = pickle.dumps((*got, extra), protocol=pickle.HIGHEST_PROTOCOL)
            meet.beat()
            with os.fdopen(w, "wb") as fh:
                fh.write(data)
            code = 0
        except BaseException:       # noqa: BLE001 (the main process evaluates these files itself)
            pass
        finally:
            os._exit(code)
    os.close(w)
    mine = []
    helper_progress = _BackProgress(paths, spans, tick)

    def claimed():                                  # this process's files, taken as evaluated
        while (i := meet.take(front=True, helper=pid)) is not None:
            mine.append(i)
            helper_progress(meet.back())
            yield paths[i]
    try:
        out, imp_rows, reads = _evaluate(m, res, part_rows, spans, imports_of, claimed(), tick)
        # before the helper's rows arrive: the memo, and the bindings (a full run's, loaded
        # again should this process have to evaluate the helper's files after all)
        res.memo.clear()
        bulk = not m.lazy
        if bulk:
            m.release_bindings(arg_names=kept.KEEP > 0)
    except BaseException:                           # (an interrupt): the helper ends too
        os.close(r)
        _kill(pid)
        raise
    got = _helper_result(pid, r, meet)
    if got is None:         # the helper failed or hung: its files evaluated here, as without it
        how = (f"made no progress for {HELPER_STALL_SECONDS:g} s" if meet.stalled else "failed")
        warnings.warn(f"the resolution helper process {how}; its files are evaluated in this one")
        if bulk:
            m.ensure_bindings(None)
        got = _evaluate(m, res, part_rows, spans, imports_of, paths[len(mine):], None)
    else:
        *got, extra = got
        if meanwhile is not None:
            meanwhile.result = extra
    helper_progress(len(mine))
    rows, imps, rd = got
    out.extend(rows)
    imp_rows[0].extend(imps[0])
    imp_rows[1].extend(imps[1])
    reads.extend(rd)
    return out, imp_rows, reads


class Meanwhile:
    """Work for the resolution helper before its first file (`_evaluate_in_two`): `fn()`,
    which must not touch the database, and its result (pickled back; None until then, and
    when the helper failed)."""

    def __init__(self, fn):
        self.fn, self.result = fn, None


class _BackProgress:
    """Shows on the progress bar (`tick`) the files taken from the back of `paths`, as
    their count grows: calling it with `upto` counts `paths[upto:]`, each file's edges once."""

    def __init__(self, paths: list, spans: dict, tick):
        self.paths, self.spans, self.tick = paths, spans, tick
        self.counted = len(paths)           # paths[counted:] are on the bar already

    def __call__(self, upto: int) -> None:
        if upto < self.counted:
            if self.tick is not None:
                self.tick(sum(self.spans[p][2] - self.spans[p][1]
                              for p in self.paths[upto:self.counted] if p in self.spans))
            self.counted = upto


#: a resolution helper that shows no progress for this long is taken as hung (a deadlock,
#: say, on a lock another thread held when it was forked): killed, and its files evaluated
#: by the main process. Progress is a file evaluated (`_Meet.beat`) or bytes of its result
#: arriving; one file of the standard library takes well under a second to evaluate, so a
#: minute leaves room for a slow file on a loaded machine.
HELPER_STALL_SECONDS = 60.0


class _Meet:
    """Indexes 0..n-1 handed out from both ends, one at a time, until the ends meet: two
    processes (this one and a forked helper) share the counters in shared memory, with
    the helper's heartbeat (`beat`), which the main process watches (`_helper_result`)."""

    def __init__(self, n: int):
        import mmap
        import multiprocessing
        self.buf = mmap.mmap(-1, 24)                # anonymous and shared with forked processes
        struct.pack_into("qqq", self.buf, 0, 0, n, 0)   # front, back, beats
        self.lock = multiprocessing.get_context("fork").Lock()
        self.stalled = False                        # the main process gave up on the helper

    def back(self) -> int:
        """The lowest index taken from the back so far (n when none was)."""
        return struct.unpack_from("q", self.buf, 8)[0]

    def beat(self, _edges: int = 0) -> None:
        """The helper shows progress (one more file evaluated; a `tick` of `_evaluate`).
        Only the helper writes the counter, so no lock."""
        struct.pack_into("q", self.buf, 16, struct.unpack_from("q", self.buf, 16)[0] + 1)

    def beats(self) -> int:
        return struct.unpack_from("q", self.buf, 16)[0]

    def take(self, front: bool, helper: int | None = None) -> int | None:
        """The next index from the front (or the back), None when none is left - or, for
        the process that started `helper`, when the helper is gone while holding the lock,
        or has held it for `HELPER_STALL_SECONDS` (hung: then it is killed, `stalled`)."""
        waited = 0.0
        while not self.lock.acquire(timeout=1.0):
            if helper is not None:
                if os.waitpid(helper, os.WNOHANG)[0] != 0:
                    return None
                waited += 1.0
                if waited >= HELPER_STALL_SECONDS:
                    self.stalled = True
                    _kill(helper, reap=False)
                    return None
        try:
            a, b = struct.unpack_from("qq", self.buf, 0)
            if a >= b:
                return None
            if front:
                struct.pack_into("q", self.buf, 0, a + 1)
                return a
            struct.pack_into("q", self.buf, 8, b - 1)
            return b - 1
        finally:
            self.lock.release()


def _kill(pid: int, reap: bool = True) -> None:
    """Kill the helper `pid` (and reap it, unless its result pipe will show it gone)."""
    try:
        os.kill(pid, signal.SIGKILL)
        if reap:
            os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


def _helper_result(pid: int, r: int, meet: _Meet):
    """What the helper sent (the `_evaluate` result of its files), or None if it failed -
    or hung: the pipe is read as the result arrives (a large one fills the pipe, and the
    helper waits for room), and while nothing arrives the helper's beats are watched;
    neither for `HELPER_STALL_SECONDS` and the helper is killed (`meet.stalled`)."""
    import select
    data = bytearray()
    try:
        waiting = select.poll()             # (not `select.select`: no limit on the fd's number)
        waiting.register(r, select.POLLIN)
        last, seen = time.monotonic(), meet.beats()
        while True:
            if waiting.poll(int(min(1.0, HELPER_STALL_SECONDS) * 1000)):   # data, or the end
                chunk = os.read(r, 1 << 20)
                if not chunk:                   # the helper closed the pipe: done, or gone
                    break
                data += chunk
                last = time.monotonic()
                continue
            now, beats = time.monotonic(), meet.beats()
            if beats != seen:
                last, seen = now, beats
            elif now - last >= HELPER_STALL_SECONDS:
                meet.stalled = True
                _kill(pid, reap=False)          # its end of the pipe closes: EOF next
    except BaseException:                       # (an interrupt): the helper ends too
        _kill(pid)
        raise
    finally:
        os.close(r)
    try:
        status = os.waitpid(pid, 0)[1]
    except ChildProcessError:           # reaped already: `_Meet.take` saw it end
        status = None
    if (meet.stalled or not data or status is None or not os.WIFEXITED(status)
            or os.WEXITSTATUS(status) != 0):
        return None
    return pickle.loads(data)

