"""LIBSVM's kernel evaluations, counted by running svm-train with
LD_PRELOAD of expcount.c (a wrapper around exp(): LIBSVM's RBF kernel calls
it once per kernel value, and nothing else in svm-train calls it without
-b 1).  Shared by the harness (runner.py) and bench/gs_svm.py.

    so = kernelcount.build(bindir)          # compile expcount.so (once)
    env = kernelcount.env(so, count_file)   # environment for the counted run
    n = kernelcount.read(count_file)        # after it: the count (None if none)
"""
import os

from lib import proc

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "expcount.c")
_so = None   # set by build(): the library the harness's runs use


def build(bindir):
    """Compile expcount.c into bindir/expcount.so if missing or older than
    the source; returns its path, or None if gcc fails."""
    global _so
    _so = proc.compile_if_stale(SRC, os.path.join(bindir, "expcount.so"),
                                ["gcc", "-O2", "-shared", "-fPIC", "-ldl"])
    return _so


def library():
    """The library build() made (None before or if it failed)."""
    return _so


def env(so, count_file, base=None):
    """Environment of a counted run: base (default os.environ) plus
    LD_PRELOAD=so and EXPCOUNT_FILE=count_file.  Removes a stale count file
    (the library appends one line per process)."""
    if os.path.exists(count_file):
        os.remove(count_file)
    e = dict(os.environ if base is None else base)
    pre = e.get("LD_PRELOAD")
    e["LD_PRELOAD"] = so + (" " + pre if pre else "")
    e["EXPCOUNT_FILE"] = count_file
    return e


def read(count_file):
    """The exp() calls of a counted run: the sum of the file's lines (one
    per process that loaded the library); None when there is no file (the
    library was not loaded or the run died before exiting)."""
    try:
        with open(count_file) as f:
            return sum(int(line) for line in f if line.strip())
    except (OSError, ValueError):
        return None
