#!/usr/bin/python3
"""test_grid_regression.py - nesvm grid, train -C and easy on a regression
(--svm-type ls-svr): scored by the cross-validation mean squared error, the
smallest chosen.

The independent truth is leave-one-out cross-validation (-v n: every row its
own fold, whatever the shuffle), computed with numpy on a small synthetic set
(40 rows, 6 features, a deterministic draw):
  linear, free bias   min 1/2 ||w||^2 + C sum (y_i - w.x_i - b)^2, the normal
                      equations with an unpenalized bias, once per left-out row;
  RBF, free bias      the LS-SVM system [K + I/(2C), 1; 1', 0] [beta; b] = [y; 0].
Checked:
  - grid: every point's MSE in the CSV (column `mse`) against the oracle, the
    per-point lines in svm-train -v's words, the last line `C gamma mse` at the
    smallest MSE, which is the oracle's (the data give it a clear margin);
  - train -C: LIBLINEAR's lines for a regression, each MSE against the oracle,
    `Best C = X  CV MSE = Y` at the smallest;
  - on scikit-learn's diabetes set (5 folds): each point of a cold search equals
    `nesvm cv` at that point (the same folds); the CSV resumed from part of it
    is the whole search's; equal MSEs are broken as the classification search
    breaks equal accuracies (the first gamma, then the smallest C); a resumed MSE
    of 0 is taken, one of -1 or nan refused with the file left as it is; a
    classification CSV given to a regression search and the reverse are refused
    (exit 1, the file unchanged);
  - easy: the best line names the CSV's smallest MSE, the test set's MSE is
    printed in LIBSVM's words and equals numpy's on TEST.predict.

    test_grid_regression.py NESVM_BINARY
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_diabetes

HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"
NESVM = os.path.abspath(sys.argv[1])
passed = failed = 0


def report(ok, msg):
    global passed, failed
    print("%s - %s" % ("ok" if ok else "not ok", msg))
    passed += bool(ok)
    failed += not ok


def run(args, cwd):
    return subprocess.run([NESVM] + args, cwd=cwd, capture_output=True, text=True, timeout=600)


def write_libsvm(path, X, y):
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            f.write("%.17g " % y[i] + " ".join("%d:%.17g" % (j + 1, X[i, j])
                                                for j in range(X.shape[1]) if X[i, j] != 0) + "\n")


def synthetic():
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (40, 6))
    y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] ** 2 - X[:, 2] + 2.0 + 0.4 * rng.normal(size=40)
    return X, y


def loo_ridge(X, y, C):
    n, d = X.shape
    Z = np.hstack([X, np.ones((n, 1))])
    E = np.eye(d + 1)
    E[d, d] = 0
    err = 0.0
    for i in range(n):
        m = np.arange(n) != i
        th = np.linalg.solve(E + 2 * C * Z[m].T @ Z[m], 2 * C * Z[m].T @ y[m])
        err += (Z[i] @ th - y[i]) ** 2
    return err / n


def loo_lssvm(X, y, C, g):
    n = len(y)
    K = np.exp(-g * ((X[:, None, :] - X[None, :, :]) ** 2).sum(2))
    err = 0.0
    for i in range(n):
        m = np.arange(n) != i
        A = np.zeros((n, n))
        A[:n - 1, :n - 1] = K[np.ix_(m, m)] + np.eye(n - 1) / (2 * C)
        A[:n - 1, n - 1] = A[n - 1, :n - 1] = 1.0
        s = np.linalg.solve(A, np.append(y[m], 0.0))
        err += (K[i, m] @ s[:n - 1] + s[n - 1] - y[i]) ** 2
    return err / n


def points(path):
    """The CSV's header and points (log2 axis, log2 gamma, mse)."""
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    return lines[0], [(float(r[0]), float(r[1]), float(r[4])) for r in (l.split(",") for l in lines[1:])]


def grid_best(pts, gammas):
    """The point grid's rule picks: the smallest MSE; among equal ones the first
    gamma in the order searched, then the smallest C."""
    best = None
    for lg in gammas:
        for p in sorted((p for p in pts if p[1] == lg), key=lambda p: p[0]):
            if best is None or p[2] < best[2]:
                best = p
    return best


