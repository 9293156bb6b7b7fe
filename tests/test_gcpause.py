"""`gc_paused` switches the cyclic collector off inside its block and restores the state it found."""
import gc

from workbench.gcpause import gc_paused


def test_pauses_and_restores():
    gc.enable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert gc.isenabled()
    finally:
        gc.enable()


def test_nested_and_disabled_outside_stay_disabled():
    gc.disable()
    try:
        with gc_paused():
            with gc_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert not gc.isenabled()        # it was off before: it stays off
    finally:
        gc.enable()


def test_restores_after_an_exception():
    gc.enable()
    try:
        try:
            with gc_paused():
                raise ValueError("boom")
        except ValueError:
            pass
        assert gc.isenabled()
    finally:
        gc.enable()


def test_collector_runs_sees_through_open_blocks():
    from workbench.gcpause import collector_runs
    gc.enable()
    try:
        assert collector_runs()
        with gc_paused():
            with gc_paused():
                assert not gc.isenabled() and collector_runs()   # paused here, runs after
        gc.disable()                     # a program that turned it off for good
        assert not collector_runs()
        with gc_paused():
            assert not collector_runs()
    finally:
        gc.enable()
