# cython: language_level=3
"""Trip ruin's inner loop: rounds of a random walk on a lattice, killed below 0.

The law of the bankroll of the players not yet ruined is a vector ``f`` over lattice
indices 0, 1, ... (index i: alive, i + 1 steps from ruin).  One round moves the mass at
``i`` to ``i + steps[j]`` with chance ``probs[j]``; what lands below 0 is ruined.  The
Python side (``bjsolve.risk.trip_ruin``) runs this exactly on the strip next to the
barrier and moves the mass far from it by FFT (docs/risk.md, "Trip ruin").
"""
from libc.stdint cimport int64_t

import numpy as np


cdef double killed_steps(double* a, double* b, Py_ssize_t length, const int64_t* steps,
                         const double* probs, Py_ssize_t nnz, int rounds, int64_t hi,
                         double cut, Py_ssize_t* out_length, double* dropped) noexcept nogil:
    """``rounds`` rounds on ``a[:length]`` (``b`` a work buffer; both hold at least
    ``length + rounds * hi`` entries); the result ends in ``a[:out_length]``.  Returns
    the mass ruined.  ``steps`` ascending, ``hi = max(steps[-1], 0)``.  After each round
    the top tail of mass <= ``cut`` is dropped (its mass added to ``dropped[0]``): the
    far reach of rare large wins carries next to nothing and would widen every round."""
    cdef double ruined = 0.0, pj, tail, below
    cdef Py_ssize_t i, j, n = length, first
    cdef int64_t s
    cdef int r
    cdef double* t
    for r in range(rounds):
        for i in range(n + hi):
            b[i] = 0.0
        # one outcome at a time: b[i + s] += p a[i] over a contiguous run of i (an axpy
        # the compiler vectorises); the states i < -s land below 0, ruined
        for j in range(nnz):
            s = steps[j]
            pj = probs[j]
            first = -s if s < 0 else 0
            if first > n:
                first = n
            below = 0.0
            for i in range(first):
                below += a[i]
            ruined += pj * below
            for i in range(first, n):
                b[i + s] += pj * a[i]
        n += hi
        tail = 0.0
        while n > 1 and tail + b[n - 1] <= cut:
            tail += b[n - 1]
            n -= 1
        dropped[0] += tail
        t = a
        a = b
        b = t
    if rounds % 2 == 1:        # the result is in the caller's b: copy it back
        for i in range(n):
            b[i] = a[i]
    out_length[0] = n
    return ruined


def killed_rounds(f, steps, probs, int rounds, double cut=0.0):
    """(the alive law after ``rounds`` rounds from ``f``, the mass ruined on the way, the
    mass dropped): the walk with integer ``steps`` (ascending) of chances ``probs`` killed
    below index 0, the top tail of mass <= ``cut`` dropped after each round.  ``f``:
    float64 array; the result is at most ``len(f) + rounds * max(steps[-1], 0)`` long."""
    cdef int64_t[::1] st = np.ascontiguousarray(steps, dtype=np.int64)
    cdef double[::1] pr = np.ascontiguousarray(probs, dtype=np.float64)
    if st.shape[0] != pr.shape[0] or st.shape[0] == 0:
        raise ValueError("steps and probs must be non-empty and of one length")
    if rounds < 0:
        raise ValueError("rounds must be >= 0")
    cdef int64_t hi = max(int(st[st.shape[0] - 1]), 0)
    cdef Py_ssize_t length = len(f)
    cdef Py_ssize_t size = length + rounds * hi
    a_arr = np.zeros(max(size, 1))
    b_arr = np.zeros(max(size, 1))
    a_arr[:length] = f
    cdef double[::1] a = a_arr
    cdef double[::1] b = b_arr
    cdef Py_ssize_t out_length = length
    cdef double ruined, dropped = 0.0
    if length == 0:
        return np.zeros(0), 0.0, 0.0
    with nogil:
        ruined = killed_steps(&a[0], &b[0], length, &st[0], &pr[0], st.shape[0], rounds, hi,
                              cut, &out_length, &dropped)
    return a_arr[:out_length], ruined, dropped
