"""setup.py - the nesvm Python package: the C extension nesvm._nesvm (cffi, API
mode) linked with the static library libnesvm.a, and the scikit-learn estimators.

The static library comes from $NESVM_STATIC_LIB when set (a built libnesvm.a,
for example build/libnesvm.a), else this builds it with CMake from the source
tree around this folder.  Everything it needs is a Debian package (see
scripts/deps.sh); nothing is downloaded.

    pip install --no-build-isolation --no-index ./python
"""
import os
import re
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(nesvm VERSION ([0-9.]+)", f.read()).group(1)


def static_lib(build_temp):
    """libnesvm.a: $NESVM_STATIC_LIB, or built here with CMake (Release, no tests)."""
    given = os.environ.get("NESVM_STATIC_LIB")
    if given:
        if not os.path.isfile(given):
            raise SystemExit("NESVM_STATIC_LIB=%s: no such file" % given)
        return os.path.abspath(given)
    out = os.path.abspath(os.path.join(build_temp, "libnesvm-build"))
    subprocess.run(["cmake", "-S", ROOT, "-B", out, "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"],
                   check=True)
    subprocess.run(["cmake", "--build", out, "--target", "nesvm_static", "-j", str(os.cpu_count() or 1)],
                   check=True)
    return os.path.join(out, "libnesvm.a")


class build_ext(_build_ext):
    """Build libnesvm.a if needed, then the cffi extension linked with it: the
    placeholder Extension gets the generated source and the link settings."""

    def build_extension(self, ext):
        import nesvm_build

        lib = static_lib(self.build_temp)
        ffi = nesvm_build.builder(os.path.join(ROOT, "include"), lib)
        gen = ffi.distutils_extension(os.path.join(self.build_temp, "cffi"))
        for field in ("sources", "include_dirs", "extra_objects", "libraries", "library_dirs",
                      "extra_compile_args", "extra_link_args"):
            setattr(ext, field, list(getattr(gen, field)))
        ext.depends = [lib]
        super().build_extension(ext)


setup(
    name="nesvm",
    version=version(),
    description="nesvm: fast SVM training (NESVM, SSVM/NSSVM, GS-SVM, Hyperpass) with scikit-learn estimators",
    packages=["nesvm"],
    python_requires=">=3.9",
    install_requires=[],  # numpy, scipy and scikit-learn: Debian's python3-* packages
    ext_modules=[Extension("nesvm._nesvm", sources=[])],  # replaced by build_ext
    cmdclass={"build_ext": build_ext},
    zip_safe=False,
)
