"""The timing helpers the benchmark scripts share."""
import statistics
import time


def median_time(fn, repeat, keep=False):
    """(median, minimum) seconds of ``repeat`` calls of ``fn`` after one warm-up call (which
    builds the cached dealer draw tries and anything else done once per process); with
    ``keep``, the list of the seconds instead."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times if keep else (statistics.median(times), min(times))


def median_cpu(fn, repeat):
    """Median process CPU seconds of ``repeat`` calls (after a warm-up): on a shared machine
    the wall time of a one-thread run includes the time other processes held the core."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)
