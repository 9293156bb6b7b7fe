"""Memoised evaluation with cycle cuts, and what each result depends on.

A value that depends on itself (mutual recursion, `x = f(x)`, a parameter whose argument
is the function's own result) is cut: the inner occurrence counts as empty. Nesting
deeper than `max_depth` counts as empty too. Such results depend on where evaluation
entered the cycle, or how deep it was, so they are kept apart:

* a *clean* result - its evaluation met no cut at or below its own key and no depth
  limit, used no kept-apart result, and the key is on no cycle - is the same whatever
  asks for it, wherever it is asked: it is memoised for the run, with the depth its
  evaluation reached, as long as it is still in use: clean results are kept in two
  generations of at most `max_clean` results each; when the young one is full it
  becomes the old one and the old one is dropped, and a result found in the old one
  moves back to the young one. A dropped result is evaluated again when next asked for
  (the same value, by the above), so memory stays bounded on a large repository while
  results in use (files are resolved in path order: mostly those of nearby files) stay;
* a result whose evaluation met a cut of a key below its own on the stack (a key inside
  a cycle it did not enter: its value counts that key as empty) is memoised as it is
  only while that key is being computed (`_inner`; a hit on it counts as a cut of that
  same key, and taints as a unit's result does). Then it is kept for the unit as below,
  unless it came out empty (the value of a cut): what asks for it later, from outside
  the cycle, evaluates it again with the cycle's entry known. (Dropping every such
  result makes the standard library evaluate a fifth more keys; the empty ones are
  those that lost a call's targets);
* a result whose evaluation reached the depth limit (or used a result that did) is
  memoised for the current unit with the depth it was asked at, and used only where it is
  asked at that depth or deeper (`_deep`): asked nearer the top, it is evaluated again,
  further. (A value cut short deep inside one evaluation is not what the file's later,
  shallower evaluations of the same key get);
* any other result is memoised only for the current *unit* (`begin_unit`): the
  resolver's unit is one file. (`Resolver.resolve_call` keeps a call's answer there too,
  under `("call", scope, text)`, for the calls written alike after it in the unit.)

`passing` puts a key on the stack without keeping its result (`Flows.elements_of`: a
container asked for again inside the evaluation of its own elements is cut like any
other cycle).

So the edges of a file get the same values whether every file is resolved or only that
one (an incremental run), and in whatever order the files are taken: a clean result is
used only where evaluating it again would give the same value (Tarjan's lowlinks over the
stack of keys being computed tell which results are clean).

Every result also carries what it read: a bit set of files (`bit_of`: symbol id -> the
bit of its file) and a set of name tokens (global indexes looked up by name, see
`workbench.resolve.deps`). `end_unit` returns everything the unit's evaluations read,
clean results they reused included: an incremental run redoes a file when one of these
changed.
"""
from __future__ import annotations


