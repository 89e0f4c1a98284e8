/* What the kernels' C++ takes from the compiler beyond standard C++17, in one place
 * (docs/algorithms.md, "Build portability").
 *
 * GCC and Clang (which defines __GNUC__ too) get the fast path: vector types of four
 * doubles (vector_size), which each compiler lowers to one AVX2 or two SSE2 instructions
 * per operation, lane by lane.  Any other compiler (MSVC) gets the same types as plain
 * structs of four doubles with the same operators, lane by lane: slower, but the same IEEE
 * operations in the same order, so the same values bit for bit.  Defining
 * BJ_SCALAR_FALLBACK selects the structs under GCC or Clang too (to test them).
 *
 * The kernels read and write the vector types only through bj_load4 / bj_store4 (unaligned,
 * from double tables), never by casting a double pointer: that is what lets the fallback
 * be a struct without breaking the aliasing rules.
 */
#ifndef BJSOLVE_PORTABLE_H
#define BJSOLVE_PORTABLE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

/* a hint to start loading an address (none where the compiler has no such built-in) */
#ifndef BJ_PREFETCH
#if defined(__GNUC__)
#define BJ_PREFETCH(p) __builtin_prefetch((const void*)(p))
#else
#define BJ_PREFETCH(p) ((void)(p))
#endif
#endif

#if defined(__GNUC__)
#define BJ_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define BJ_ALWAYS_INLINE __forceinline
#else
#define BJ_ALWAYS_INLINE inline
#endif

#if defined(__GNUC__) && !defined(BJ_SCALAR_FALLBACK)

/* Four lanes as one value.  Unaligned, may alias the double tables it is read from. */
typedef double bj_v4 __attribute__((vector_size(32), aligned(8), may_alias));
typedef double bj_v2 __attribute__((vector_size(16), aligned(8), may_alias));
/* lane masks, as a comparison of two bj_v4 gives them: -1 (true) or 0 per lane */
typedef int64_t bj_m4 __attribute__((vector_size(32)));

/* (macros, not functions: a 32-byte vector passed by value to a function that is not
 * inlined changes with the instruction set, and GCC and Clang warn so) */
#define bj_load4(p) (*(const bj_v4*)(p))
#define bj_store4(p, x) ((void)(*(bj_v4*)(p) = (x)))
#define bj_load2(p) (*(const bj_v2*)(p))
#define bj_store2(p, x) ((void)(*(bj_v2*)(p) = (x)))
/* per lane: mask ? a : b */
#define bj_select4(mask, a, b) ((mask) ? (a) : (b))

/* Lanes I0..I3 of the eight lanes of a then b (0-3: a's, 4-7: b's).  GCC spells a
 * two-input shuffle __builtin_shuffle(a, b, mask vector); Clang spells it
 * __builtin_shufflevector(a, b, constant indices), which GCC knows only from GCC 12. */
#if defined(__clang__)
#define BJ_SHUFFLE4(a, b, I0, I1, I2, I3) __builtin_shufflevector(a, b, I0, I1, I2, I3)
#else
#define BJ_SHUFFLE4(a, b, I0, I1, I2, I3) __builtin_shuffle(a, b, (bj_m4){I0, I1, I2, I3})
#endif

#else   /* the scalar fallback */

struct bj_v4 {
    double v[4];
    double operator[](int i) const { return v[i]; }
};
struct bj_v2 {
    double v[2];
};
struct bj_m4 {
    int64_t v[4];
    int64_t operator[](int i) const { return v[i]; }
};

static BJ_ALWAYS_INLINE bj_v4 bj_load4(const double* p) { bj_v4 r; memcpy(r.v, p, sizeof r.v); return r; }
static BJ_ALWAYS_INLINE void bj_store4(double* p, bj_v4 x) { memcpy(p, x.v, sizeof x.v); }
static BJ_ALWAYS_INLINE bj_v2 bj_load2(const double* p) { bj_v2 r; memcpy(r.v, p, sizeof r.v); return r; }
static BJ_ALWAYS_INLINE void bj_store2(double* p, bj_v2 x) { memcpy(p, x.v, sizeof x.v); }

static BJ_ALWAYS_INLINE bj_v4 operator*(bj_v4 a, bj_v4 b) {
    bj_v4 r = {{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}};
    return r;
}
static BJ_ALWAYS_INLINE bj_v4 operator+(bj_v4 a, bj_v4 b) {
    bj_v4 r = {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}};
    return r;
}
static BJ_ALWAYS_INLINE bj_v4 operator-(bj_v4 a, bj_v4 b) {
    bj_v4 r = {{a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3]}};
    return r;
}
static BJ_ALWAYS_INLINE bj_v4 operator*(double m, bj_v4 a) {
    bj_v4 r = {{m * a.v[0], m * a.v[1], m * a.v[2], m * a.v[3]}};
    return r;
}
static BJ_ALWAYS_INLINE bj_v4 operator*(bj_v4 a, double m) {
    bj_v4 r = {{a.v[0] * m, a.v[1] * m, a.v[2] * m, a.v[3] * m}};
    return r;
}
static BJ_ALWAYS_INLINE bj_v4& operator+=(bj_v4& a, bj_v4 b) {
    for (int i = 0; i < 4; ++i)
        a.v[i] += b.v[i];
    return a;
}
static BJ_ALWAYS_INLINE bj_v2 operator*(bj_v2 a, double m) {
    bj_v2 r = {{a.v[0] * m, a.v[1] * m}};
    return r;
}
static BJ_ALWAYS_INLINE bj_v2& operator+=(bj_v2& a, bj_v2 b) {
    a.v[0] += b.v[0];
    a.v[1] += b.v[1];
    return a;
}
static BJ_ALWAYS_INLINE bj_m4 operator>(bj_v4 a, bj_v4 b) {
    bj_m4 r;
    for (int i = 0; i < 4; ++i)
        r.v[i] = a.v[i] > b.v[i] ? -1 : 0;
    return r;
}
static BJ_ALWAYS_INLINE bj_m4& operator|=(bj_m4& a, bj_m4 b) {
    for (int i = 0; i < 4; ++i)
        a.v[i] |= b.v[i];
    return a;
}
static BJ_ALWAYS_INLINE bj_v4 bj_select4(bj_m4 mask, bj_v4 a, bj_v4 b) {
    bj_v4 r;
    for (int i = 0; i < 4; ++i)
        r.v[i] = mask.v[i] ? a.v[i] : b.v[i];
    return r;
}
static BJ_ALWAYS_INLINE double bj_lane_of(bj_v4 a, bj_v4 b, int i) {
    return i < 4 ? a.v[i] : b.v[i - 4];
}
#define BJ_SHUFFLE4(a, b, I0, I1, I2, I3) \
    (bj_v4{{bj_lane_of(a, b, I0), bj_lane_of(a, b, I1), bj_lane_of(a, b, I2), bj_lane_of(a, b, I3)}})

#endif

/* The number of bits up to the highest set one (0 for 0): 32 - count of leading zeros. */
#if defined(__GNUC__)
static inline int bj_bit_width(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }
#elif defined(_MSC_VER)
#include <intrin.h>
static inline int bj_bit_width(uint32_t x) {
    unsigned long index;
    return _BitScanReverse(&index, x) ? (int)index + 1 : 0;
}
#else
static inline int bj_bit_width(uint32_t x) {
    int n = 0;
    for (; x; x >>= 1)
        ++n;
    return n;
}
#endif

#endif
