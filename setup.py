"""Build the compiled core. Metadata lives in pyproject.toml."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup


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


# One extension per kernel module, in dependency order (see src/bjcore/_core.pyx).
KERNEL_MODULES = ("_memo", "_dealer", "_pair_dealer", "_hands", "_splits", "_round", "_policy",
                  "_chart", "_core", "_distribution", "_split_moments", "_spot_moments")

extensions = [
    Extension(
        f"bjcore.{name}",
        [f"src/bjcore/{name}.pyx"],
        language="c++",
        include_dirs=["src/bjcore"],   # trie_pass.h
        extra_compile_args=["-O3", "-std=c++17"],
    )
    for name in KERNEL_MODULES
] + [
    # the rule model: the rule dict and the shoe decoded and checked once, for every kernel;
    # plain C, so that the C++ kernels and the C simulator both call it (its .pxd: C types)
    Extension("bjcore._rules", ["src/bjcore/_rules.pyx"], extra_compile_args=["-O3"]),
    # the real-game simulator: plain C, independent of the exact kernels
    Extension("bjcore._simulate", ["src/bjcore/_simulate.pyx"], extra_compile_args=["-O3"]),
    # trip ruin's killed random walk: plain C
    Extension("bjcore._ruin", ["src/bjcore/_ruin.pyx"], extra_compile_args=["-O3"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives=compiler_directives(),
                            include_path=["src"]))
