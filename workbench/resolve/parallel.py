"""A full run's evaluation in two forked helper processes (`_evaluate_in_two`): one takes
the files from the front, the other from the back, one at a time, until they meet (`_Meet`,
counters in shared memory; the back one may first do other work, `Meanwhile`), and each
sends its rows back through a pipe (`_helper_results`). This process evaluates nothing
meanwhile: the memo and what evaluation leaves among the model's objects grow in the
helpers, which end, so this process keeps its memory for the writes that follow (its
peak on the standard library no longer sits on evaluation's, and no longer depends on how
the files happened to split between the two processes). A helper that fails, or shows no
progress for `HELPER_STALL_SECONDS`, is killed (`_kill`) and its files are evaluated by
this process. The files show on the progress bar as the helpers take them
(`_Progress`). Which runs evaluate in two: `passes.PARALLEL_MIN_EDGES`.
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
    """`_evaluate(..., paths, ...)` by two forked helpers: one takes the files from the
    front, the other from the back, one at a time, until they meet (so neither waits long
    for the other), and each sends its rows back through a pipe. A file's edges get the
    same values whichever files are evaluated with it and in whatever order (`memo`), so
    the rows are those of one process evaluating everything.
    None when the helpers could not be started; a helper that fails leaves its files to
    this process, and so does one that hangs: this process waits for a helper's result
    only while the helper shows progress (a file evaluated, bytes of the result;
    `HELPER_STALL_SECONDS`, `_helper_results`). The helpers only evaluate (a full run's
    model holds everything evaluation reads, and `part_rows` has its one part already: no
    database access) and end without running any exit handler.
    `meanwhile` (a `Meanwhile`), when given, is run by the back helper before its first
    file (other work of the run, done while the other helper evaluates): its result in
    `meanwhile.result` (None when that helper failed)."""
    for fam in sorted({f for f in m.fam.values() if f is not None}):
        rules_of(fam).before_helper(m)          # what it would read from the database later
    try:
        meet = _Meet(len(paths))
    except (OSError, ImportError):
        return None
    helpers: list[tuple[int, int]] = []         # (pid, read end of its pipe): back, front
    for front in (False, True):
        got = _fork_helper(m, res, part_rows, spans, imports_of, paths, meet, front,
                           None if front else meanwhile)
        if got is None:                         # none, or only one: this process does all
            for pid, r in helpers:
                os.close(r)
                _kill(pid)
            return None
        helpers.append(got)
    (back_pid, back_r), (front_pid, front_r) = helpers
    bulk = not m.lazy
    shown_front, shown_back = _Progress(paths, spans, tick, True), _Progress(paths, spans, tick, False)
    try:
        # while they evaluate: the memo (empty here) and the bindings (a full run's, loaded
        # again should this process have to evaluate a helper's files after all)
        res.memo.clear()
        if bulk:
            m.release_bindings(arg_names=kept.KEEP > 0)
    except BaseException:                       # (an interrupt): the helpers end too
        for pid, r in helpers:
            os.close(r)
            _kill(pid)
        raise
    # (an interrupt while it waits ends the helpers too)
    front_got, back_got = _helper_results([(front_pid, front_r), (back_pid, back_r)], meet,
                                          shown_front, shown_back)
    a, b = meet.front(), meet.back()            # paths[:a] the front one's, paths[b:] the back one's
    parts, reloaded = [], not bulk
    for got, part in ((front_got, paths[:a]), (None, paths[a:b]), (back_got, paths[b:])):
        if got is None and part:    # a helper failed or hung (or both: files neither took)
            if not reloaded:
                m.ensure_bindings(None)
                reloaded = True
            got = _evaluate(m, res, part_rows, spans, imports_of, part, None)
        parts.append(got)
    shown_front(b)          # the files neither helper took, when this process did them
    for got, pid in ((front_got, front_pid), (back_got, back_pid)):
        if got is None:
            how = (f"made no progress for {HELPER_STALL_SECONDS:g} s" if pid in meet.stalled else "failed")
            warnings.warn(f"the resolution helper process {how}; its files are evaluated in this one")
    if back_got is not None:
        *rest, extra = back_got
        parts[2] = rest
        if meanwhile is not None:
            meanwhile.result = extra
    if front_got is not None:
        parts[0] = front_got[:3]
    out, imp_rows, reads = None, None, None
    for got in parts:
        if got is None:
            continue
        rows, imps, rd = got
        if out is None:
            out, imp_rows, reads = rows, imps, rd
            continue
        out.extend(rows)
        imp_rows[0].extend(imps[0])
        imp_rows[1].extend(imps[1])
        reads.extend(rd)
    return out, imp_rows, reads


def _fork_helper(m: Model, res: Resolver, part_rows, spans: dict, imports_of: dict, paths: list,
                 meet: "_Meet", front: bool, meanwhile=None) -> tuple[int, int] | None:
    """Fork a helper that evaluates the files it takes from the front (or the back) of
    `paths` and writes its `_evaluate` result (and `meanwhile`'s, run first) into a pipe:
    (its pid, the pipe's read end), or None when it could not be started."""
    try:
        r, w = os.pipe()
    except OSError:
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
            meet.side = 0 if front else 1

            def taken():                            # from its end, as evaluated
                while (i := meet.take(front=front)) is not None:
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
    return pid, r


class Meanwhile:
    """Work for the resolution helper before its first file (`_evaluate_in_two`): `fn()`,
    which must not touch the database, and its result (pickled back; None until then, and
    when the helper failed)."""

    def __init__(self, fn):
        self.fn, self.result = fn, None


class _Progress:
    """Shows on the progress bar (`tick`) the files taken from one end of `paths` (the
    front, or the back), as their count grows: calling it with `upto` counts
    `paths[:upto]` (from the front) or `paths[upto:]` (from the back), each file's edges
    once."""

    def __init__(self, paths: list, spans: dict, tick, front: bool):
        self.paths, self.spans, self.tick, self.front = paths, spans, tick, front
        self.counted = 0 if front else len(paths)      # the files on the bar already end there

    def __call__(self, upto: int) -> None:
        lo, hi = (self.counted, upto) if self.front else (upto, self.counted)
        if lo < hi:
            if self.tick is not None:
                self.tick(sum(self.spans[p][2] - self.spans[p][1]
                              for p in self.paths[lo:hi] if p in self.spans))
            self.counted = upto


#: a resolution helper that shows no progress for this long is taken as hung (a deadlock,
#: say, on a lock another thread held when it was forked): killed, and its files evaluated
#: by the main process. Progress is a file evaluated (`_Meet.beat`) or bytes of its result
#: arriving; one file of the standard library takes well under a second to evaluate, so a
#: minute leaves room for a slow file on a loaded machine.
HELPER_STALL_SECONDS = 60.0


class _Meet:
    """Indexes 0..n-1 handed out from both ends, one at a time, until the ends meet: the
    processes that take them (forked helpers) share the counters in shared memory, with
    each helper's heartbeat (`beat`), which the main process watches (`_helper_results`)."""

    def __init__(self, n: int):
        import mmap
        import multiprocessing
        self.buf = mmap.mmap(-1, 32)                # anonymous and shared with forked processes
        struct.pack_into("qqqq", self.buf, 0, 0, n, 0, 0)   # front, back, beats of each side
        self.lock = multiprocessing.get_context("fork").Lock()
        self.stalled: set[int] = set()              # helpers the main process gave up on
        self.side = 0                               # whose beats `beat` counts: 0 front, 1 back

    def front(self) -> int:
        """How many indexes were taken from the front so far."""
        return struct.unpack_from("q", self.buf, 0)[0]

    def back(self) -> int:
        """The lowest index taken from the back so far (n when none was)."""
        return struct.unpack_from("q", self.buf, 8)[0]

    def beat(self, _edges: int = 0) -> None:
        """A helper shows progress (one more file evaluated; a `tick` of `_evaluate`).
        Only that helper writes its counter, so no lock."""
        at = 16 + 8 * self.side
        struct.pack_into("q", self.buf, at, struct.unpack_from("q", self.buf, at)[0] + 1)

    def beats(self, side: int = 0) -> int:
        return struct.unpack_from("q", self.buf, 16 + 8 * side)[0]

    def take(self, front: bool) -> int | None:
        """The next index from the front (or the back), None when none is left. A helper
        waiting here for a lock the other one holds forever (gone or hung while holding
        it) shows no progress, and the main process kills both in time
        (`_helper_results`)."""
        self.lock.acquire()
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


def _helper_results(helpers: list[tuple[int, int]], meet: _Meet, *shows) -> list:
    """What each helper (pid, read end of its pipe; the front one's first, then the back
    one's) sent (the `_evaluate` result of its files), or None for one that failed - or
    hung: the pipes are read as the results arrive (a large one fills its pipe, and the
    helper waits for room), and while nothing arrives from a helper its beats are watched;
    neither for `HELPER_STALL_SECONDS` and that helper is killed (`meet.stalled`).
    `shows`: called with `meet.front()` and `meet.back()` as the helpers take files
    (`_Progress`). Closes the pipes."""
    import select
    data = {r: bytearray() for _, r in helpers}
    side = {r: k for k, (_, r) in enumerate(helpers)}
    pid_of = {r: pid for pid, r in helpers}
    open_fds = set(data)
    try:
        waiting = select.poll()             # (not `select.select`: no limit on the fd's number)
        for r in open_fds:
            waiting.register(r, select.POLLIN)
        now = time.monotonic()
        last = {r: now for r in open_fds}
        seen = {r: meet.beats(side[r]) for r in open_fds}
        while open_fds:
            ready = waiting.poll(int(min(0.25, HELPER_STALL_SECONDS) * 1000))   # data, or the end
            for r, _ in ready:
                if r not in open_fds:
                    continue
                chunk = os.read(r, 1 << 20)
                if not chunk:                   # the helper closed the pipe: done, or gone
                    open_fds.discard(r)
                    waiting.unregister(r)
                    continue
                data[r] += chunk
                last[r] = time.monotonic()
            if shows:
                shows[0](meet.front())
                shows[1](meet.back())
            now = time.monotonic()
            for r in list(open_fds):
                beats = meet.beats(side[r])
                if beats != seen[r]:
                    last[r], seen[r] = now, beats
                elif now - last[r] >= HELPER_STALL_SECONDS and pid_of[r] not in meet.stalled:
                    meet.stalled.add(pid_of[r])
                    _kill(pid_of[r], reap=False)    # its end of the pipe closes: EOF next
    except BaseException:                       # (an interrupt): the helpers end too
        for pid, _ in helpers:
            _kill(pid)
        raise
    finally:
        for _, r in helpers:
            os.close(r)
    out = []
    for pid, r in helpers:
        try:
            status = os.waitpid(pid, 0)[1]
        except ChildProcessError:       # reaped already
            status = None
        ok = (pid not in meet.stalled and data[r] and status is not None and os.WIFEXITED(status)
              and os.WEXITSTATUS(status) == 0)
        out.append(pickle.loads(data[r]) if ok else None)
        data[r] = None
    return out
