#!/usr/bin/python3
"""Unit checks of the harness's writer, model parsers and objectives
against values worked out by hand (plain asserts; no pytest needed).

    test_lib.py        prints one line per check, exits 1 on a failure
"""
import os
import sys
import tempfile

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lib import models, objectives  # noqa: E402
from lib.libsvm_write import format_rows, write_libsvm  # noqa: E402
from lib.models import LinearModel  # noqa: E402

TMP = tempfile.mkdtemp(prefix="bench_test_lib_")
CHECKS = []


def check(name):
    def deco(f):
        CHECKS.append((name, f))
        return f
    return deco


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


@check("writer: exact text for small values, signs, empty rows and dropped zeros")
def _():
    X = sp.csr_matrix(np.array([[0.5, 0.0, -1.25], [0.0, 0.0, 0.0], [1e-9, 123.000001, 2.0]]))
    got = format_rows(np.array([1, -1, 7]), X.indptr, X.indices, X.data, decimals=6).decode()
    assert got == "1 1:0.5 3:-1.25\n-1\n7 2:123.000001 3:2\n", repr(got)


@check("writer: chunked file reads back as the rounded matrix")
def _():
    from sklearn.datasets import load_svmlight_file
    rng = np.random.default_rng(3)
    A = rng.normal(size=(300, 25)) * rng.choice([0, 1, 1000], size=(300, 25))
    path = os.path.join(TMP, "rt.svm")
    write_libsvm(path, rng.choice([-1, 1], 300), sp.csr_matrix(A), decimals=6, chunk_nnz=97)
    X, _ = load_svmlight_file(path, n_features=25)
    assert np.abs(X.toarray() - np.round(A, 6)).max() < 1e-9


# Data set for the objectives: 3 rows, 2 features.
X = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]))
Y = np.array([1.0, -1.0, -1.0])


@check("objectives: hand-computed values of the three families")
def _():
    m = LinearModel(np.array([0.5, -0.25]), 0.1, 1.0)
    # f = X w + b = [0.6, -0.4, 0.35];  y f = [0.6, 0.4, -0.35]
    # hinge = [0.4, 0.6, 1.35] (sum 2.35); ||w||^2 = 0.3125
    assert abs(objectives.primal("hinge_freebias", X, Y, m, 2.0) - (0.15625 + 2 * 2.35)) < 1e-12
    # no bias: f = [0.5, -0.5, 0.25], y f = [0.5, 0.5, -0.25], hinge sum 0.5 + 0.5 + 1.25 = 2.25
    assert abs(objectives.primal("hinge_nobias", X, Y, m, 2.0) - (0.15625 + 2 * 2.25)) < 1e-12
    # squared: 0.16 + 0.36 + 1.8225 = 2.3425; reg 1/2 (0.3125 + 0.01)
    assert abs(objectives.primal("sqhinge_regbias", X, Y, m, 2.0) - (0.16125 + 2 * 2.3425)) < 1e-12
    # the positive label decides the sign: the same model for label -1 flips y
    m2 = LinearModel(-m.w, -m.b, -1.0)
    assert abs(objectives.primal("hinge_freebias", X, Y, m2, 2.0) - (0.15625 + 2 * 2.35)) < 1e-12
    assert abs(objectives.accuracy(X, Y, m) - 2 / 3) < 1e-12


@check("nesvm model: w, b, positive label (format version 1)")
def _():
    p = write("n.model", "nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\n"
              "multiclass ovo\nnr_class 2\nlabels -1 1\nnr_feature 2\nparam c 1\nnr_submodel 1\n"
              "submodel 0 pos 0 neg 1 exit converged iterations 5 primal 1.5 gap 0.001\n"
              "b 0.25\nw\n1.5\n-2\nend\n")
    m = models.read_nesvm(p)
    assert m.w.tolist() == [1.5, -2.0] and m.b == 0.25 and m.pos_label == -1.0
    assert models.read_nesvm_info(p)[0]["iterations"] == 5


@check("LIBLINEAR model: -B 1 bias row, label order")
def _():
    p = write("l.model", "solver_type L2R_L2LOSS_SVC\nnr_class 2\nlabel -1 1\nnr_feature 2\n"
              "bias 2\nw\n0.5 \n-1 \n0.25 \n")
    m = models.read_liblinear(p)
    assert m.w.tolist() == [0.5, -1.0] and m.b == 0.5 and m.pos_label == -1.0
    p = write("l0.model", "solver_type L2R_L1LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature 2\n"
              "bias -1\nw\n0.5 \n-1 \n")
    m = models.read_liblinear(p)
    assert m.w.tolist() == [0.5, -1.0] and m.b == 0.0 and m.pos_label == 1.0


@check("LIBSVM linear model: w = sum coef SV, b = -rho, first label positive; dual value")
def _():
    p = write("s.model", "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho -0.5\n"
              "label -1 1\nnr_sv 1 1\nSV\n0.5 1:2 3:1\n-1 2:1 3:1\n")
    m = models.read_libsvm(p)
    assert m.w.tolist() == [1.0, -1.0, -0.5] and m.b == 0.5 and m.pos_label == -1.0
    # alpha = (0.5, 1) but sum y alpha = -0.5: not feasible for the bias constraint
    assert models.libsvm_dual(m, 1.0) is None
    p = write("s2.model", "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\n"
              "label 1 -1\nnr_sv 1 1\nSV\n0.5 1:2 3:1\n-0.5 2:1 3:1\n")
    m = models.read_libsvm(p)
    # w = (1, -0.5, 0): D = sum alpha - 1/2 ||w||^2 = 1 - 0.625
    assert abs(models.libsvm_dual(m, 1.0) - 0.375) < 1e-15
    assert models.libsvm_dual(m, 0.4) is None          # alpha above C


@check("svmocas model: last line is the bias feature's weight, times -b")
def _():
    p = write("o.model", "0.5\n-1\n0.25\n")
    m = models.read_ocas(p, 10)
    assert m.w.tolist() == [0.5, -1.0] and m.b == 2.5 and m.pos_label == 1.0
    assert models.read_ocas(p, 0).b == 0.0


@check("scikit-learn npz: decision value for classes_[1]")
def _():
    p = os.path.join(TMP, "k.npz")
    np.savez(p, coef=np.array([[1.0, 2.0]]), intercept=np.array([-0.5]), classes=np.array([-1.0, 1.0]))
    m = models.read_npz(p)
    assert m.w.tolist() == [1.0, 2.0] and m.b == -0.5 and m.pos_label == 1.0


def main():
    failed = 0
    for name, f in CHECKS:
        try:
            f()
            print(f"ok - {name}")
        except Exception as e:  # report every failure, then exit 1
            failed += 1
            print(f"not ok - {name}: {type(e).__name__}: {e}")
    print(f"{len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
