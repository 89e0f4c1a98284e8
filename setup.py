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


extensions = [
    Extension(
        "bjcore._core",
        ["src/bjcore/_core.pyx"],
        language="c++",
        extra_compile_args=["-O3", "-std=c++17"],
    ),
    Extension(
        "bjcore._distribution",
        ["src/bjcore/_distribution.pyx"],
        language="c++",
        extra_compile_args=["-O3", "-std=c++17"],
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=compiler_directives()))
