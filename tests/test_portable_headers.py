"""The scalar fallback of src/bjcore/portable.h (what a compiler without GCC's vector types,
MSVC, builds) gives the vector path's values bit for bit.

A small C++ program runs every function of trie_pass.h and pair_group_pass.h on tables of
pseudo-random numbers and prints every double it wrote, as bits; it is compiled twice
with the C++ compiler found here, once as is and once with -DBJ_SCALAR_FALLBACK.  The two
outputs must be equal: the same IEEE operations in the same order, lane by lane.
"""
import os
import shutil
import subprocess
import sysconfig

import pytest

HEADERS = os.path.join(os.path.dirname(__file__), os.pardir, "src", "bjcore")

PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "pair_group_pass.h"

static double factor[1 << 12], inv[1 << 12], prod[1 << 12], acc[1 << 14], out[1 << 12];
static unsigned long long state = 12345;
static double next_unit(void) {   /* a fixed linear congruential sequence in [0, 1) */
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 9007199254740992.0;
}
static void print_bits(const double* x, int n) {
    for (int i = 0; i < n; ++i) {
        unsigned long long u;
        memcpy(&u, &x[i], sizeof u);
        printf("%016llx\n", u);
    }
}

int main(void) {
    enum { N = 200, FACTORS = 20, DEPTH = 8 };
    bj_trie_node nd[N];
    bj_node_offsets off[N];
    int16_t bucket[N];
    for (int i = 0; i < N; ++i) {
        nd[i].mult = (i % 3) ? (double)(1 + i % 5) : 0.0;
        nd[i].skip = i + 1;
        nd[i].factor = (int16_t)(i % FACTORS);
        nd[i].depth = (int8_t)(1 + i % DEPTH);
        nd[i].outcome = (int8_t)(i % 6);
        bucket[i] = (int16_t)(i % 24);
        off[i].mult = nd[i].mult;
        off[i].factor = (i % FACTORS) * BJ_TRIE_STRIDE;
        off[i].outcome = (i % 6) * BJ_TRIE_STRIDE;
        off[i].parent = (i % DEPTH) * BJ_TRIE_STRIDE;
        off[i].depth = (1 + i % DEPTH) * BJ_TRIE_STRIDE;
        off[i].kind = i % 3;
        off[i].skip = i + 1;
    }
    double weights[10 * BJ_TRIE_STRIDE], totals[BJ_TRIE_STRIDE];
    for (int i = 0; i < 10 * BJ_TRIE_STRIDE; ++i)
        weights[i] = (double)(int)(30 * next_unit());
    for (int k = 0; k < BJ_TRIE_STRIDE; ++k)
        totals[k] = 300.0 + (double)(int)(10 * next_unit());
    int8_t rank[FACTORS], prior[FACTORS];
    for (int i = 0; i < FACTORS; ++i) {
        rank[i] = (int8_t)(i % 10);
        prior[i] = (int8_t)(i / 10);
    }
    unsigned char any_left[FACTORS];
    for (int i = 0; i < (1 << 12); ++i)
        prod[i] = next_unit();
    /* 1.0 / x for whole x, as DealerTrie passes it: the inverse rows it gives must be
     * the bits the division gives */
    static double recip[512], inv_divided[1 << 12];
    for (int x = 0; x < 512; ++x)
        recip[x] = x ? 1.0 / (double)x : 0.0;
    int recip_same = 1;
    for (int lanes = 4; lanes <= 64; lanes *= 2) {
        for (int rank_major = 0; rank_major <= 1; ++rank_major) {
            bj_trie_tables(weights, totals, lanes - 1, 0, rank, prior, FACTORS, DEPTH,
                           factor, any_left, inv, lanes, rank_major, NULL);
            memcpy(inv_divided, inv, sizeof inv);
            bj_trie_tables(weights, totals, lanes - 1, 0, rank, prior, FACTORS, DEPTH,
                           factor, any_left, inv, lanes, rank_major, recip);
            recip_same = recip_same && memcmp(inv_divided, inv, sizeof inv) == 0;
            bj_trie_pass(nd, off, N, factor, any_left, inv, prod, acc, lanes, 1);
        }
        if (lanes <= BJ_STRIDE) {
            bj_pair_group_pass(nd, bucket, N, factor, any_left, prod, acc + 4096, lanes);
            bj_pair_group_unload(acc + 4096, 24, lanes - 1, out, 30);
        }
    }
    int8_t pair_j[50], pair_m[50];
    for (int q = 0; q < 50; ++q) {
        pair_j[q] = (int8_t)(q % 7);
        pair_m[q] = (int8_t)(q % 5);
    }
    bj_pair_group_outcome(prod, 50, pair_j, pair_m, factor, inv + 64, out + 2048);
    print_bits(factor, 1 << 12);
    print_bits(inv, 1 << 12);
    print_bits(prod, 1 << 12);
    print_bits(acc, 1 << 14);
    print_bits(out, 1 << 12);
    printf("%d\n", bj_bit_width(0) + 10 * bj_bit_width(1) + 100 * bj_bit_width(0x80000000u));
    printf("recip %d\n", recip_same);
    return 0;
}
"""


def find_compiler():
    for name in (os.environ.get("CXX"), sysconfig.get_config_var("CXX"), "c++", "g++",
                 "clang++"):
        if name and shutil.which(name.split()[0]):
            return name.split()[0]
    return None


def run_program(tmp_path, compiler, *defines):
    source = tmp_path / "program.cpp"
    source.write_text(PROGRAM)
    binary = tmp_path / ("program" + "".join(d.replace("-D", "_") for d in defines))
    subprocess.run([compiler, "-std=c++17", "-O2", "-I", HEADERS, *defines, str(source),
                    "-o", str(binary)], check=True, capture_output=True, timeout=120)
    return subprocess.run([str(binary)], check=True, capture_output=True, text=True,
                          timeout=60).stdout


def test_scalar_fallback_gives_the_vector_path_bits(tmp_path):
    compiler = find_compiler()
    if compiler is None:
        pytest.skip("no C++ compiler")
    vector = run_program(tmp_path, compiler)
    scalar = run_program(tmp_path, compiler, "-DBJ_SCALAR_FALLBACK")
    lines = vector.splitlines()
    assert len(lines) == 4 * 4096 + 16384 + 2
    assert lines[-2] == str(0 + 10 * 1 + 100 * 32)
    # the inverse rows read from a table of 1.0 / x are the divided ones, bit for bit
    assert lines[-1] == "recip 1"
    # the tables were written to (not all zero), and the fallback wrote the same bits
    assert sum(line != "0000000000000000" for line in lines) > 5000
    assert scalar == vector
