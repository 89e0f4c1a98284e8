# The trip-ruin kernel: rounds of a lattice walk killed below 0 (see _ruin.pyx).
from libc.stdint cimport int64_t
cdef double killed_steps(double* a, double* b, Py_ssize_t length, const int64_t* steps,
                         const double* probs, Py_ssize_t nnz, int rounds, int64_t hi,
                         double cut, Py_ssize_t* out_length, double* dropped) noexcept nogil
