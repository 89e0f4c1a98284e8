"""Build the compiled core. Metadata lives in pyproject.toml."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def compiler_directives():
    # BJSOLVE_DEBUG=1 turns the safety checks back on for debugging the kernels.
    debug = os.environ.get("BJSOLVE_DEBUG", "") not in ("", "0")
    return {
        "language_level": 3,
        "boundscheck": debug,
        "wraparound": debug,
        "initializedcheck": debug,
        "cdivision": not debug,
        "embedsignature": True,
    }


# The flags each kind of compiler takes (setuptools' compiler_type): GCC and Clang are both
# "unix" (also MinGW's "mingw32"), Microsoft's is "msvc".  The C++ kernels need C++17.
OPTIMIZE_FLAGS = {
    "msvc": {"c": ["/O2"], "c++": ["/O2", "/std:c++17"]},
    "gcc-like": {"c": ["-O3"], "c++": ["-O3", "-std=c++17"]},
}


class BuildKernels(build_ext):
    """build_ext with the flags of the compiler it finds, and every core by default."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:   # (``-j N`` on the command line wins)
            self.parallel = os.cpu_count() or 1

    def build_extensions(self):
        kind = "msvc" if self.compiler.compiler_type == "msvc" else "gcc-like"
        for ext in self.extensions:
            language = "c++" if ext.language == "c++" else "c"
            ext.extra_compile_args = OPTIMIZE_FLAGS[kind][language] + ext.extra_compile_args
        super().build_extensions()


# One extension per kernel module, in dependency order (see src/bjcore/_core.pyx).
KERNEL_MODULES = ("_memo", "_dealer", "_pair_dealer", "_engine", "_hands", "_splits", "_round", "_policy",
                  "_chart", "_core", "_distribution", "_split_moments", "_spot_moments",
                  "_game")

extensions = [
    Extension(
        f"bjcore.{name}",
        [f"src/bjcore/{name}.pyx"],
        language="c++",
        include_dirs=["src/bjcore"],   # trie_pass.h, portable.h, alloc.h, recycle.h
    )
    for name in KERNEL_MODULES
] + [
    # the rule model: the rule dict and the shoe decoded and checked once, for every kernel;
    # plain C, so that the C++ kernels and the C simulator both call it (its .pxd: C types)
    Extension("bjcore._rules", ["src/bjcore/_rules.pyx"]),
    # the real-game simulator: plain C, independent of the exact kernels
    Extension("bjcore._simulate", ["src/bjcore/_simulate.pyx"]),
    # the real Blackjack Switch round with the analysis' decisions: plain C
    Extension("bjcore._switch_sim", ["src/bjcore/_switch_sim.pyx"]),
    # trip ruin's killed random walk: plain C
    Extension("bjcore._ruin", ["src/bjcore/_ruin.pyx"]),
    # Cython's own helpers (memoryviews, function objects, type imports ...), generated
    # once into this module instead of into every kernel: the wheel shrinks by a quarter
    # (5.95 -> 4.53 MB; docs/algorithms.md, "Build portability").  Needs Cython >= 3.1.
    Extension("bjcore._cyutility", ["src/bjcore/_cyutility.c"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives=compiler_directives(),
                            include_path=["src"], nthreads=os.cpu_count() or 1,
                            shared_utility_qualified_name="bjcore._cyutility"),
      cmdclass={"build_ext": BuildKernels})
