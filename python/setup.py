"""Builds the wheel of embedlab: the package embedlab (Python), the module _embedlab (the core,
core/, bound with pybind11 and compiled by CMake from the checkout this folder is part of: pybind11's
cmake_example pattern for setuptools) and the element's notebook bundle as embedlab/element.mjs.

`pip install ./python` configures a CMake tree of its own (a compiler, CMake, Eigen,
nlohmann-json and pybind11 are needed); EMBEDLAB_CMAKE_BUILD_DIR names a configured tree to build
in instead (scripts/build-wheel.sh: build/release). The bundle comes from a WebAssembly build
(build/wasm/site/embedlab/notebook.mjs), or from EMBEDLAB_ELEMENT_BUNDLE."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

CHECKOUT = Path(__file__).resolve().parent.parent  # the CMake project whose python/ this is


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Builds the CMake target embedlab_python and copies the module it makes into the wheel."""

    def build_extension(self, ext):
        if not (CHECKOUT / "core" / "CMakeLists.txt").is_file():
            sys.exit(f"embedlab's module is built from a checkout: {CHECKOUT} has no core/")
        tree = Path(os.environ.get("EMBEDLAB_CMAKE_BUILD_DIR") or Path(self.build_temp, "cmake"))
        tree = tree.resolve()
        if not (tree / "CMakeCache.txt").is_file():
            configure = ["cmake", "-S", str(CHECKOUT), "-B", str(tree)]
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DEMBEDLAB_TESTS=OFF"]
            subprocess.run(configure + [f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(tree), "--target", "embedlab_python"], check=True)
        built = tree / "python" / (ext.name + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.is_file():
            sys.exit(
                f"{built} was not built: {tree} builds the module for another Python than "
                f"{sys.executable}; build the wheel with that one, or in a tree of its own"
            )
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


class BuildPy(build_py):
    """The package, and the element's bundle beside it (output.py inlines it in every output)."""

    def run(self):
        super().run()
        bundle = Path(
            os.environ.get("EMBEDLAB_ELEMENT_BUNDLE")
            or CHECKOUT / "build" / "wasm" / "site" / "embedlab" / "notebook.mjs"
        )
        if not bundle.is_file():
            sys.exit(
                f"no {bundle}: build the WebAssembly module and site first "
                "(cmake --preset wasm && cmake --build --preset wasm), or set "
                "EMBEDLAB_ELEMENT_BUNDLE to a notebook.mjs"
            )
        shutil.copyfile(bundle, Path(self.build_lib, "embedlab", "element.mjs"))


setup(
    ext_modules=[CMakeExtension("_embedlab")],
    cmdclass={"build_ext": CMakeBuild, "build_py": BuildPy},
)
