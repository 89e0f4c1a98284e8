/* The kernels' one allocation policy (docs/algorithms.md, "Out of memory").
 *
 * Every allocation inside a kernel either succeeds or throws std::bad_alloc: the
 * containers' growth (std::vector, std::unordered_map, declared in _alloc.pxd without
 * Cython's `except +`, so that nothing converts the exception half-way), the recycled
 * blocks of recycle.h and any raw block (bj_alloc below).  Nothing aborts, nothing returns
 * NULL to a caller that would carry on.  The exception unwinds the recursion (its frames
 * hold no Python object and no lock: the kernels run without the GIL, and recycle.h's lock
 * is a scoped guard) up to the Python edge, where each call into a kernel is wrapped in
 * BJ_GUARD: declared `except +MemoryError` in _alloc.pxd, it makes Cython catch the C++
 * exception right there, inside the `with nogil` block, and raise MemoryError once it
 * holds the GIL again.  The caller then drops or resets whatever state the unwound call
 * left half-built, so the object stays usable: the engines (UpcardEngine: its state,
 * _engine.Engine) through Engine.out_of_memory, which forgets their memo tables
 * (Engine.forget); the round laws through RoundLaws.forget
 * (SpotMoments.forget also goes back to its first pass); a chart being frozen
 * (DecisionSignatures.freeze) leaves the engine's policy empty.
 */
#ifndef BJSOLVE_ALLOC_H
#define BJSOLVE_ALLOC_H

#include <cstddef>
#include <cstdlib>
#include <exception>
#include <new>

/* `bytes` bytes from malloc, or std::bad_alloc. */
static inline void* bj_alloc(size_t bytes) {
    void* p = std::malloc(bytes);
    if (p == NULL)
        throw std::bad_alloc();
    return p;
}

/* Make the calling thread ready to throw.  The C++ runtime keeps its exception state in
 * thread-local storage of libstdc++, a library loaded with the kernels (dlopen): glibc
 * gives a thread that block the first time the thread uses it, with malloc, and if that
 * malloc fails it ends the process ("cannot allocate memory for thread-local data:
 * ABORT", exit 127) instead of failing the throw.  Without this, the first std::bad_alloc
 * a thread threw was that first use, at the worst moment: memory exhausted, a MemoryError
 * due, the process killed instead (seen under RLIMIT_AS on a solve's worker thread).
 * Reading the exception state on the way into every kernel call makes the first use
 * happen while memory is still there; afterwards it is one read of thread-local data. */
static inline void bj_prepare_thread(void) {
    /* volatile: the runtime declares the function pure, and a discarded pure call is
     * dropped by the compiler */
    volatile int in_flight = std::uncaught_exceptions();
    (void)in_flight;
}

/* The guards: the kernel call is their argument, so that Cython evaluates it inside the
 * try block it writes for an `except +` function (see _alloc.pxd); the thread is made
 * ready to throw first (bj_prepare_thread). */
#define BJ_GUARD(call) (bj_prepare_thread(), (call))
#define BJ_GUARD_VOID(call) (bj_prepare_thread(), (void)(call))

#endif
