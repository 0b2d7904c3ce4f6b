#!/usr/bin/python3
"""Unit checks of the harness's writer, model parsers and objectives
against values worked out by hand (plain asserts; no pytest needed).

    test_lib.py        prints one line per check, exits 1 on a failure
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lib import glpk, kernelcount, models, objectives, proc, tools  # noqa: E402
from lib.libsvm_write import format_rows, write_libsvm  # noqa: E402
from lib.models import LinearModel  # noqa: E402

TMP = tempfile.mkdtemp(prefix="bench_test_lib_")
BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"
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


@check("objectives: hand-computed LP-SVM and LS-SVM values")
def _():
    m = LinearModel(np.array([0.5, -0.25]), 0.1, 1.0)
    # ||w||_1 = 0.75; hinge sum 2.35 (above)
    assert abs(objectives.primal("lp_hinge_l1", X, Y, m, 2.0) - (0.75 + 2 * 2.35)) < 1e-12
    # residuals 1 - y f = [0.4, 0.6, 1.35]: all count, squares 0.16 + 0.36 + 1.8225
    assert abs(objectives.primal("ls_squared_l2", X, Y, m, 2.0) - (0.15625 + 2 * 2.3425)) < 1e-12
    # a row beyond the margin still costs in LS-SVM: f = 3 for y = +1 gives (1 - 3)^2 = 4
    m3 = LinearModel(np.array([3.0, 0.0]), 0.0, 1.0)
    X1, Y1 = sp.csr_matrix(np.array([[1.0, 0.0]])), np.array([1.0])
    assert abs(objectives.primal("ls_squared_l2", X1, Y1, m3, 1.0) - (4.5 + 4.0)) < 1e-12
    assert abs(objectives.primal("lp_hinge_l1", X1, Y1, m3, 1.0) - 3.0) < 1e-12


def _small_problem(seed, n=60, d=5):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.7)
    lab = np.where(A @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0.2, 2.0, 7.0)
    return sp.csr_matrix(A), lab


@check("GLPK: the harness's LP-SVM objective of glpsol's solution equals glpsol's optimum")
def _():
    Xs, lab = _small_problem(5)
    for C, pos in ((1.0, 7.0), (0.1, 2.0)):
        d = os.path.join(TMP, f"glpk{C:g}")
        os.makedirs(d)
        glpk.write_lp(os.path.join(d, "problem.lp"), Xs, lab, C, pos)
        subprocess.run(["glpsol", "--lp", os.path.join(d, "problem.lp"), "-w", os.path.join(d, "m.raw"),
                        "-o", os.path.join(d, glpk.PRINTED)], check=True, stdout=subprocess.DEVNULL)
        m = models.read_glpsol(os.path.join(d, "m.raw"))
        assert m.status == "OPTIMAL" and m.pos_label == pos, (m.status, m.pos_label)
        P = objectives.primal("lp_hinge_l1", Xs, lab, m, C)
        assert abs(P - m.lp_objective) <= 1e-9 * abs(m.lp_objective), (P, m.lp_objective)
        # the printed file's objective (10 digits) agrees too
        _, printed, _ = glpk.read_printed(os.path.join(d, glpk.PRINTED))
        assert abs(P - printed) <= 1e-8 * abs(printed), (P, printed)
        # optimality, checked independently: no small random move lowers P
        rng = np.random.default_rng(1)
        for _ in range(200):
            step = LinearModel(m.w + 1e-4 * rng.normal(size=m.w.size), m.b + 1e-4 * rng.normal(),
                               m.pos_label)
            assert objectives.primal("lp_hinge_l1", Xs, lab, step, C) >= P - 1e-9


@check("GLPK printed solution: long names wrapped onto a second line, status, objective")
def _():
    text = ("Problem:    \nRows:       1\nColumns:    3\nNon-zeros:  3\nStatus:     OPTIMAL\n"
            "Objective:  obj = 1.5 (MINimum)\n\n"
            "   No.   Row name   St   Activity     Lower bound   Upper bound    Marginal\n"
            "------ ------------ -- ------------- ------------- ------------- -------------\n"
            "     1 c1           NL             1             1                         0.5 \n\n"
            "   No. Column name  St   Activity     Lower bound   Upper bound    Marginal\n"
            "------ ------------ -- ------------- ------------- ------------- -------------\n"
            "     1 p1           B          0.25             0               \n"
            "     2 a_very_long_column_name\n"
            "                    NL             0             0                         1 \n"
            "     3 b            B         -1.75                             \n\n"
            "Karush-Kuhn-Tucker optimality conditions:\n\nKKT.PE: max.abs.err = 0.00e+00 on row 0\n"
            "\nEnd of output\n")
    p = write("printed.txt", text)
    st, obj, cols = glpk.read_printed(p)
    assert st == "OPTIMAL" and obj == 1.5, (st, obj)
    assert cols == [("p1", 0.25), ("a_very_long_column_name", 0.0), ("b", -1.75)], cols


@check("LS-SVM: C x RidgeClassifier's objective = the LS-SVM objective; Ridge, ls_normal.py and "
       "least squares agree")
def _():
    from sklearn.linear_model import RidgeClassifier
    Xs, lab = _small_problem(9, n=80, d=6)
    C = 0.7
    r = RidgeClassifier(alpha=1 / (2 * C), fit_intercept=True, tol=1e-12).fit(Xs, lab)
    m = LinearModel(r.coef_[0], float(r.intercept_[0]), float(r.classes_[1]))
    y = objectives.signed_targets(lab, m.pos_label)
    f = Xs @ m.w + m.b
    ridge_obj = float((y - f) @ (y - f)) + r.alpha * float(m.w @ m.w)
    P = objectives.primal("ls_squared_l2", Xs, lab, m, C)
    assert abs(C * ridge_obj - P) <= 1e-12 * P, (C * ridge_obj, P)
    # independent optimum: least squares on [sqrt(C) Z; E / sqrt(2)] theta ~ [sqrt(C) y; 0]
    n, d = Xs.shape
    Z = np.hstack([Xs.toarray(), np.ones((n, 1))])
    E = np.eye(d + 1)[:d]
    theta = np.linalg.lstsq(np.vstack([np.sqrt(C) * Z, E / np.sqrt(2)]),
                            np.concatenate([np.sqrt(C) * y, np.zeros(d)]), rcond=None)[0]
    P_ls = objectives.primal("ls_squared_l2", Xs, lab, LinearModel(theta[:d], theta[d], m.pos_label), C)
    assert abs(P - P_ls) <= 1e-9 * P_ls, (P, P_ls)
    # the harness's reference program
    from lib.libsvm_write import write_libsvm
    data = os.path.join(TMP, "ls.svm")
    write_libsvm(data, lab.astype(int), Xs, decimals=17)
    mz, js = os.path.join(TMP, "ls.npz"), os.path.join(TMP, "ls.json")
    subprocess.run([PY, os.path.join(BENCH, "ls_normal.py"), "--train", data, "--n-features", str(d),
                    "--C", repr(C), "--model", mz, "--json", js], check=True)
    Xr, labr = load_svm(data, d)
    mn = models.read_npz(mz)
    P_n = objectives.primal("ls_squared_l2", Xr, labr, mn, C)
    assert abs(P_n - P_ls) <= 1e-9 * P_ls, (P_n, P_ls)
    with open(js) as f:
        assert abs(json.load(f)["objective"] - P_n) <= 1e-12 * P_n


def load_svm(path, d):
    from sklearn.datasets import load_svmlight_file
    Xr, labr = load_svmlight_file(path, n_features=d)
    return Xr.tocsr(), labr


@check("nesvm model: w, b, positive label (format versions 1, 2 and 3)")
def _():
    p = write("n.model", "nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\n"
              "multiclass ovo\nnr_class 2\nlabels -1 1\nnr_feature 2\nparam c 1\nnr_submodel 1\n"
              "submodel 0 pos 0 neg 1 exit converged iterations 5 primal 1.5 gap 0.001\n"
              "b 0.25\nw\n1.5\n-2\nend\n")
    m = models.read_nesvm(p)
    assert m.w.tolist() == [1.5, -2.0] and m.b == 0.25 and m.pos_label == -1.0
    assert m.problem == "c_svm_hinge_l2"
    assert models.read_nesvm_info(p)[0]["iterations"] == 5
    v1 = open(p).read()
    for v, ok in (("2", True), ("3", True), ("4", False)):
        q = write("v%s.model" % v, v1.replace("nesvm_model 1\n", "nesvm_model %s\n" % v, 1))
        try:
            read = models.read_nesvm(q).w.tolist() == [1.5, -2.0]
        except models.ModelError:
            read = False
        assert read == ok, "format version %s: read %s" % (v, read)
    p = write("lp.model", "nesvm_model 1\nsolver nesvm\nproblem lp_svm_hinge_l1\nkernel linear\n"
              "multiclass ovo\nnr_class 2\nlabels 1 -1\nnr_feature 2\nparam svm_type lp\nparam c 1\n"
              "nr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 23 primal 2 gap 0.001\n"
              "b -0.5\nw\n0\n3\nend\n")
    m = models.read_nesvm(p)
    assert m.w.tolist() == [0.0, 3.0] and m.b == -0.5 and m.pos_label == 1.0 and m.problem == "lp_svm_hinge_l1"
    # kernel models are used through nesvm predict only
    p = write("k.model", "nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel rbf\nmulticlass ovo\n"
              "nr_class 2\nlabels 1 -1\nnr_feature 2\nnr_basis 1\nbasis\nsv 1:1\nnr_submodel 1\n"
              "submodel 0 pos 0 neg 1 exit converged iterations 7 primal 2 gap 0.001\nb 0\nbeta\n1\nend\n")
    try:
        models.read_nesvm(p)
        raise AssertionError("a kernel model was read as linear")
    except models.ModelError:
        pass
    assert models.read_nesvm_info(p)[0]["iterations"] == 7


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


@check("output parsers: nesvm's lower bound and row products; LIBLINEAR's dual only without max-iter")
def _():
    hp = tools.parse_nesvm_spec("hyperpass --warm-start pegasos:10", 1)
    assert hp.id == "nesvm hyperpass --warm-start pegasos:10 t1", hp.id
    assert hp.opts["solver"] == "hyperpass" and hp.opts["args"] == ["--warm-start", "pegasos:10"]
    out = ("read 270 rows, 13 features, 3510 stored entries (dense, double) in 0.002 s\n"
           "classes 2, binary models 1, iterations 60, time 0.005 s\n"
           "primal objective 96.49827799, relative gap 7.36e-16, support vectors 103, exit converged\n"
           "lower bound 96.498277994696465\nnon-zero weights 13 of 13\n"
           "row products 20099 (74.4 per row), row updates 5143\nmodel saved to /tmp/hp.model\n")
    info = tools.parse_output(hp, out, "")
    assert info["lower"] == 96.498277994696465 and info["row_products_per_row"] == 74.4, info
    assert info["row_products"] == 20099 and info["iterations"] == 60 and info["exit"] == "converged"
    info = tools.parse_output(tools.parse_nesvm_spec("nesvm -B 0", 1),
                              "\n".join(out.splitlines()[:4]) + "\nmodel saved to m\n", "")
    assert info["lower"] == 96.498277994696465 and "row_products_per_row" not in info, info
    ll = tools.Tool("liblinear -s 3", "liblinear", {"s": 3})
    done = "........*\noptimization finished, #iter = 83\nObjective value = -96.438493\nnSV = 107\n"
    info = tools.parse_output(ll, done, "")
    assert info["lower"] == 96.438493 and info["iterations"] == 83 and "exit" not in info, info
    cut = ("....\noptimization finished, #iter = 1000\n\nWARNING: reaching max number of iterations\n"
           "Using -s 2 may be faster (also see FAQ)\n\nObjective value = -92.408561\nnSV = 120\n")
    info = tools.parse_output(ll, cut, "")
    assert "lower" not in info and info["exit"] == "max-iter" and info["iterations"] == 1000, info
    assert tools.parse_output(ll, done, "")["unshrinks"] == 1 and info["unshrinks"] == 0
    two = "...*....*\noptimization finished, #iter = 1000\n\nWARNING: reaching max number of iterations\n"
    assert tools.parse_output(ll, two, "")["unshrinks"] == 2


@check("c_sweep.py: LIBLINEAR's -e sweep stops at the first run within 1e-3 of P_best, at a failure, and at a "
       "capped run without '*'; the selection, the ratio targets and the growth target")
def _():
    import c_sweep as cs

    def rec(P, wall, exit_=None, unshrinks=1, status="ok"):
        info = {"unshrinks": unshrinks} | ({"exit": exit_} if exit_ else {})
        return {"status": status, "P": P, "wall": wall, "info": info}
    pb = 100.0
    assert cs.ll_stop(rec(100.1, 1), pb) == "reached"          # gap 1e-3 exactly
    assert cs.ll_stop(rec(100.11, 1), pb) is None               # 1.1e-3, go on
    assert cs.ll_stop(rec(150.0, 1, "max-iter", 3), pb) is None  # capped after an un-shrinking: -e matters
    assert cs.ll_stop(rec(150.0, 1, "max-iter", 0), pb) == "cap"
    assert cs.ll_stop(rec(100.0, 1, "max-iter", 0), pb) == "reached"   # capped but within the gap
    assert cs.ll_stop(rec(None, 300, status="timeout"), pb) == "failed"
    sweep = [(1e-1, rec(101.0, 0.5)), (1e-2, rec(100.05, 0.8)), (1e-3, rec(100.0, 2.0))]
    sel = cs.ll_select(sweep, pb)
    assert sel["reached"] and sel["eps"] == 1e-2 and sel["time"] == 0.8 and sel["runs"] == 2, sel
    sel = cs.ll_select([(1e-1, rec(101.0, 0.5)), (1e-2, rec(120.0, 0.9, "max-iter", 0))], pb)
    assert not sel["reached"] and sel["why"] == "cap" and sel["eps"] == 1e-2, sel
    assert cs.ll_select([(1e-1, rec(101.0, 0.5))], pb)["why"] == "open"
    full = [(e, rec(101.0, 0.5)) for e in cs.LL_EPS]
    assert cs.ll_select(full, pb)["why"] == "end"
    assert cs.ll_select([], pb)["why"] == "open"
    # P_best moves below an earlier 'reached' run: the selection follows it
    assert cs.ll_select(sweep, 99.9)["eps"] == 1e-3
    assert cs.p_best_of([("a", 3.0), ("b", None), ("c", 2.5)]) == (2.5, "c")
    assert cs.p_best_of([("a", None)]) == (None, None)
    # target 1a/1b: t_n / t_p against the bound, lower bounds when a run stopped short
    assert cs.ratio_target(1.0, True, 4.0, True, 0.5) == ("0.25", "met")
    assert cs.ratio_target(3.0, True, 4.0, True, 0.5) == ("0.75", "missed")
    assert cs.ratio_target(1.0, True, 300.0, False, 0.5) == ("< 0.00333", "met")
    assert cs.ratio_target(200.0, True, 300.0, False, 0.5)[1] == "not measured"
    assert cs.ratio_target(300.0, False, 10.0, True, 1.0) == ("> 30", "missed")
    assert cs.ratio_target(300.0, False, 900.0, True, 1.0)[1] == "not measured"
    assert cs.ratio_target(300.0, False, 300.0, False, 1.0)[1] == "not measured"
    assert cs.ratio_target(1.0, None, 2.0, True, 1.0)[1] == "not measured"
    # target 2: the largest of C = 1, 10, 100, 1000 over C = 1's
    vals = {1.0: 10, 10.0: 20, 100.0: 31, 1000.0: 25, 0.1: 99}
    ok = {c: True for c in vals}
    r, v = cs.growth(vals, ok)
    assert abs(r - 3.1) < 1e-12 and v == "missed", (r, v)
    r, v = cs.growth({**vals, 100.0: 30}, ok)
    assert r == 3.0 and v == "met", (r, v)
    assert cs.growth({1.0: 10, 10.0: 20, 100.0: 31}, ok)[1] == "not measured"
    assert cs.growth(vals, {**ok, 1000.0: False})[1] == "missed"      # 3.1x already, and still going
    assert cs.growth({**vals, 100.0: 12}, {**ok, 1000.0: False})[1] == "not measured"
    assert cs.reached({"status": "ok", "info": {"exit": "converged"}, "cert_gap": 9.9e-4})
    assert cs.reached({"status": "ok", "info": {"exit": "time-limit"}}) is False
    assert cs.reached({"status": "timeout", "info": {}}) is False
    assert cs.reached({"status": "failed", "info": {}}) is None
    # the nesvm -e 1e-6 reference: skipped after a 1e-3 run that stopped short, 10x its time in [30, limit]
    conv = {"status": "ok", "info": {"exit": "converged"}, "wall": 6.0}
    assert cs.nesvm_ref_limit(conv, 600) == 60.0 and cs.nesvm_ref_limit(dict(conv, wall=0.1), 600) == 30.0
    assert cs.nesvm_ref_limit(dict(conv, wall=100.0), 600) == 600
    assert cs.nesvm_ref_limit({"status": "ok", "info": {"exit": "time-limit"}, "wall": 300}, 600) is None
    assert cs.run_limit(["/usr/bin/svmocas", "-c", "1", "-t", "20", "-r", "1e-6", "tr", "m"]) == 20.0
    assert cs.run_limit(["b/nesvm", "train", "-t", "2", "--time-limit", "45", "tr", "m"]) == 45.0
    assert cs.run_limit(["b/nesvm", "train", "-t", "2", "tr", "m"]) == 0.0


@check("synthetic sparse-wide: seeded, deterministic, about 500 non-zeros per row of 100,000 features, "
       "unit-norm rows")
def _():
    from lib import synthetic
    p = dict(synthetic.SPARSE_DEFAULTS, **synthetic.SPARSE_WIDE)
    p.update(train=300, test=20)
    (ya, Xa), (_, Xta) = synthetic.sparse_text(**p)
    (yb, Xb), _ = synthetic.sparse_text(**p)
    assert Xa.shape == (300, 100_000) and Xta.shape == (20, 100_000)
    assert (Xa != Xb).nnz == 0 and (ya == yb).all()
    per_row = Xa.getnnz(axis=1).mean()
    assert 470 <= per_row <= 530, per_row          # 0.5% density
    norms = np.sqrt(np.asarray(Xa.multiply(Xa).sum(axis=1)).ravel())
    assert np.allclose(norms, 1.0) and set(np.unique(ya)) == {-1, 1}



@check("synthetic sparse: the refactoring for sparse-reg left the classification rows unchanged (a digest of "
       "the output before it)")
def _():
    import hashlib
    from lib import synthetic
    (y, X), (yt, Xt) = synthetic.sparse_text(**dict(synthetic.SPARSE_DEFAULTS, train=500, test=50, d=5000))
    h = hashlib.sha256()
    for a in (X.data, X.indices, X.indptr, y, Xt.data, Xt.indices, yt):
        h.update(np.ascontiguousarray(a).tobytes())
    assert h.hexdigest() == "1e48f7b1f58a47ab74462c2ed40536769ffc9609a233bb02499eb4adbc72d610", h.hexdigest()


@check("synthetic sparse-reg and friedman1: seeded, real targets y = x.w* + N(0, 0.2^2) with unit score "
       "deviation; Friedman #1 as scikit-learn's")
def _():
    from sklearn.datasets import make_friedman1
    from lib import synthetic
    p = dict(synthetic.SPARSE_REG, train=3000, test=200)
    (y, X), (yt, Xt), w = synthetic.sparse_regression(**p)
    (y2, X2), _, _ = synthetic.sparse_regression(**p)
    assert X.shape == (3000, 100_000) and Xt.shape == (200, 100_000) and (X != X2).nnz == 0 and (y == y2).all()
    assert 45 <= X.getnnz(axis=1).mean() <= 55 and np.allclose(np.sqrt(X.multiply(X).sum(axis=1)), 1.0)
    assert abs((X @ w).std() - 1.0) < 1e-12 and (w != 0).sum() == 2000
    e = np.concatenate([y - X @ w, yt - Xt @ w])
    assert abs(e.std() - 0.2) < 0.01 and abs(e.mean()) < 0.01, (e.mean(), e.std())
    (fy, fX), (fyt, fXt) = synthetic.friedman1(300, 50)
    rX, ry = make_friedman1(300, n_features=10, noise=1.0, random_state=0)
    assert (fX == rX).all() and (fy == ry).all() and fXt.shape == (50, 10)
    assert not np.allclose(fXt, make_friedman1(50, n_features=10, noise=1.0, random_state=0)[0])


@check("writer, models and objectives of regression: real targets in fixed point, nesvm's and LIBLINEAR's "
       "SVR models, the tube and squared tube by hand")
def _():
    Xr = sp.csr_matrix(np.array([[0.5, 0.0], [0.0, 0.0], [1.0, 2.0]]))
    got = format_rows(np.array([1.5, -0.0000004, -12.25]), Xr.indptr, Xr.indices, Xr.data,
                      label_decimals=6).decode()
    assert got == "1.5 1:0.5\n0\n-12.25 1:1 2:2\n", repr(got)
    got = format_rows(np.array([-0.4, 3.0, 0.000001]), Xr.indptr, Xr.indices, Xr.data, label_decimals=6)
    assert got.decode().split("\n")[:3] == ["-0.4 1:0.5", "3", "0.000001 1:1 2:2"], got
    nes = write("svr.model", "nesvm_model 3\nsolver nesvm\nproblem svr_squared_epsilon_insensitive_l2\n"
                "kernel linear\nmulticlass ovo\nnr_class 0\nlabels\nnr_feature 2\ntask regression\n"
                "param svm_type svr\nnr_submodel 1\nsubmodel 0 pos -1 neg -1 exit converged iterations 6 "
                "primal 1 gap 0.0004\nb 0.25\nw\n0.5\n-1\nend\n")
    m = models.read_linear_svr(nes)
    assert list(m.w) == [0.5, -1.0] and m.b == 0.25 and m.problem == "svr_squared_epsilon_insensitive_l2"
    ll = write("ll_svr.model", "solver_type L2R_L1LOSS_SVR_DUAL\nnr_class 2\nnr_feature 2\nbias 2\nw\n"
               "0.5 \n-1 \n0.125 \n")
    m2 = models.read_linear_svr(ll)
    assert list(m2.w) == [0.5, -1.0] and m2.b == 0.25
    try:
        models.read_linear_svr(write("cls.model", "solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\n"
                                     "nr_feature 2\nbias -1\nw\n0.5 \n-1 \n"))
        raise AssertionError("a classifier was read as a regression model")
    except models.ModelError:
        pass
    # f = [0.5, 0, 0.5 - 2] + 0.25 = [0.5, 0.25, -1.25]; y = [1, 0.2, -1]: |r| = [0.5, 0.05, 0.25]
    # p = 0.1: tube [0.4, 0, 0.15] (sum 0.55, squares 0.16 + 0.0225 = 0.1825); ||w||^2 = 1.25
    yr = np.array([1.0, 0.2, -1.0])
    assert abs(objectives.svr_primal(Xr, yr, m, 2.0, 0.1, False) - (0.625 + 2 * 0.55)) < 1e-12
    assert abs(objectives.svr_primal(Xr, yr, m, 2.0, 0.1, True) - (0.625 + 2 * 0.1825)) < 1e-12
    assert abs(objectives.mse(Xr, yr, m) - (0.25 + 0.0025 + 0.0625) / 3) < 1e-12


@check("svr_row.py: command lines, LIBLINEAR's cap facts, the ratio and MSE targets, every-C verdicts, "
       "the order of the commands")
def _():
    import svr_row as sr
    a = sr.nesvm_linear_argv("b/nesvm", "sq", 0.01, 1e-3, 300, "tr", "m")
    assert a == ["b/nesvm", "train", "--liblinear", "11", "-c", "0.01", "-p", "0.1", "-e", "0.001", "--threads",
                 "1", "--time-limit", "300", "tr", "m"], a
    assert sr.nesvm_linear_argv("n", "l1", 1, 1e-6, 30, "t", "m")[2:4] == ["--liblinear", "13"]
    assert sr.liblinear_argv(12, 1000.0, 1e-5, "t", "m") == ["liblinear-train", "-s", "12", "-c", "1000", "-p",
                                                            "0.1", "-e", "1e-05", "t", "m"]
    k = sr.kernel_argv("nesvm", "n", 300, "t", "m")
    assert k[2:] == ["-s", "3", "-p", "0.1", "-t", "2", "-g", "0.1", "-c", "1", "-e", "1e-3", "--threads", "1",
                     "--time-limit", "300", "t", "m"], k
    assert sr.kernel_argv("libsvm", "n", 300, "t", "m")[-4:] == ["-m", "1000", "t", "m"]
    info = {"iterations": 1000}
    sr.ll_cap_facts(11, "iter 1000 act", info)
    assert info == {"iterations": 1000, "exit": "max-iter", "unshrinks": 0}, info
    info = {"iterations": 999}
    sr.ll_cap_facts(11, "", info)
    assert info == {"iterations": 999}
    info = {"iterations": 40}
    sr.ll_cap_facts(13, "..*..*\noptimization finished", info)
    assert info["unshrinks"] == 2 and "exit" not in info
    sel = lambda reached, why, t=2.0: {"reached": reached, "why": why, "time": t, "eps": 1e-3}  # noqa: E731
    assert sr.ll_target(0.5, True, sel(True, "reached"), 0.5) == ("0.25", "met")
    assert sr.ll_target(1.5, True, sel(True, "reached"), 0.5) == ("0.75", "missed")
    assert sr.ll_target(1.5, True, sel(False, "cap"), 0.5) == ("LIBLINEAR did not reach", "met")
    assert sr.ll_target(300, False, sel(False, "end"), 0.5)[1] == "not measured"
    assert sr.ll_target(0.5, True, sel(False, "open"), 0.5)[1] == "not measured"
    assert sr.ll_target(3.0, True, sel(False, "failed", 360.0), 1.0) == ("< 0.00833", "met")
    assert sr.mse_target(10.1, 10.0)[1] == "met" and sr.mse_target(10.11, 10.0)[1] == "missed"
    assert sr.mse_target(5.0, 10.0) == (-0.5, "met") and sr.mse_target(None, 1.0)[1] == "not measured"
    assert sr.all_points(["met", "met"]) == "met" and sr.all_points(["met", "missed", "not measured"]) == "missed"
    assert sr.all_points(["met", "not measured"]) == "not measured" and sr.all_points([]) == "not measured"
    keys = ["d|sq|C=100|nesvm", "d|sq|C=1|liblinear -s 11 e=0.001", "d|sq|C=1|liblinear -s 11 e=0.1",
            "d|sq|C=1|ref nesvm -e 1e-6", "d|sq|C=1|nesvm", "d|sq|C=0.01|nesvm", "d|sq|C=1|liblinear -s 12 e=0.1"]
    assert sorted(keys, key=sr.key_order) == [
        "d|sq|C=0.01|nesvm", "d|sq|C=1|nesvm", "d|sq|C=1|ref nesvm -e 1e-6", "d|sq|C=1|liblinear -s 11 e=0.1",
        "d|sq|C=1|liblinear -s 11 e=0.001", "d|sq|C=1|liblinear -s 12 e=0.1", "d|sq|C=100|nesvm"]
    assert sr.short_argv([os.path.join(sr.ROOT, "build", "nesvm"), "/o/work/m"], "/o") == "build/nesvm OUT/work/m"
    assert sr.quiet_enough(0.99) and not sr.quiet_enough(1.0)

@check("output parsers: kernel runs (nesvm full kernel, gs, LIBSVM's Total nSV)")
def _():
    full = tools.parse_nesvm_spec("nesvm -t 2 -g {gamma}", 1, 0.02)
    assert full.id == "nesvm -t 2 -g 0.02 t1", full.id
    out = ("read 1347 rows, 64 features, 86208 stored entries (dense, double) in 0.003 s\n"
           "classes 10, binary models 45, iterations 640, time 0.090 s\n"
           "primal objective 3572.270542, relative gap 0.000987, support vectors 1267, exit converged\n"
           "lower bound 3569.9927129301677\n"
           "kernel rbf, basis 496 vectors, non-zero coefficients 1267 of 22320\n"
           "kernel evaluations 1814409, working set, kernel matrix stored (single precision)\n"
           "model saved to m.model\n")
    info = tools.parse_output(full, out, "")
    assert (info["kernel_evals"], info["basis"], info["support_vectors"], info["tool_gap"]) == \
        (1814409, 496, 1267, 0.000987), info
    assert info["solve_time"] == 0.090 and info["exit"] == "converged", info
    gs = tools.parse_nesvm_spec("gs -t 2 -g {gamma}", 1, 0.02)
    out = ("read 270 rows, 13 features, 3510 stored entries (dense, double) in 0.000 s\n"
           "classes 2, binary models 1, iterations 120, time 0.001 s\n"
           "dual loss -157.2153817, support vectors 120, exit converged (GS-SVM's own stopping rule: no certificate)\n"
           "kernel rbf, basis 120 vectors, non-zero coefficients 120 of 120\n"
           "kernel evaluations 32400 (32400 without the cache), kernel columns computed 120, cache hits 0\n")
    info = tools.parse_output(gs, out, "")
    assert (info["kernel_evals"], info["basis"], info["exit"]) == (32400, 120, "converged"), info
    assert "tool_gap" not in info, info
    ls = tools.Tool("libsvm -t 2 -m 1000", "libsvm", {"t": 2, "m": 1000}, count_kernel=True)
    out = ("*\noptimization finished, #iter = 120\nnu = 0.1\nobj = -248.126265, rho = 2.914384\n"
           "nSV = 52, nBSV = 29\n*\noptimization finished, #iter = 80\nobj = -10.5, rho = 1\n"
           "nSV = 40, nBSV = 2\nTotal nSV = 478\n")
    info = tools.parse_output(ls, out, "")
    assert info["basis"] == 478 and info["iterations"] == 200 and "lower" not in info, info


@check("RSVM rows: the ss-* cases and checkerboard.py pass --kernel-norm coef (the paper's problem); the other "
       "RBF cases' nssvm/ssvm rows run the defaults, as their notes say")
def _():
    from lib import cases
    import checkerboard

    def kernel_rows(case_name):
        case = cases.CASES_BY_NAME[case_name]
        prob = next(p for p in case.problems if p.family == "rbf")
        return [t for t in cases.tools_for(case, prob) if t.adapter == "nesvm" and t.opts["solver"] in ("ssvm", "nssvm")]
    for name in ("ss-fmnist-tshirt-shirt", "ss-fmnist-0vr"):
        rows = kernel_rows(name)
        assert len(rows) == 3 and all("--kernel-norm coef" in " ".join(t.opts["args"]) for t in rows), \
            [t.id for t in rows]
        lin = [t for t in cases.tools_for(cases.CASES_BY_NAME[name], cases.P("sqhinge_regbias"))
               if t.adapter == "nesvm"]
        assert [t.id for t in lin] == ["nesvm ssvm t1", "nesvm nssvm t1"], [t.id for t in lin]
    rows = kernel_rows("kernel-checker-8000")
    assert len(rows) == 3 and not any("--kernel-norm" in t.opts["args"] for t in rows), [t.id for t in rows]
    assert "Nystrom" in cases.FAMILIES["rbf"]["note"] and "--kernel-norm coef" in cases.FAMILIES["rbf"]["note"]

    class Argv(Exception):
        pass

    class Stub:
        @staticmethod
        def run(argv, **kw):
            raise Argv(argv)
    real = checkerboard.subprocess
    checkerboard.subprocess = Stub
    try:
        checkerboard.train("nesvm", "nssvm", "optimal", "tr", "m", "t.csv")
        raise AssertionError("train ran nothing")
    except Argv as e:
        argv = e.args[0]
    finally:
        checkerboard.subprocess = real
    i = argv.index("--kernel-norm")
    assert argv[i + 1] == "coef" and argv[argv.index("--eps-abs") + 1] == "1e-4", argv


@check("expcount.c: svm-predict's RBF makes exactly test rows x support vectors exp() calls; linear none; "
       "through the spawn launcher too")
def _():
    so = kernelcount.build(TMP)
    assert so is not None
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1, -1)
    data = write("ec.svm", "".join(f"{t} " + " ".join(f"{j + 1}:{v:.6f}" for j, v in enumerate(r)) + "\n"
                                   for r, t in zip(X, y)))
    model, cnt = os.path.join(TMP, "ec.model"), os.path.join(TMP, "ec.count")

    def count(argv):
        subprocess.run(argv, check=True, capture_output=True, env=kernelcount.env(so, cnt))
        return kernelcount.read(cnt)
    n_train = count(["svm-train", "-t", "2", "-g", "0.5", "-c", "1", data, model])
    assert n_train > 0
    with open(model) as f:
        nsv = int(next(line for line in f if line.startswith("total_sv")).split()[1])
    assert count(["svm-predict", data, model, os.path.join(TMP, "ec.out")]) == 60 * nsv, nsv
    assert count(["svm-train", "-t", "0", "-c", "1", data, model]) == 0
    # the harness's launcher loads the library too: its line (0) adds nothing
    spawner = proc.setup_spawner(os.path.join(TMP, "bin"))
    if spawner:
        r = proc.run(["svm-train", "-t", "2", "-g", "0.5", "-c", "1", data, model], os.path.join(TMP, "ec.o"),
                     os.path.join(TMP, "ec.e"), env=kernelcount.env(so, cnt))
        assert r["returncode"] == 0 and kernelcount.read(cnt) == n_train, (r, open(cnt).read())
    assert kernelcount.read(os.path.join(TMP, "no-such-count")) is None


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
