#!/usr/bin/python3
"""test_grid_novelty.py - the one-class SVM (-s 2) in nesvm cv and grid -log2nu.

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
    SVM refused, and log2 nu > 0 refused, with nothing written.

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
        for bad_args, msg in [(["-log2nu", "-3,0,1"], "-log2nu searches the one-class SVM's nu: it needs "
                                                      "--svm-type one-class (or -s 2)"),
                              (["-s", "2", "-log2nu", "-3,1,1"], "bad value '-3,1,1' for -log2nu (log2 of nu in "
                                                                 "(0, 1]: -50 to 0)")]:
            r = run(["grid"] + bad_args + ["--out", "x.csv", "oc.txt"], tmp)
            report(r.returncode == 2 and msg in r.stderr and not os.path.exists(os.path.join(tmp, "x.csv")),
                   "refused: %s (%s)" % (msg, r.stderr.strip()[:120]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
