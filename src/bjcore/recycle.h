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
 * The state is `static`: every extension module that includes this header has a pool of
 * its own (_memo for the hash tables, _dealer for the distribution rows), each behind a
 * mutex because tables grow inside the solver threads.
 */
#ifndef BJSOLVE_RECYCLE_H
#define BJSOLVE_RECYCLE_H

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#define BJ_RECYCLE_LIMIT ((size_t)128 << 20)   /* bytes kept per module, at most */

namespace bj_recycle {
static std::mutex lock;
static std::unordered_map<size_t, std::vector<void*>> blocks;   /* size -> free blocks */
static size_t kept = 0;                                          /* bytes in `blocks` */
}

/* A block of `bytes` bytes (contents undefined): a recycled one if any, else malloc's.
 * Out of memory aborts, as std::vector's growth does in the kernels' noexcept code. */
static inline void* bj_block_take(size_t bytes) {
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
    void* p = std::malloc(bytes);
    if (p == NULL)
        std::abort();
    return p;
}

/* Give back a block from bj_block_take (NULL is ignored). */
static inline void bj_block_give(void* p, size_t bytes) {
    if (p == NULL)
        return;
    {
        std::lock_guard<std::mutex> guard(bj_recycle::lock);
        if (bj_recycle::kept + bytes <= BJ_RECYCLE_LIMIT) {
            bj_recycle::blocks[bytes].push_back(p);
            bj_recycle::kept += bytes;
            return;
        }
    }
    std::free(p);
}

/* Free every kept block; returns the bytes released. */
static inline size_t bj_block_release_all(void) {
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
