"""The one percentile every benchmark reports, and the summaries built on it.

**Definition: the nearest-rank percentile.** The p-th percentile of n samples is the k-th
smallest of them, k = ceil(p / 100 * n) (and at least 1): the smallest sample that at least p%
of the samples are at or below. So p99 of 100 samples is the 99th smallest, p100 the largest,
and the median is p50: for an even count, the lower of the two middle samples (not their mean,
as `statistics.median` gives), so one table's "median" and another's "p50" are one figure.

Why this one rather than an interpolating definition (numpy's default, `statistics.quantiles`):
- it is always a sample that was measured, a request that really took that long; an
  interpolated p99 in a latency tail, where samples are few and far apart, reports a time
  that no request took;
- it is what latency tools report (HdrHistogram, wrk2), so figures compare with theirs;
- the worst outlier does not move it: an interpolated p99 of 100 samples lies between the
  99th smallest and the largest, and moves with the largest (by 1% of the gap with numpy's
  default, by 99% with `statistics.quantiles`' default); this one is the 99th smallest;
- it is checkable by hand from the sorted samples.

The rank is computed in exact arithmetic from the percentage as written (99.9 is 999/1000):
in floats, 0.07 * 100 is 7.000000000000001, whose ceiling would be the 8th sample.

Before issue 31 the benchmarks used four definitions; bench/README.md says which published
figures that touches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


class NoSamplesError(ValueError):
    """A figure was asked of no samples: there is no honest number to give."""


def _rank(count: int, p: float) -> int:
    """The 1-based rank of the p-th percentile among `count` sorted samples."""
    if not 0 <= p <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {p}")
    return max(1, math.ceil(Fraction(str(p)) * count / 100))


def _sorted(samples: Sequence[float], figure: str) -> list[float]:
    if not samples:
        raise NoSamplesError(f"the {figure} of no samples")
    return sorted(samples)


def percentile(samples: Sequence[float], p: float) -> float:
    """The nearest-rank p-th percentile (0 <= p <= 100) of `samples`, in any order."""
    ordered = _sorted(samples, f"p{p:g}")
    return ordered[_rank(len(ordered), p) - 1]


def median(samples: Sequence[float]) -> float:
    """The p50: the middle sample, or the lower of the two middle ones."""
    return percentile(samples, 50)


def mean(samples: Sequence[float]) -> float:
    if not samples:
        raise NoSamplesError("the mean of no samples")
    return math.fsum(samples) / len(samples)


@dataclass(frozen=True)
class Summary:
    """The figures the benchmarks print of a set of samples, in the samples' unit."""

    count: int
    mean: float
    p50: float
    p90: float
    p95: float
    p99: float
    max: float

    @property
    def median(self) -> float:
        return self.p50

    def scaled(self, factor: float) -> Summary:
        """The same figures in another unit (seconds to milliseconds: 1000)."""
        return Summary(
            self.count,
            self.mean * factor,
            self.p50 * factor,
            self.p90 * factor,
            self.p95 * factor,
            self.p99 * factor,
            self.max * factor,
        )


def summarize(samples: Sequence[float]) -> Summary:
    """Every figure of `Summary` from one sort of the samples."""
    ordered = _sorted(samples, "summary")

    def at(p: float) -> float:
        return ordered[_rank(len(ordered), p) - 1]

    return Summary(
        count=len(ordered),
        mean=math.fsum(ordered) / len(ordered),
        p50=at(50),
        p90=at(90),
        p95=at(95),
        p99=at(99),
        max=ordered[-1],
    )
