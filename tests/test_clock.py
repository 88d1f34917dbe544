"""Tests of gammon.clock: the game clock as a value (R13), the time always given, never read."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.clock import Clock
from gammon.errors import InvalidClockError


def test_a_new_clock_runs_for_nobody_and_charges_nothing() -> None:
    clock = Clock.start(base_s=90, delay_s=3, increment_s=2)
    assert clock.reserves == (90_000.0, 90_000.0)
    assert clock.running is None and clock.deadline() is None
    assert clock.remaining(1e9) == (90_000.0, 90_000.0)
    assert clock.flagged(1e9) is None
    assert clock.used_ms(1e9) == 0.0


def test_the_delay_is_free_then_the_reserve_runs_down() -> None:
    clock = Clock.start(base_s=60, delay_s=5).press(1000.0, to=1)
    assert clock.remaining(1005.0) == (60_000.0, 60_000.0)  # the whole delay: free
    assert clock.remaining(1006.25) == (60_000.0, 58_750.0)
    assert clock.used_ms(1006.25) == 1250.0
    assert clock.deadline() == 1065.0
    assert clock.flagged(1064.999) is None
    assert clock.flagged(1065.0) == 1
    assert clock.remaining(2000.0) == (60_000.0, 0.0)  # never below zero


def test_press_charges_the_runner_and_starts_the_next_side() -> None:
    clock = Clock.start(base_s=60, increment_s=2).press(10.0, to=0)
    after = clock.press(17.5, to=1, earned=True)
    assert after.reserves == (60_000.0 - 7_500.0 + 2_000.0, 60_000.0)
    assert (after.running, after.since) == (1, 17.5)
    # An action that earns nothing (a resignation, say) pays without the increment.
    unearned = clock.press(17.5, to=1)
    assert unearned.reserves == (52_500.0, 60_000.0)
    # The value is immutable: pressing made new clocks.
    assert clock.reserves == (60_000.0, 60_000.0) and clock.running == 0


def test_a_side_that_used_up_its_reserve_keeps_zero_plus_its_increment() -> None:
    clock = Clock.start(base_s=1, increment_s=3).press(0.0, to=0)
    assert clock.press(50.0, to=1, earned=True).reserves == (3_000.0, 1_000.0)


def test_with_no_clock_running_press_only_sets_when_the_next_turn_starts() -> None:
    clock = Clock.start(base_s=10, increment_s=5)
    pressed = clock.press(42.0, to=None, earned=True)
    assert pressed.reserves == clock.reserves and pressed.running is None
    assert pressed.since == 42.0


def test_stopping_the_clock_charges_the_runner_and_nobody_after() -> None:
    clock = Clock.start(base_s=30).press(0.0, to=1).press(4.0, to=None)
    assert clock.reserves == (30_000.0, 26_000.0)
    assert clock.remaining(1000.0) == (30_000.0, 26_000.0)
    assert clock.flagged(1000.0) is None


def test_a_recorded_reserve_and_a_resumed_turn() -> None:
    """A replay sets the reserves a record kept; a restart charges nobody for the downtime."""
    clock = Clock.start(base_s=60, delay_s=1).press(100.0, to=0)
    restored = clock.with_reserves((12_345, 6_789)).resumed(5000.0)
    assert restored.reserves == (12_345.0, 6_789.0)
    assert restored.remaining(5001.0) == (12_345.0, 6_789.0)  # only the delay has passed
    assert restored.deadline() == pytest.approx(5000.0 + 1 + 12.345)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"base_s": -1}, "the clock's reserve must be a number of seconds"),
        ({"base_s": 60, "delay_s": math.nan}, "the clock's delay must be"),
        ({"base_s": 60, "increment_s": "2"}, "the clock's increment must be"),
        ({"base_s": True}, "the clock's reserve must be"),
        ({"base_s": 10**9}, "from 0 to 31622400, got 1000000000"),
    ],
)
def test_settings_out_of_range_are_refused_by_name(
    arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidClockError, match=message):
        Clock.start(**arguments)  # type: ignore[arg-type]


def test_a_clock_runs_only_for_side_0_1_or_nobody() -> None:
    with pytest.raises(InvalidClockError, match="side 0 or 1, or for nobody, not 2"):
        Clock.start(base_s=5).press(0.0, to=2)
    assert issubclass(InvalidClockError, ValueError)


# -- properties over random turns ------------------------------------------------------------

_turns = st.lists(
    st.tuples(
        st.floats(0.0, 50.0, allow_nan=False),  # seconds the turn lasts
        st.booleans(),  # whether the action earns the increment
        st.sampled_from([0, 1, None]),  # whose clock runs next
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(
    base=st.integers(0, 600),
    delay=st.integers(0, 10),
    increment=st.integers(0, 10),
    first=st.sampled_from([0, 1]),
    turns=_turns,
)
def test_every_turn_costs_what_it_used_past_the_delay(
    base: int, delay: int, increment: int, first: int, turns: list[tuple[float, bool, int | None]]
) -> None:
    """Reserves never go below zero, only the running side pays, and it pays exactly its
    time past the delay (capped at what it had) less any increment it earned; ``remaining``
    and ``flagged`` agree with the press that would end the turn then."""
    now = 1_000.0
    clock = Clock.start(base, delay, increment).press(now, to=first)
    for seconds, earned, to in turns:
        runner = clock.running
        at = now + seconds
        # remaining(at) is what press(at) leaves before the increment.
        ended = clock.press(at, to=to)
        assert ended.reserves == clock.remaining(at)
        if runner is not None:
            flagged = clock.flagged(at)
            assert flagged in (runner, None)
            if flagged is None:
                assert clock.remaining(at)[runner] > 0.0 or seconds <= delay
            else:
                assert clock.remaining(at)[runner] == pytest.approx(0.0, abs=1e-6)
        pressed = clock.press(at, to=to, earned=earned)
        for side in (0, 1):
            before, after = clock.reserves[side], pressed.reserves[side]
            assert after >= 0.0
            if side != runner:
                assert after == before
            else:
                paid = min(before, max(0.0, seconds - delay) * 1000.0)
                bonus = increment * 1000.0 if earned else 0.0
                assert after == pytest.approx(before - paid + bonus)
        assert (pressed.running, pressed.since) == (to, at)
        clock, now = pressed, at


@settings(max_examples=200, deadline=None)
@given(
    base=st.integers(1, 600),
    delay=st.integers(0, 10),
    start=st.floats(0.0, 1e9, allow_nan=False),
    times=st.lists(st.floats(0.0, 2_000.0, allow_nan=False), min_size=2, max_size=10),
)
def test_the_running_reserve_only_runs_down_and_flags_at_the_deadline(
    base: int, delay: int, start: float, times: list[float]
) -> None:
    clock = Clock.start(base, delay).press(start, to=0)
    deadline = clock.deadline()
    assert deadline is not None
    seen = [clock.remaining(start + t)[0] for t in sorted(times)]
    assert seen == sorted(seen, reverse=True)
    for t in times:
        assert clock.remaining(start + t)[1] == base * 1000.0
        assert (clock.flagged(start + t) == 0) == (start + t >= deadline)
