"""`bench.stats`: the nearest-rank percentile every benchmark reports, on known inputs."""

from __future__ import annotations

import random

import pytest

from bench import stats

HUNDRED = [float(n) for n in range(1, 101)]


def test_p99_of_a_hundred_samples_is_the_99th_smallest() -> None:
    assert stats.percentile(HUNDRED, 99) == 99.0


def test_p95_of_forty_samples_is_the_38th_smallest() -> None:
    assert stats.percentile([float(n) for n in range(1, 41)], 95) == 38.0


def test_p99_of_sixty_samples_is_the_largest() -> None:
    # ceil(0.99 * 60) = 60: with fewer than 100 samples, p99 is the worst one.
    assert stats.percentile([float(n) for n in range(1, 61)], 99) == 60.0


def test_p100_is_the_largest_sample_and_p0_the_smallest() -> None:
    assert stats.percentile(HUNDRED, 100) == 100.0
    assert stats.percentile(HUNDRED, 0) == 1.0


def test_the_median_of_an_odd_count_is_the_middle_sample() -> None:
    assert stats.median([5.0, 1.0, 3.0]) == 3.0


def test_the_median_of_an_even_count_is_the_lower_middle_sample_not_their_mean() -> None:
    assert stats.median([1.0, 2.0, 3.0, 10.0]) == 2.0


def test_the_median_is_the_p50() -> None:
    samples = [random.Random(seed).uniform(0, 100) for seed in range(37)]
    assert stats.median(samples) == stats.percentile(samples, 50)


def test_the_order_the_samples_come_in_does_not_matter() -> None:
    shuffled = HUNDRED[:]
    random.Random(31).shuffle(shuffled)
    assert stats.percentile(shuffled, 90) == stats.percentile(HUNDRED, 90) == 90.0
    assert stats.summarize(shuffled) == stats.summarize(HUNDRED)


def test_a_percentile_is_always_one_of_the_samples() -> None:
    samples = [random.Random(seed).expovariate(1.0) for seed in range(53)]
    for p in (0, 1, 12.5, 50, 90, 95, 99, 99.9, 100):
        assert stats.percentile(samples, p) in samples


def test_the_worst_outlier_does_not_move_the_p99_of_a_hundred() -> None:
    assert stats.percentile([*HUNDRED[:-1], 1e9], 99) == 99.0


def test_a_percentage_is_read_as_written_not_as_its_nearest_float() -> None:
    # 0.07 * 100 is 7.000000000000001 in floats, whose ceiling would be the 8th sample.
    assert stats.percentile(HUNDRED, 7) == 7.0
    assert stats.percentile([float(n) for n in range(1, 1001)], 99.9) == 999.0


def test_every_percentile_of_one_sample_is_that_sample() -> None:
    for p in (0, 50, 99, 100):
        assert stats.percentile([4.2], p) == 4.2
    assert stats.summarize([4.2]) == stats.Summary(1, 4.2, 4.2, 4.2, 4.2, 4.2, 4.2)


def test_no_samples_is_a_clear_error_for_every_figure() -> None:
    with pytest.raises(stats.NoSamplesError, match="p99 of no samples"):
        stats.percentile([], 99)
    with pytest.raises(stats.NoSamplesError, match="p50 of no samples"):
        stats.median([])
    with pytest.raises(stats.NoSamplesError, match="mean of no samples"):
        stats.mean([])
    with pytest.raises(stats.NoSamplesError, match="summary of no samples"):
        stats.summarize([])


def test_a_percentile_outside_0_to_100_is_refused() -> None:
    for p in (-1, 100.5, 0.99 * 1000):
        with pytest.raises(ValueError, match="between 0 and 100"):
            stats.percentile(HUNDRED, p)


def test_a_summary_of_a_hundred_samples_gives_each_figure_by_the_same_rule() -> None:
    summary = stats.summarize(HUNDRED)
    assert summary == stats.Summary(
        count=100, mean=50.5, p50=50.0, p90=90.0, p95=95.0, p99=99.0, max=100.0
    )
    assert summary.median == summary.p50


def test_a_summary_in_seconds_scales_to_milliseconds() -> None:
    summary = stats.summarize([0.001, 0.002, 0.004]).scaled(1000)
    assert (summary.p50, summary.p90, summary.p99, summary.max) == (2.0, 4.0, 4.0, 4.0)
    assert summary.mean == pytest.approx(7 / 3)