def read(path):
    with open(path) as f:
        return f.read()


def loo_checks(tmp):
    X, y = synthetic()
    n = len(y)
    write_libsvm(os.path.join(tmp, "syn"), X, y)
    # grid, RBF kernel, leave-one-out, cold starts
    lcs, lgs = [-2, 0, 2, 4, 6], [-5, -3, -1, 1]
    r = run(["grid", "--cold", "--svm-type", "ls-svr", "-t", "rbf", "-e", "1e-10", "-v", str(n), "-log2c", "-2,6,2",
             "-log2g", "-5,1,2", "--out", "syn.csv", "syn"], tmp)
    report(r.returncode == 0, "grid ls-svr rbf leave-one-out: exit %d %s" % (r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    header, pts = points(os.path.join(tmp, "syn.csv"))
    report(header == "log2c,log2g,c,gamma,mse" and len(pts) == 20, "grid: the CSV's header %r, %d points" %
           (header, len(pts)))
    worst, oracle = 0.0, {}
    for lc, lg, mse in pts:
        o = oracle[lc, lg] = loo_lssvm(X, y, 2.0 ** lc, 2.0 ** lg)
        worst = max(worst, abs(mse - o) / o)
    report(len(oracle) == 20 and worst <= 1e-4, "grid: 20 points' MSE against leave-one-out LS-SVM, worst %.2e" % worst)
    lines = r.stdout.splitlines()
    per = [l for l in lines if re.match(r"^log2c \S+ log2g \S+: Cross Validation Mean squared error = \S+ "
                                        r"\(best: log2c \S+ log2g \S+, \S+\)$", l)]
    report(len(per) == 20 and "%" not in r.stdout, "grid: 20 lines in svm-train -v's words: %r" % lines[:2])
    best = grid_best(pts, lgs)
    last = lines[-1].split()
    ob = sorted(oracle.values())
    report(ob[1] - ob[0] > 1e-3 * ob[0], "the data give the oracle's best a margin: %.6g, %.6g" % (ob[0], ob[1]))
    omin = min(oracle, key=oracle.get)
    report(len(last) == 3 and float(last[0]) == 2.0 ** best[0] and float(last[1]) == 2.0 ** best[1] and
           abs(float(last[2]) - best[2]) <= 1e-5 * best[2] and (best[0], best[1]) == omin,
           "grid: last line %r is the smallest MSE of the CSV (log2c %g log2g %g) and the oracle's (%g, %g)" %
           (lines[-1], best[0], best[1], omin[0], omin[1]))
    # train -C: linear, leave-one-out
    r = run(["train", "--svm-type", "ls-svr", "-C", "-v", str(n), "-e", "1e-12", "syn"], tmp)
    rows = re.findall(r"^log2c=\s*(\S+)\tMean squared error=(\S+)$", r.stdout, re.M)
    m = re.search(r"^Best C = (\S+)  CV MSE = (\S+)$", r.stdout, re.M)
    report(r.returncode == 0 and len(rows) >= 10 and m and "rate" not in r.stdout and "accuracy" not in r.stdout,
           "train -C: %d lines in LIBLINEAR's words and its best line: %r" % (len(rows), r.stdout[-200:]))
    if not rows or not m:
        return
    cs = [2.0 ** float(a) for a, _ in rows]
    mses = [float(b) for _, b in rows]
    oracle = [loo_ridge(X, y, c) for c in cs]
    worst = max(abs(a - b) / b for a, b in zip(mses, oracle))
    report(worst <= 1e-5, "train -C: %d MSEs against leave-one-out ridge with a free bias, worst %.2e" %
           (len(cs), worst))
    k = min(range(len(cs)), key=lambda i: (mses[i], cs[i]))
    ok = sorted(oracle)
    report(ok[1] - ok[0] > 1e-3 * ok[0] and float(m.group(1)) == cs[k] and float(m.group(2)) == mses[k] and
           k == int(np.argmin(oracle)),
           "train -C: best C %s (smallest printed MSE at C %g, the oracle's at C %g)" %
           (m.group(1), cs[k], cs[int(np.argmin(oracle))]))


def diabetes_checks(tmp):
    dia = load_diabetes()
    X = dia.data / np.abs(dia.data).max(0)
    y = (dia.target - dia.target.mean()) / dia.target.std()
    write_libsvm(os.path.join(tmp, "dia"), X, y)
    grid = ["--svm-type", "ls-svr", "-t", "rbf", "-log2c", "-3,3,2", "-log2g", "-3,1,2", "-v", "5"]
    lgs = [-3, -1, 1]
    # a cold search: every point is nesvm cv's at that point
    r = run(["grid", "-q", "--cold"] + grid + ["--out", "cold.csv", "dia"], tmp)
    report(r.returncode == 0, "grid on diabetes, cold: exit %d %s" % (r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    _, pts = points(os.path.join(tmp, "cold.csv"))
    bad = []
    for lc, lg, mse in pts:
        c = run(["cv", "--svm-type", "ls-svr", "-t", "rbf", "-v", "5", "-c", "%.17g" % 2.0 ** lc, "-g",
                 "%.17g" % 2.0 ** lg, "dia"], tmp)
        mm = re.search(r"^Cross Validation Mean squared error = (\S+)$", c.stdout, re.M)
        if not mm or "%g" % mse != mm.group(1):
            bad.append((lc, lg, mse, mm and mm.group(1)))
    report(len(pts) == 12 and not bad, "grid: 12 points equal nesvm cv's MSE (%s)" % bad[:2])
    # the warm search, and resumed from its first five points
    r = run(["grid"] + grid + ["--out", "warm.csv", "dia"], tmp)
    full = read(os.path.join(tmp, "warm.csv"))
    head = full.splitlines(True)
    with open(os.path.join(tmp, "part.csv"), "w") as f:
        f.writelines(head[:8])
    r2 = run(["grid"] + grid + ["--out", "part.csv", "dia"], tmp)
    report(r.returncode == 0 and r2.returncode == 0 and "resumed 5 of 12 points from part.csv\n" in r2.stdout and
           read(os.path.join(tmp, "part.csv")) == full and r2.stdout.splitlines()[-1] == r.stdout.splitlines()[-1],
           "grid: resumed from 5 of 12 points, the same CSV and best line (%r)" % r2.stdout.splitlines()[:1])
    _, wp = points(os.path.join(tmp, "warm.csv"))
    b = grid_best(wp, lgs)
    last = r.stdout.splitlines()[-1].split()
    report(float(last[0]) == 2.0 ** b[0] and float(last[1]) == 2.0 ** b[1] and "%g" % b[2] == last[2],
           "grid: the best line %r at the CSV's smallest MSE" % r.stdout.splitlines()[-1])
    # equal MSEs: the first gamma wins, then the smallest C; a resumed 0 is taken
    lines = full.splitlines(True)
    def setp(ls, lc, lg, v):
        for i in range(3, len(ls)):
            f = ls[i].split(",")
            if float(f[0]) == lc and float(f[1]) == lg:
                f[4] = v + "\n"
                ls[i] = ",".join(f)
                return
        raise AssertionError("no point %g %g" % (lc, lg))
    tie = list(lines)
    for lc, lg in ((1, -1), (-1, -1), (-3, 1)):
        setp(tie, lc, lg, "0.125")
    with open(os.path.join(tmp, "tie.csv"), "w") as f:
        f.writelines(tie)
    r = run(["grid", "-q"] + grid + ["--out", "tie.csv", "dia"], tmp)
    report(r.returncode == 0 and r.stdout == "0.5 0.5 0.125\n",
           "grid: equal MSEs at log2c 1 and -1 (log2g -1) and -3 (log2g 1): %r (want '0.5 0.5 0.125')" % r.stdout)
    zero = list(lines)
    setp(zero, 3, 1, "0")
    with open(os.path.join(tmp, "zero.csv"), "w") as f:
        f.writelines(zero)
    r = run(["grid", "-q"] + grid + ["--out", "zero.csv", "dia"], tmp)
    report(r.returncode == 0 and r.stdout == "8 2 0\n", "grid: a resumed MSE of 0 taken (and the best): %r" % r.stdout)
    # damaged MSEs refused, the file left as it is
    for v in ("-1", "nan"):
        bad = list(lines)
        setp(bad, -1, -3, v)
        path = os.path.join(tmp, "bad.csv")
        with open(path, "w") as f:
            f.writelines(bad)
        r = run(["grid", "-q"] + grid + ["--out", "bad.csv", "dia"], tmp)
        want = ("nesvm grid: error: bad.csv:5: mean squared error '%s' is not a number >= 0: the CSV was changed or "
                "damaged; remove it to search afresh\n" % v)
        report(r.returncode == 1 and r.stderr == want and read(path) == "".join(bad),
               "grid: a resumed MSE of %s refused: exit %d %r" % (v, r.returncode, r.stderr))
    # a CSV of the other task: refused, the file left as it is
    shutil.copy(HEART, os.path.join(tmp, "heart"))
    r = run(["grid", "-q", "-log2c", "0,1,1", "--out", "class.csv", "heart"], tmp)
    before = read(os.path.join(tmp, "class.csv"))
    r2 = run(["grid", "-q"] + grid + ["--out", "class.csv", "dia"], tmp)
    want = ("nesvm grid: error: class.csv:3: the CSV holds a classification search (column 'accuracy'), and this "
            "search is a regression (column 'mse'): give another --out, or remove the file to search afresh\n")
    report(r.returncode == 0 and r2.returncode == 1 and r2.stderr == want and r2.stdout == "" and
           read(os.path.join(tmp, "class.csv")) == before,
           "grid: a classification CSV given to a regression search refused: exit %d %r" % (r2.returncode, r2.stderr))
    r2 = run(["grid", "-q", "-log2c", "0,1,1", "--out", "warm.csv", "heart"], tmp)
    want = ("nesvm grid: error: warm.csv:3: the CSV holds a regression search (column 'mse'), and this search is a "
            "classification (column 'accuracy'): give another --out, or remove the file to search afresh\n")
    report(r2.returncode == 1 and r2.stderr == want and read(os.path.join(tmp, "warm.csv")) == full,
           "grid: a regression CSV given to a classification search refused: exit %d %r" % (r2.returncode, r2.stderr))
    # easy: search by MSE, train, predict printing the regression's figures
    write_libsvm(os.path.join(tmp, "dtr"), X[:300], y[:300])
    write_libsvm(os.path.join(tmp, "dte"), X[300:], y[300:])
    r = run(["easy", "--svm-type", "ls-svr", "-log2c", "-3,3,2", "-log2g", "-3,1,2", "dtr", "dte"], tmp)
    m = re.search(r"^Best c=(\S+), g=(\S+) CV MSE=(\S+)$", r.stdout, re.M)
    m2 = re.search(r"^Mean squared error = (\S+) \(regression\)$", r.stdout, re.M)
    report(r.returncode == 0 and m and m2 and "Accuracy" not in r.stdout and "rate" not in r.stdout,
           "easy ls-svr: exit %d, %r %s" % (r.returncode, r.stdout, r.stderr))
    if not (m and m2):
        return
    _, ep = points(os.path.join(tmp, "dtr.scale.grid.csv"))
    b = grid_best(ep, lgs)
    pred = np.loadtxt(os.path.join(tmp, "dte.predict"))
    mse = np.mean((pred - y[300:]) ** 2)
    report(float(m.group(1)) == 2.0 ** b[0] and float(m.group(2)) == 2.0 ** b[1] and m.group(3) == "%g" % b[2] and
           abs(float(m2.group(1)) - mse) <= 1e-5 * mse,
           "easy: best c=%s g=%s at the CSV's smallest MSE; test MSE %s, numpy %.6g" %
           (m.group(1), m.group(2), m2.group(1), mse))


def main():
    tmp = tempfile.mkdtemp(prefix="nesvm-gridreg-")
    try:
        loo_checks(tmp)
        diabetes_checks(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
