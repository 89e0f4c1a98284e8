"""The one timing helper the benchmark scripts share."""
import statistics
import time


def median_time(fn, repeat):
    """(median, minimum) seconds of ``repeat`` calls of ``fn`` after one warm-up call (which
    builds the cached dealer draw tries and anything else done once per process)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)
