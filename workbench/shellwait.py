"""Waiting for a kernel's replies in short slices, for headless notebook runs (nbclient).

nbclient waits for a cell's `execute_reply` in one long poll of the shell socket (as long
as the cell's timeout). When a cell displays into an `ipywidgets.Output` widget, nbclient's
stand-in for the browser's Output widget sends the widget's new state back to the kernel
on that same socket while the poll is waiting; now and then (a few runs in ten on a loaded
machine) the reply that arrives next does not wake the poll, and the run sits idle until the
cell's timeout runs out - the reply is there all along, and is read only then.

`slice_shell_waits(kc)` makes every wait for a shell message a series of polls of at most
`SLICE` seconds (each one looks at the socket itself when it ends), over the same total
timeout: a reply whose wake-up was lost is read within a slice instead.
"""
from __future__ import annotations

import inspect
import time
from queue import Empty

#: seconds of one poll of the shell socket: the longest a lost wake-up can delay a reply
SLICE = 0.5


def sliced(get_msg, slice_seconds: float = SLICE):
    """An async `get_msg(timeout=None)` that calls `get_msg` (a channel's, sync or async)
    with timeouts of at most `slice_seconds` until a message arrives or `timeout` (None: no
    limit) has passed; raises `queue.Empty`, as `get_msg` does, when none arrived in time."""
    async def in_slices(timeout: float | None = None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            step = slice_seconds if deadline is None else max(0.0, min(slice_seconds, deadline - time.monotonic()))
            try:
                got = get_msg(timeout=step)
                return (await got) if inspect.isawaitable(got) else got
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise
    return in_slices


def slice_shell_waits(kc, slice_seconds: float = SLICE) -> None:
    """Make the kernel client `kc` wait for shell messages in slices (see the module doc)."""
    channel = kc.shell_channel
    channel.get_msg = sliced(channel.get_msg, slice_seconds)
