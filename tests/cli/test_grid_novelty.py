#!/usr/bin/python3
"""test_grid_novelty.py - the nu types in nesvm cv and grid -log2nu: the one-class
SVM (-s 2), nu-SVC (-s 1) and nu-SVR (-s 4).

Independent truths:
  - leave-one-out cross-validation (-v n: every row its own fold, whatever the
    shuffle) on a small two-label set (36 rows: inliers +1 around the origin,
    outliers -1 scattered), which LIBSVM's svm-train -s 2 -v n computes too,
    and which numpy recomputes from n trainings of nesvm train on the other
    rows (their left-out decision values, scikit-learn's roc_auc_score);
  - for grid: nesvm cv at each point of the grid (the same folds and seed).
Checked:
  - cv -s 2 -v n: 'Cross Validation Accuracy' equal to svm-train -s 2 -v n's
    and to the n trainings', 'Cross Validation ROC AUC' equal to
    roc_auc_score of the n left-out decision values; no AUC line with one label;
  - grid -s 2: the CSV's columns log2nu,log2g,svm_nu,gamma,accuracy, every
    point's accuracy against nesvm cv at that point, the last line
    'nu gamma accuracy' at the CSV's best point (the first of the largest
    accuracy in grid's order), the per-point lines; a rerun resumes every
    point; the linear kernel searches nu alone; -log2nu outside the one-class
    SVM refused, and log2 nu > 0 refused, with nothing written;
  - grid -s 1: nu and gamma, every point against nesvm cv -s 1, a nu infeasible
    on some fold (heart_scale's nu = 1) scored nan, as cv refuses it, resumed;
    every nu infeasible: an error;
  - grid -s 4 -log2nu: C, gamma and nu, every point (--cold) against nesvm cv
    -s 4; the CSV of a search over nu overwritten, with the warning, by one
    with nu fixed.

    test_grid_novelty.py NESVM_BINARY
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.metrics import roc_auc_score

NESVM = os.path.abspath(sys.argv[1])
passed = failed = 0


def report(ok, msg):
    global passed, failed
    print("%s - %s" % ("ok" if ok else "not ok", msg))
    passed += bool(ok)
    failed += not ok


def run(args, cwd, exe=None):
    return subprocess.run([exe or NESVM] + args, cwd=cwd, capture_output=True, text=True, timeout=600)


def write_libsvm(path, X, y):
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            f.write("%.17g " % y[i] + " ".join("%d:%.17g" % (j + 1, X[i, j]) for j in range(X.shape[1])) + "\n")


def main():
    tmp = tempfile.mkdtemp(prefix="nesvm-grid-oc-")
    try:
        rng = np.random.RandomState(4)
        n = 36
        out = np.arange(n) % 4 == 0
        X = np.where(out[:, None], rng.uniform(-4, 4, size=(n, 2)), rng.normal(scale=0.7, size=(n, 2)))
        y = np.where(out, -1.0, 1.0)
        write_libsvm(os.path.join(tmp, "oc.txt"), X, y)
        write_libsvm(os.path.join(tmp, "one.txt"), X, np.ones(n))
        opts = ["-s", "2", "-t", "rbf", "-g", "0.5", "-n", "0.3"]

        # ---- cv -v n against LIBSVM and n trainings
        r = run(["cv", "-v", str(n), "-e", "1e-10"] + opts + ["oc.txt"], tmp)
        acc = re.search(r"^Cross Validation Accuracy = (\S+)%$", r.stdout, re.M)
        auc = re.search(r"^Cross Validation ROC AUC = (\S+)$", r.stdout, re.M)
        report(r.returncode == 0 and acc and auc, "cv -s 2: the accuracy and ROC AUC lines (%s)" %
               (r.stderr.strip()[:200] or r.stdout.strip().replace("\n", "; ")))
        lib = run(["-s", "2", "-t", "2", "-g", "0.5", "-n", "0.3", "-e", "1e-8", "-v", str(n), "oc.txt"], tmp,
                  exe="svm-train")
        la = re.search(r"Cross Validation Accuracy = (\S+)%", lib.stdout)
        report(acc and la and abs(float(acc.group(1)) - float(la.group(1))) < 1e-9,
               "cv -s 2 -v n: svm-train -s 2 -v n's accuracy (%s, LIBSVM %s)" %
               (acc and acc.group(1), la and la.group(1)))
        dec = np.empty(n)
        for i in range(n):
            keep = np.arange(n) != i
            write_libsvm(os.path.join(tmp, "tr.txt"), X[keep], y[keep])
            write_libsvm(os.path.join(tmp, "te.txt"), X[i:i + 1], y[i:i + 1])
            run(["train", "-q", "-e", "1e-10"] + opts + ["tr.txt", "m"], tmp)
            run(["predict", "-q", "--decision-values", "te.txt", "m", "p"], tmp)
            dec[i] = float(open(os.path.join(tmp, "p")).read().split()[1])
        want_acc = 100.0 * np.mean(np.where(dec > 0, 1.0, -1.0) == y)
        want_auc = roc_auc_score(y, dec)
        report(acc and abs(float(acc.group(1)) - want_acc) < 1e-4 * max(1, want_acc),
               "cv accuracy = n trainings' (%s against %.6g)" % (acc and acc.group(1), want_acc))
        report(auc and abs(float(auc.group(1)) - want_auc) <= 1e-5 and 0.5 < want_auc < 1,
               "cv ROC AUC = roc_auc_score of the left-out decision values (%s against %.6g)" %
               (auc and auc.group(1), want_auc))
        r = run(["cv", "-v", "5"] + opts + ["one.txt"], tmp)
        report(r.returncode == 0 and "Cross Validation Accuracy" in r.stdout and "ROC AUC" not in r.stdout,
               "cv -s 2 on one label: no ROC AUC line")

        # ---- grid -log2nu
        args = ["grid", "-s", "2", "-t", "rbf", "-log2nu", "-3,0,1", "-log2g", "1,-3,-2", "--out", "g.csv", "oc.txt"]
        r = run(args, tmp)
        lines = [l for l in open(os.path.join(tmp, "g.csv")) if not l.startswith("#")] if r.returncode == 0 else []
        report(r.returncode == 0 and lines and lines[0].strip() == "log2nu,log2g,svm_nu,gamma,accuracy"
               and len(lines) == 1 + 4 * 3, "grid -s 2: the CSV's columns and 12 points (%s)" % r.stderr.strip()[:200])
        pts = [[float(v) for v in l.split(",")] for l in lines[1:]]
        bad = []
        for lnu, lg, nu, g, a in pts:
            c = run(["cv", "-v", "5", "-s", "2", "-t", "rbf", "-n", "%.17g" % nu, "-g", "%.17g" % g, "oc.txt"], tmp)
            m = re.search(r"Cross Validation Accuracy = (\S+)%", c.stdout)
            if not m or abs(float(m.group(1)) - a) > 1e-4 or nu != 2 ** lnu or g != 2 ** lg:
                bad.append((nu, g, a, m and m.group(1)))
        report(pts and not bad, "every grid point's accuracy = nesvm cv's at that point %s" % bad[:2])
        last = r.stdout.strip().splitlines()[-1].split() if r.returncode == 0 else []
        best = None
        for p in sorted(pts, key=lambda p: (-p[1], p[0])):  # grid's order: gamma outer, nu inner
            if best is None or p[4] > best[4]:
                best = p
        report(len(last) == 3 and best and float(last[0]) == best[2] and float(last[1]) == best[3]
               and abs(float(last[2]) - best[4]) < 1e-4, "the last line 'nu gamma accuracy' = the best point %s" %
               (last,))
        report(re.search(r"^log2nu -3 log2g 1: \S+% \(best: log2nu", r.stdout, re.M) is not None,
               "the per-point lines name log2nu")
        r2 = run(args, tmp)
        report(r2.returncode == 0 and "resumed 12 of 12 points" in r2.stdout and
               r2.stdout.strip().splitlines()[-1] == r.stdout.strip().splitlines()[-1],
               "a rerun resumes every point, the same best")
        r = run(["grid", "-s", "2", "-t", "linear", "-log2nu", "-2,0,1", "--out", "l.csv", "oc.txt"], tmp)
        lines = [l for l in open(os.path.join(tmp, "l.csv")) if not l.startswith("#")] if r.returncode == 0 else []
        report(len(lines) == 4 and all(l.split(",")[3] == "" for l in lines[1:]),
               "the linear kernel: nu alone (%s)" % r.stderr.strip()[:200])
        for bad_args, msg in [(["-log2nu", "-3,0,1"], "-log2nu searches nu: it needs --svm-type one-class, nu-svc "
                                                      "or nu-svr (-s 2, 1 or 4), not svm_type c"),
                              (["-s", "2", "-log2nu", "-3,1,1"], "bad value '-3,1,1' for -log2nu (log2 of nu in "
                                                                 "(0, 1]: -50 to 0)")]:
            r = run(["grid"] + bad_args + ["--out", "x.csv", "oc.txt"], tmp)
            report(r.returncode == 2 and msg in r.stderr and not os.path.exists(os.path.join(tmp, "x.csv")),
                   "refused: %s (%s)" % (msg, r.stderr.strip()[:120]))

        # ---- nu-SVC (-s 1): nu in place of C; a nu infeasible on a fold is not trained
        heart = "/usr/share/doc/liblinear-tools/examples/heart_scale"
        shutil.copy(heart, os.path.join(tmp, "heart"))
        args = ["grid", "-s", "1", "-t", "rbf", "-log2nu", "-3,0,1", "-log2g", "-1,-5,-2", "--out", "n.csv", "heart"]
        r = run(args, tmp)
        lines = [l for l in open(os.path.join(tmp, "n.csv")) if not l.startswith("#")] if r.returncode == 0 else []
        report(r.returncode == 0 and lines and lines[0].strip() == "log2nu,log2g,svm_nu,gamma,accuracy"
               and len(lines) == 13, "grid -s 1: nu and gamma, 12 points (%s)" % r.stderr.strip()[:200])
        pts = [l.strip().split(",") for l in lines[1:]]
        bad, nans = [], 0
        for lnu, lg, nu, g, a in pts:
            c = run(["cv", "-v", "5", "-s", "1", "-t", "rbf", "-n", nu, "-g", g, "heart"], tmp)
            m = re.search(r"Cross Validation Accuracy = (\S+)%", c.stdout)
            if a == "nan":  # heart_scale: 150 and 120 rows, nu = 1 infeasible (nu <= 2 x 120 / 270)
                nans += 1
                if c.returncode != 1 or "specified nu is infeasible" not in c.stderr or float(nu) != 1:
                    bad.append((nu, g, a, c.stderr.strip()[:80]))
            elif not m or abs(float(m.group(1)) - float(a)) > 1e-4:
                bad.append((nu, g, a, m and m.group(1)))
        report(pts and not bad and nans == 3, "nu-SVC: every point = nesvm cv's, nu = 1 infeasible (nan) as cv "
               "refuses it %s" % bad[:2])
        report(re.search(r"^log2nu 0 log2g -1: no model on a fold's training rows: nu infeasible, or w = 0 \(best: ",
                         r.stdout, re.M)
               is not None, "the infeasible points' lines")
        best = max((p for p in pts if p[4] != "nan"), key=lambda p: float(p[4]))
        last = r.stdout.strip().splitlines()[-1].split()
        report(len(last) == 3 and float(last[0]) == float(best[2]) and abs(float(last[2]) - float(best[4])) < 1e-4,
               "nu-SVC: the best line 'nu gamma accuracy' %s" % (last,))
        r2 = run(args, tmp)
        report(r2.returncode == 0 and "resumed 12 of 12 points" in r2.stdout, "a rerun resumes the nan points too")
        r = run(["grid", "-s", "1", "-t", "rbf", "-log2nu", "0,0,1", "-log2g", "-1,-1,1", "--out", "z.csv", "heart"],
                tmp)
        report(r.returncode == 1 and "no nu of the search gives a model on every fold's training rows" in r.stderr,
               "every nu infeasible: an error (%s)" % r.stderr.strip()[:100])

        # ---- nu-SVR (-s 4): C (warm starts), gamma, and nu as the third axis
        rs = np.random.RandomState(2)
        Xr = rs.uniform(-1, 1, size=(60, 3))
        write_libsvm(os.path.join(tmp, "reg.txt"), Xr, np.sin(3 * Xr[:, 0]) + Xr[:, 1] ** 2)
        args = ["grid", "-s", "4", "-t", "rbf", "--cold", "-log2c", "-1,3,2", "-log2g", "-1,-1,1", "-log2nu", "-2,-1,1",
                "--out", "r.csv", "reg.txt"]
        r = run(args, tmp)
        lines = [l for l in open(os.path.join(tmp, "r.csv")) if not l.startswith("#")] if r.returncode == 0 else []
        report(r.returncode == 0 and lines and lines[0].strip() == "log2c,log2g,log2nu,c,gamma,nu,mse"
               and len(lines) == 7, "grid -s 4 -log2nu: C, gamma and nu (%s)" % r.stderr.strip()[:200])
        bad = []
        for lc, lg, lnu, c_, g, nu, mse in (l.strip().split(",") for l in lines[1:]):
            c = run(["cv", "-v", "5", "-s", "4", "-t", "rbf", "-c", c_, "-n", nu, "-g", g, "reg.txt"], tmp)
            m = re.search(r"Cross Validation Mean squared error = (\S+)", c.stdout)
            if not m or abs(float(m.group(1)) - float(mse)) > 1e-5 * float(mse):
                bad.append((c_, nu, mse, m and m.group(1)))
        report(lines and not bad, "nu-SVR: every point (cold) = nesvm cv's %s" % bad[:2])
        last = r.stdout.strip().splitlines()[-1].split() if r.returncode == 0 else []
        report(len(last) == 4, "nu-SVR: the best line 'C gamma nu mse' %s" % (last,))
        r = run(["grid", "-s", "4", "-t", "rbf", "--cold", "-log2c", "-1,3,2", "-log2g", "-1,-1,1", "--out", "r.csv",
                 "reg.txt"], tmp)
        report(r.returncode == 0 and "holds a search over nu (column log2nu), and this one has nu fixed (-n)"
               in r.stderr and open(os.path.join(tmp, "r.csv")).read().count("\n") == 3 + 3,
               "nu fixed after a search over nu: the warning, a new CSV (%s)" % r.stderr.strip()[:150])
        r = run(["grid", "-log2nu", "-2,-1,1", "--out", "x.csv", "heart"], tmp)
        report(r.returncode == 2 and "-log2nu searches nu: it needs --svm-type one-class, nu-svc or nu-svr (-s 2, 1 "
               "or 4), not svm_type c" in r.stderr, "-log2nu with the C-SVM refused")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
