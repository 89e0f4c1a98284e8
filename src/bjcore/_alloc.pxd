# The kernels' allocation policy (alloc.h; docs/algorithms.md, "Out of memory"): what
# allocates throws std::bad_alloc, which unwinds the kernel call to its guard at the
# Python edge, where Cython raises MemoryError.
#
# ``vector`` is std::vector declared *without* Cython's ``except +`` on its growing
# methods: libcpp.vector's ``except +`` makes Cython catch a failed growth in the
# ``noexcept`` kernel function that grew it, print "Exception ignored" and return a
# made-up value (the solve went on with a wrong EV or crashed).  Declared plainly, the
# exception passes through the kernel's frames to the guard.  Kernel modules cimport
# ``vector`` from here, never from libcpp.
from libc.stddef cimport size_t


cdef extern from "alloc.h":
    void* checked_alloc "bj_alloc"(size_t nbytes) nogil

    # The guards: ``guard(self.kernel(...))`` inside ``with nogil`` (or with the GIL held)
    # runs the kernel call and turns std::bad_alloc (any C++ exception) into MemoryError.
    # The argument must be the kernel call itself, a C call with no Python object in it.
    double guard_double "BJ_GUARD"(double value) except +MemoryError nogil
    int guard_int "BJ_GUARD"(int value) except +MemoryError nogil
    void* guard_ptr "BJ_GUARD"(void* value) except +MemoryError nogil
    void guard "BJ_GUARD_VOID"(...) except +MemoryError nogil


cdef extern from "<vector>" namespace "std" nogil:
    cdef cppclass vector[T]:
        vector()
        T& operator[](size_t)
        T& back()
        T* data()
        size_t size()
        size_t capacity()
        bint empty()
        void clear()
        void swap(vector&)
        void assign(size_t, const T&)
        void push_back(const T&)
        void resize(size_t)
        void resize(size_t, const T&)
        void reserve(size_t)
        void shrink_to_fit()
