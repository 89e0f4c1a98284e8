/* Recycled memory blocks for the memo tables (docs/algorithms.md, "Memory between solves").
 *
 * A solve fills tables of 10^4 to 10^6 entries and drops them with its Solution.  Handed
 * back to malloc, those blocks are soon returned to the system, and the next solve takes
 * a page fault (the kernel zeroing a fresh page) for every page it touches again: 10-15%
 * of a warm solve's time, and the page-fault path is serialised between the threads of
 * one process.  So freed blocks are kept here, by exact size, up to BJ_RECYCLE_LIMIT bytes
 * in all, and handed out again to the next table of that size.  Every table's capacity is
 * a power of two, so the sizes recur from solve to solve.
 *
 * One pool serves the process: only _memo includes this header, and the other kernels
 * (_dealer's distribution rows) call _memo's block_take / block_give.  The pool sits
 * behind a mutex because tables grow inside the solver threads.  Nothing happens when the
 * module is loaded: the fork handlers below are registered the first time the pool is used.
 */
#ifndef BJSOLVE_RECYCLE_H
#define BJSOLVE_RECYCLE_H

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "alloc.h"

#if defined(__has_include)
#if __has_include(<pthread.h>)
#include <pthread.h>
#define BJ_HAVE_PTHREAD_ATFORK 1
#endif
#endif

#define BJ_RECYCLE_LIMIT ((size_t)256 << 20)   /* bytes kept, at most */

namespace bj_recycle {
static std::mutex lock;
static std::unordered_map<size_t, std::vector<void*>> blocks;   /* size -> free blocks */
static size_t kept = 0;                                          /* bytes in `blocks` */
static std::once_flag used;

/* A process that forks while another thread holds the lock would leave the child's copy
 * locked for ever: hold it across fork() and release it on both sides.  Registered on the
 * pool's first use (a process that never solves gets no handler), once per process. */
static void before_fork(void) { lock.lock(); }
static void after_fork(void) { lock.unlock(); }
static void register_fork_handlers(void) {
#ifdef BJ_HAVE_PTHREAD_ATFORK
    pthread_atfork(before_fork, after_fork, after_fork);
#endif
}
static inline void first_use(void) { std::call_once(used, register_fork_handlers); }
}

/* A block of `bytes` bytes (contents undefined): a recycled one if any, else malloc's.
 * Out of memory throws std::bad_alloc (alloc.h). */
static inline void* bj_block_take(size_t bytes) {
    bj_recycle::first_use();
    {
        std::lock_guard<std::mutex> guard(bj_recycle::lock);
        auto it = bj_recycle::blocks.find(bytes);
        if (it != bj_recycle::blocks.end() && !it->second.empty()) {
            void* p = it->second.back();
            it->second.pop_back();
            bj_recycle::kept -= bytes;
            return p;
        }
    }
    return bj_alloc(bytes);
}

/* Give back a block from bj_block_take (NULL is ignored).  Never throws (destructors
 * call it): a block the pool has no room to list is freed. */
static inline void bj_block_give(void* p, size_t bytes) noexcept {
    if (p == NULL)
        return;
    try {
        bj_recycle::first_use();
        std::lock_guard<std::mutex> guard(bj_recycle::lock);
        if (bj_recycle::kept + bytes <= BJ_RECYCLE_LIMIT) {
            bj_recycle::blocks[bytes].push_back(p);
            bj_recycle::kept += bytes;
            return;
        }
    } catch (...) {
        /* out of memory for the pool's own list (or no lock): free the block instead */
    }
    std::free(p);
}

/* Free every kept block; returns the bytes released. */
static inline size_t bj_block_release_all(void) {
    /* (no first_use: a pool never taken from holds nothing, and asking must not register
     * the fork handlers, docs/algorithms.md "Side effects") */
    std::lock_guard<std::mutex> guard(bj_recycle::lock);
    size_t released = bj_recycle::kept;
    for (auto& entry : bj_recycle::blocks)
        for (void* p : entry.second)
            std::free(p);
    bj_recycle::blocks.clear();
    bj_recycle::kept = 0;
    return released;
}

/* Bytes currently kept for reuse. */
static inline size_t bj_block_kept(void) {
    std::lock_guard<std::mutex> guard(bj_recycle::lock);
    return bj_recycle::kept;
}

#endif
