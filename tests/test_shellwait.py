"""Headless notebook runs wait for kernel replies in slices (workbench.shellwait)."""
from __future__ import annotations

import asyncio
import time
from queue import Empty

import nbformat
import pytest

from workbench.shellwait import sliced


class LostWakeups:
    """A shell channel whose poll is never woken by a message: a wait only looks at the
    socket when its own timeout ends (what nbclient's long wait sees when the wake-up
    is lost). The reply arrives `after` seconds from now."""

    def __init__(self, after: float):
        self.arrives = time.monotonic() + after
        self.polls = []

    async def get_msg(self, timeout=None):
        self.polls.append(timeout)
        await asyncio.sleep(timeout)
        if time.monotonic() >= self.arrives:
            return {"msg_type": "execute_reply"}
        raise Empty


def test_a_reply_whose_wake_up_was_lost_is_read_within_a_slice_not_at_the_timeout():
    ch = LostWakeups(after=0.2)
    t0 = time.monotonic()
    msg = asyncio.run(sliced(ch.get_msg, 0.1)(timeout=60))
    assert msg == {"msg_type": "execute_reply"}
    assert time.monotonic() - t0 < 10            # one long poll would have taken the full 60 s
    assert all(t <= 0.1 for t in ch.polls) and len(ch.polls) >= 2


def test_without_a_message_the_wait_still_ends_at_its_timeout_with_empty():
    ch = LostWakeups(after=3600)
    t0 = time.monotonic()
    with pytest.raises(Empty):
        asyncio.run(sliced(ch.get_msg, 0.1)(timeout=0.35))
    assert 0.35 <= time.monotonic() - t0 < 5
    # in slices, none past the deadline (each slice is what is left of the timeout: a
    # loaded machine's late wake-ups make the slices sum to less, never more)
    assert all(0 <= t <= 0.1 for t in ch.polls) and sum(ch.polls) <= 0.35 + 1e-9


def test_a_sync_channel_and_no_timeout_are_handled():
    calls = []

    def get_msg(timeout=None):
        calls.append(timeout)
        if len(calls) < 3:
            raise Empty
        return "reply"
    assert asyncio.run(sliced(get_msg, 0.01)(timeout=None)) == "reply"
    assert calls == [0.01, 0.01, 0.01]


def test_execute_slices_the_shell_waits_and_runs_an_output_widget_cell(tmp_path, monkeypatch):
    import workbench.shellwait as shellwait
    from workbench.notebooks import execute
    seen = []
    real = shellwait.slice_shell_waits

    def spy(kc, *args):
        real(kc, *args)
        seen.append(kc.shell_channel.get_msg)
    monkeypatch.setattr(shellwait, "slice_shell_waits", spy)
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    nb.cells = [nbformat.v4.new_code_cell("import ipywidgets as W\nout = W.Output()\n"
                                          "with out:\n    print('inside the widget')\nout"),
                nbformat.v4.new_code_cell("print('after')")]
    path = tmp_path / "widget.ipynb"
    nbformat.write(nb, path)
    r = execute(path, timeout=120, raise_errors=False)
    assert r.ok, r.error
    assert len(seen) == 1 and seen[0].__name__ == "in_slices"
    assert "after" in r.nb.cells[1].outputs[0]["text"]