class Memo:
    """Results by key, the stack of keys being computed, and the current unit's reads."""

    __slots__ = ("clean", "old", "max_clean", "local", "max_depth", "bit_of", "_pos", "frames", "_files",
                 "_names", "_shared", "_inner", "_deep")

    #: clean results kept per generation: ~200 bytes each plus their values. The standard
    #: library makes ~100,000 clean results; with 30,000 a full run evaluates 4% more
    #: times (25,000: 6%, 12,000: 13%) and keeps ~30 MB less
    MAX_CLEAN = 30_000

    def __init__(self, max_depth: int, bit_of: dict | None = None, max_clean: int | None = None):
        self.clean: dict = {}            # key -> (result, depth reached below its own, files, names)
        self.old: dict = {}              # the previous generation of `clean`
        self.max_clean = max_clean or self.MAX_CLEAN
        self.local: dict = {}            # key -> result, for the current unit
        # key -> (result, stack position of the cut key it depends on), while that key is
        # being computed (the position's frame lists the keys to drop when it is done)
        self._inner: dict = {}
        self._deep: dict = {}            # key -> (result, depth asked at), for the current unit
        self.max_depth = max_depth
        self.bit_of = bit_of if bit_of is not None else {}
        self._pos: dict = {}             # key being computed -> its stack position
        # per stack position: [lowest position a cut reached, tainted, cut here, deepest
        # depth, files read (bits), names read (set or None), keys of `_inner` depending on
        # the cut of this position (list or None), depth limit reached]
        self.frames: list = []
        self._files = 0                  # what the current unit read
        self._names: set = set()
        # one object per distinct file set (a bit set over every file: ~280 bytes on the
        # standard library) and name set kept by clean results: few distinct ones, ~300,000 results
        self._shared: dict = {}

    # ---------------------------------------------------------------- units and reads
    def begin_unit(self) -> None:
        """Forget the results that depend on the order of evaluation (a new file)."""
        self.local.clear()
        self._deep.clear()
        self._files = 0
        self._names = set()

    def end_unit(self) -> tuple[int, set]:
        """(file bits, name tokens) the unit read since `begin_unit`."""
        return self._files, self._names

    def read(self, sid) -> None:
        """The current evaluation read data of symbol `sid` (its file)."""
        b = self.bit_of.get(sid)
        if b:
            if self.frames:
                self.frames[-1][4] |= b
            else:
                self._files |= b

    def read_name(self, token: str) -> None:
        """The current evaluation looked `token` up in a global index."""
        if self.frames:
            top = self.frames[-1]
            if top[5] is None:
                top[5] = {token}
            else:
                top[5].add(token)
        else:
            self._names.add(token)

    def _merge(self, files: int, names) -> None:
        if self.frames:
            top = self.frames[-1]
            top[4] |= files
            if names:
                if top[5] is None:
                    top[5] = set(names)
                else:
                    top[5] |= names
        else:
            self._files |= files
            if names:
                self._names |= names

    def unit_only(self, key) -> None:
        """Keep the result of `key`, just computed at the top of the stack, for the
        current unit only (a result no other unit asks for). Within the unit a local hit
        there is the same as the clean hit it replaces: nothing is on the stack to taint,
        and its reads are already the unit's."""
        if not self.frames:
            got = self.clean.pop(key, None)
            if got is None:
                got = self.old.pop(key, None)
            if got is not None:
                self.local[key] = got[0]

    def clear(self) -> None:
        """Forget every result (evaluation is over: the memory, for what follows)."""
        self.clean, self.old, self.local, self._shared, self._inner, self._deep = {}, {}, {}, {}, {}, {}

    # ---------------------------------------------------------------- evaluation
    def hit(self, key, depth: int | None = None):
        """The result of `key` when it is memoised for the unit or clean (and not too deep
        for `depth`), taken as `__call__` takes it; else None (then `compute`). A caller
        asking for a key many times, nearly always a hit, saves building the call's
        arguments."""
        got = self.local.get(key)
        frames = self.frames
        if got is not None:
            if frames:
                frames[-1][1] = True
            return got
        got = self.clean.get(key)
        if got is None:
            return None
        # `_take`, written out: nearly every ask of the memo ends here (~950,000 on the
        # standard library)
        if not frames:
            if depth is not None and depth + got[1] > self.max_depth:
                return None
            self._files |= got[2]
            if got[3]:
                self._names |= got[3]
            return got[0]
        top = frames[-1]
        if depth is not None:
            if depth + got[1] > self.max_depth:
                return None
            if depth + got[1] > top[3]:
                top[3] = depth + got[1]
        top[4] |= got[2]
        names = got[3]
        if names:
            if top[5] is None:
                top[5] = set(names)
            else:
                top[5] |= names
        return got[0]

    def _take(self, got: tuple, depth: int | None):
        """The value of clean result `got` asked for at `depth`: the depth its evaluation
        reached and what it read go to the key asking (or to the unit)."""
        if depth is not None and self.frames:
            top = self.frames[-1]
            if depth + got[1] > top[3]:
                top[3] = depth + got[1]
        self._merge(got[2], got[3])
        return got[0]

    def __call__(self, key, depth: int | None, limited: bool, empty, fn, *args):
        """`fn(*args)` memoised under `key` (whose first int is the symbol it is about).

        `depth` is the nesting depth the call is made at (None: the evaluation starts
        again at depth 0); with `limited`, beyond `max_depth` the key counts as `empty`,
        which is also its value in a cycle. (`Resolver.eval_text` takes its local and
        clean hits through `hit`, then asks `compute`.)"""
        got = self.hit(key, depth)
        if got is not None:
            return got
        return self.compute(key, depth, limited, empty, fn, *args)

    def compute(self, key, depth: int | None, limited: bool, empty, fn, *args):
        """`__call__` for a key `hit` did not find: its result in the previous generation
        of clean results, a cut, a result kept apart, or `fn(*args)` evaluated."""
        frames = self.frames
        if self.old and key not in self.clean:
            got = self.old.pop(key, None)
            if got is not None:          # still in use: into the young generation
                self._keep(key, got)
                if depth is None or depth + got[1] <= self.max_depth:
                    return self._take(got, depth)
        pos = self._pos.get(key)
        if pos is not None:              # a cycle: `key` is being computed
            top = frames[-1]
            if pos < top[0]:
                top[0] = pos
            frames[pos][2] = True
            return empty
        if self._inner:
            got = self._inner.get(key)
            if got is not None:          # computed inside a cycle still being computed
                top = frames[-1]
                if got[1] < top[0]:
                    top[0] = got[1]
                top[1] = True            # as a local hit
                return got[0]
        if self._deep:
            got = self._deep.get(key)
            if got is not None and (depth or 0) >= got[1]:
                if frames:
                    frames[-1][7] = True
                return got[0]
        if limited and depth > self.max_depth:
            if frames:
                frames[-1][7] = True
            return empty
        pos = len(frames)
        base = depth if depth is not None else 0
        k0 = key[0]
        frame = [pos, False, False, base, self.bit_of.get(k0 if k0.__class__ is int else key[1], 0), None, None, False]
        res = self._on_stack(key, frame, depth is not None, fn, args)
        low, tainted, cut_here, deepest, files, names, _, limited_ = frame
        if low < pos:                    # inside a cycle entered below: until its entry is done
            self._inner[key] = (res, low, res == empty)
            below = frames[low]
            if below[6] is None:
                below[6] = [key]
            else:
                below[6].append(key)
        elif limited_:
            self._deep[key] = (res, base)
        elif tainted or cut_here:
            self.local[key] = res
        else:
            share = self._shared.setdefault
            if names:
                names = frozenset(names)
                names = share(names, names)
            else:
                names = None
            self._keep(key, (res, deepest - base, share(files, files), names))
        return res

    def passing(self, key, depth: int, empty, fn, *args):
        """`fn(*args)` evaluated under `key` on the stack, as `__call__` does, its result
        kept nowhere (`Flows.elements_of`: a container's elements, asked for with many
        values, mostly once each): `key` asked again inside its own evaluation is a cycle,
        cut as any other (`empty`): the keys computed in between are kept for the unit
        only (their lowlink), and what asks for `key` gets the same value whenever it asks
        from outside the cycle, so it may be clean. The frame passes what was read, the
        depth reached and a taint on to the key below."""
        frames = self.frames
        pos = self._pos.get(key)
        if pos is not None:              # a cycle: `key` is being computed
            top = frames[-1]
            if pos < top[0]:
                top[0] = pos
            return empty
        pos = len(frames)
        return self._on_stack(key, [pos, False, False, depth, 0, None, None, False], True, fn, args)

    def _on_stack(self, key, frame: list, deep: bool, fn, args):
        """`fn(*args)` with `key` on the stack of keys being computed (`frame`: its
        lowlink, taint, cut, depth reached, files and names read); what the frame gathered
        passes on to the key below it (its depth too, with `deep`)."""
        frames = self.frames
        self._pos[key] = frame[0]
        frames.append(frame)
        try:
            res = fn(*args)
        finally:
            del self._pos[key]
            frames.pop()
            if frame[6] is not None:     # the cycles entered here are done
                inner, local = self._inner, self.local
                for k in frame[6]:
                    got = inner.pop(k)
                    if not got[2]:
                        local[k] = got[0]
        low, tainted, _cut, deepest, files, names, _, limited = frame
        if frames:
            parent = frames[-1]
            if low < parent[0]:
                parent[0] = low
            if tainted:
                parent[1] = True
            if limited:                  # asked at a depth of its own: a taint, else
                if deep:
                    parent[7] = True
                else:
                    parent[1] = True
            if deep and deepest > parent[3]:
                parent[3] = deepest
            parent[4] |= files           # (`_merge`, written out)
            if names:
                if parent[5] is None:
                    # (the frame's own set, not a copy: the parent adds to it from here
                    # on, once `compute` has kept a frozen copy of it for this key)
                    parent[5] = names
                else:
                    parent[5] |= names
        else:
            self._files |= files
            if names:
                self._names |= names
        return res

    def _keep(self, key, entry) -> None:
        clean = self.clean
        clean[key] = entry
        if len(clean) >= self.max_clean:  # a new generation: the old one is dropped
            self.old = clean
            self.clean = {}
            self._shared = {}
