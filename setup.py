"""Builds the compiled hot loop of the game search, ``analysis/search/_grid.pyx``, with Cython.

Everything else about the package is in pyproject.toml. The extension is optional: where it
cannot be built (no C compiler), the search runs its pure-Python engine, with the same answers.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                "analysis.search._grid",
                ["analysis/search/_grid.pyx"],
                extra_compile_args=["-O3"],
                optional=True,
            )
        ],
        language_level=3,
    )
)
