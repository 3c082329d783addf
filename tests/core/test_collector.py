"""collector_paused: the cyclic collector is off inside and left as it was found after."""

from __future__ import annotations

import gc

import pytest

from firefight.core.collector import collector_paused


@collector_paused
def _inside(fail: bool = False) -> bool:
    if fail:
        raise ValueError("boom")
    return gc.isenabled()


def test_paused_inside_and_back_on_after_even_on_error() -> None:
    assert gc.isenabled()
    assert _inside() is False
    assert gc.isenabled()
    with pytest.raises(ValueError, match="boom"):
        _inside(fail=True)
    assert gc.isenabled()


def test_left_off_when_it_was_off() -> None:
    gc.disable()
    try:
        assert _inside() is False
        assert not gc.isenabled()
    finally:
        gc.enable()
