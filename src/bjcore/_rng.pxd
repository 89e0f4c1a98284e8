# The simulators' random generator: xoshiro256** seeded through splitmix64, one stream per
# (seed, chunk, salt).  Inline functions only (no module of its own): bjcore._simulate and
# bjcore._switch_sim cimport it; each passes its own salt, so their streams stay apart.
from libc.stdint cimport uint32_t, uint64_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t next_u64(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = rotl(r.s3, 45)
    return result


cdef inline void seed_rng(Rng* r, uint64_t seed, uint64_t chunk, uint64_t salt) noexcept nogil:
    """Chunk k of seed s: four splitmix64 outputs from a start mixing s, k and the salt."""
    cdef uint64_t a = seed
    cdef uint64_t b = chunk ^ salt
    cdef uint64_t x = splitmix64(&a) ^ rotl(splitmix64(&b), 32)
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


cdef inline uint32_t below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) without bias (Lemire's multiply-and-reject)."""
    cdef uint64_t m = (next_u64(r) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = (next_u64(r) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)
