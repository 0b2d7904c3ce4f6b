#!/usr/bin/python3
"""test_grid_svr.py - epsilon-SVR (-s 3) in nesvm cv, grid -log2p and easy -y.

Independent truths:
  - leave-one-out cross-validation (-v n: every row its own fold, whatever the
    shuffle) on a small synthetic set (30 rows, 4 features, a deterministic
    draw), which LIBSVM's svm-train -s 3 -v n computes too, and which numpy
    recomputes from n trainings of nesvm train on the other rows;
  - for easy -y: the steps by hand (nesvm scale -y, train, scale -r, predict)
    and the targets' map inverted by numpy from the training targets' range.
Checked:
  - cv -s 3: LIBSVM's two lines, equal to svm-train -s 3 -v n's and to numpy's
    MSE and squared correlation coefficient of the left-out predictions;
  - grid -s 3 -log2p: the CSV's columns log2c,log2g,log2p,c,gamma,p,mse, every
    point's MSE against svm-train -s 3 -v n at that point, the per-point lines,
    the last line 'C gamma p mse' at the CSV's smallest MSE (the oracle's); a
    rerun resumes every point and trains nothing; a CSV cut after two (gamma,
    p) paths is completed to the whole search's; a CSV without p and one with p
    are different searches (a warning, overwritten); without -log2p nothing
    changes (three numbers on the last line, five columns); -log2p without
    epsilon-SVR refused (grid and easy); --png draws the map at the best p;
  - easy -s 3 -y: TRAIN.range holds the targets' map, the search, training and
    -p are in the scaled units, TEST.predict is the hand-made scaled model's
    prediction mapped back (original units), and the printed MSE, squared
    correlation and best line's CV MSE are in the original units; -y with a
    classification refused.

    test_grid_svr.py NESVM_BINARY
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


def run(args, cwd, exe=None):
    return subprocess.run([exe or NESVM] + args, cwd=cwd, capture_output=True, text=True, timeout=600)


def write_libsvm(path, X, y):
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            f.write("%.17g " % y[i] + " ".join("%d:%.17g" % (j + 1, X[i, j])
                                                for j in range(X.shape[1]) if X[i, j] != 0) + "\n")


def read(path):
    with open(path) as f:
        return f.read()


def synthetic():
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, (30, 4))
    y = np.sin(2 * X[:, 0]) + X[:, 1] - 0.5 * X[:, 2] ** 2 + 0.2 * rng.normal(size=30)
    return X, y


def libsvm_loo(tmp, n, c, g, p):
    """svm-train -s 3 -v n's mean squared error (leave-one-out)."""
    r = run(["-s", "3", "-t", "2", "-c", "%.17g" % c, "-g", "%.17g" % g, "-p", "%.17g" % p, "-e", "1e-8", "-v",
             str(n), "syn"], tmp, exe="svm-train")
    m = re.search(r"^Cross Validation Mean squared error = (\S+)$", r.stdout, re.M)
    s = re.search(r"^Cross Validation Squared correlation coefficient = (\S+)$", r.stdout, re.M)
    return (float(m.group(1)), float(s.group(1))) if m and s else (None, None)


def close(a, b, rel):
    return a is not None and b is not None and abs(a - b) <= rel * abs(b)


def cv_checks(tmp, X, y):
    n = len(y)
    opts = ["-s", "3", "-t", "rbf", "-g", "0.5", "-c", "4", "-p", "0.1", "-e", "1e-8"]
    r = run(["cv"] + opts + ["-v", str(n), "syn"], tmp)
    m = re.search(r"^Cross Validation Mean squared error = (\S+)$", r.stdout, re.M)
    s = re.search(r"^Cross Validation Squared correlation coefficient = (\S+)$", r.stdout, re.M)
    report(r.returncode == 0 and m and s and "Accuracy" not in r.stdout,
           "cv -s 3: LIBSVM's two lines: exit %d %r" % (r.returncode, r.stdout[-200:]))
    if not (m and s):
        return
    # numpy's figures of the left-out predictions, each by nesvm train on the other rows
    pred = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        write_libsvm(os.path.join(tmp, "loo_tr"), X[keep], y[keep])
        write_libsvm(os.path.join(tmp, "loo_te"), X[i:i + 1], y[i:i + 1])
        t = run(["train", "-q"] + opts + ["loo_tr", "loo.model"], tmp)
        q = run(["predict", "-q", "loo_te", "loo.model", "loo.pred"], tmp)
        pred[i] = float(read(os.path.join(tmp, "loo.pred"))) if t.returncode == 0 and q.returncode == 0 else np.nan
    mse = float(np.mean((pred - y) ** 2))
    scc = float(np.corrcoef(pred, y)[0, 1] ** 2)
    lm, ls = libsvm_loo(tmp, n, 4, 0.5, 0.1)
    report(close(float(m.group(1)), mse, 1e-5) and close(float(s.group(1)), scc, 1e-5),
           "cv -s 3 -v %d: MSE %s SCC %s, numpy on %d left-out trainings %.6g %.6g" %
           (n, m.group(1), s.group(1), n, mse, scc))
    report(close(float(m.group(1)), lm, 1e-5) and close(float(s.group(1)), ls, 1e-5),
           "cv -s 3 -v %d: MSE %s SCC %s, svm-train -s 3 -v %d: %s %s" % (n, m.group(1), s.group(1), n, lm, ls))


def points(path):
    """The CSV's header and points (the log2 columns and the score)."""
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    rows = [l.split(",") for l in lines[1:]]
    if lines[0].split(",")[2] == "log2p":
        return lines[0], [(float(r[0]), float(r[1]), float(r[2]), float(r[6])) for r in rows]
    return lines[0], [(float(r[0]), float(r[1]), float(r[4])) for r in rows]


def grid_best(pts, pairs):
    """grid's rule: the smallest MSE; among equal ones the first (gamma, p) pair
    in the order searched, then the smallest C."""
    best = None
    for lg, lp in pairs:
        for pt in sorted((pt for pt in pts if (pt[1], pt[2]) == (lg, lp)), key=lambda pt: pt[0]):
            if best is None or pt[3] < best[3]:
                best = pt
    return best


def grid_checks(tmp, y):
    n = len(y)
    grid = ["grid", "-s", "3", "-t", "rbf", "-e", "1e-8", "-v", str(n), "-log2c", "-1,3,2", "-log2g", "-2,0,2",
            "-log2p", "-4,-2,1"]
    pairs = [(lg, lp) for lg in (-2, 0) for lp in (-4, -3, -2)]
    r = run(grid + ["--out", "p.csv", "--png", "p.png", "syn"], tmp)
    report(r.returncode == 0, "grid -s 3 -log2p: exit %d %s" % (r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    header, pts = points(os.path.join(tmp, "p.csv"))
    report(header == "log2c,log2g,log2p,c,gamma,p,mse" and len(pts) == 18,
           "grid -log2p: the CSV's header %r, %d points" % (header, len(pts)))
    # the p column is 2^log2p, the settings leave epsilon out
    text = read(os.path.join(tmp, "p.csv"))
    rows = [l.split(",") for l in text.splitlines()[3:]]
    report(all(float(rw[5]) == 2.0 ** float(rw[2]) and float(rw[3]) == 2.0 ** float(rw[0]) for rw in rows) and
           " epsilon=" not in text.splitlines()[1] and " svm_type=svr " in text.splitlines()[1],
           "grid -log2p: the columns c and p are 2^log2c and 2^log2p; the settings line has no epsilon")
    worst, oracle = 0.0, {}
    for lc, lg, lp, mse in pts:
        o = oracle[lc, lg, lp] = libsvm_loo(tmp, n, 2.0 ** lc, 2.0 ** lg, 2.0 ** lp)[0]
        worst = max(worst, abs(mse - o) / o if o else np.inf)
    report(len(oracle) == 18 and worst <= 1e-5,
           "grid -log2p: 18 points' MSE against svm-train -s 3 -v %d, worst %.2e" % (n, worst))
    lines = r.stdout.splitlines()
    per = [l for l in lines if re.match(r"^log2c \S+ log2g \S+ log2p \S+: Cross Validation Mean squared error = "
                                        r"\S+ \(best: log2c \S+ log2g \S+ log2p \S+, \S+\)$", l)]
    report(len(per) == 18, "grid -log2p: 18 lines with log2p: %r" % lines[:1])
    best = grid_best(pts, pairs)
    last = lines[-1].split()
    ob = sorted(oracle.values())
    omin = min(oracle, key=oracle.get)
    report(ob[1] - ob[0] > 1e-3 * ob[0], "the data give the oracle's best a margin: %.6g, %.6g" % (ob[0], ob[1]))
    report(len(last) == 4 and float(last[0]) == 2.0 ** best[0] and float(last[1]) == 2.0 ** best[1] and
           float(last[2]) == 2.0 ** best[2] and last[3] == "%g" % best[3] and best[:3] == omin,
           "grid -log2p: last line %r (C gamma p mse) is the CSV's smallest MSE (%s) and the oracle's (%s)" %
           (lines[-1], best[:3], omin))
    with open(os.path.join(tmp, "p.png"), "rb") as f:
        report(f.read(8) == b"\x89PNG\r\n\x1a\n", "grid -log2p --png: a PNG")
    # a rerun: every point resumed, nothing trained, the same CSV and line
    r2 = run(grid + ["--out", "p.csv", "syn"], tmp)
    report(r2.returncode == 0 and "resumed 18 of 18 points from p.csv\n" in r2.stdout and
           re.search(r"^0 points scored, 0 iterations ", r2.stdout, re.M) and read(os.path.join(tmp, "p.csv")) == text
           and r2.stdout.splitlines()[-1] == lines[-1],
           "grid -log2p rerun: resumed, no training: %r" % r2.stdout.splitlines()[-2:])
    # cut after two (gamma, p) paths: completed to the whole search's CSV
    with open(os.path.join(tmp, "part.csv"), "w") as f:
        f.writelines(text.splitlines(True)[:9])
    r3 = run(grid + ["--out", "part.csv", "syn"], tmp)
    report(r3.returncode == 0 and "resumed 6 of 18 points from part.csv\n" in r3.stdout and
           read(os.path.join(tmp, "part.csv")) == text and r3.stdout.splitlines()[-1] == lines[-1],
           "grid -log2p: resumed 6 of 18 points, the whole search's CSV and line (%r)" % r3.stdout.splitlines()[:1])
    # without -log2p: grid's CSV and last line as before; a different search from the one with p
    r4 = run(grid[:-2] + ["-p", "0.125", "-q", "--out", "p.csv", "syn"], tmp)
    h4, p4 = points(os.path.join(tmp, "p.csv"))
    want = ("nesvm grid: warning: 'p.csv' holds a search over p (column log2p), and this one has p fixed (-p): it "
            "is overwritten by a new search\n")
    report(r4.returncode == 0 and r4.stderr == want and h4 == "log2c,log2g,c,gamma,mse" and len(p4) == 6 and
           len(r4.stdout.split()) == 3, "grid -s 3 without -log2p: %r %r %r" % (r4.stderr, h4, r4.stdout))
    # the points at p = 0.125 are the -log2p search's at log2p -3
    same = all(abs(mse - next(q[3] for q in pts if q[:3] == (lc, lg, -3.0))) <= 1e-9 * mse for lc, lg, mse in p4)
    report(same, "grid -s 3 -p 0.125: the points of -log2p's search at log2p -3")
    r5 = run(grid + ["-q", "--out", "p.csv", "syn"], tmp)
    want = ("nesvm grid: warning: 'p.csv' holds a search with p fixed (no column log2p), and this one searches p "
            "(-log2p): it is overwritten by a new search\n")
    report(r5.returncode == 0 and r5.stderr == want and read(os.path.join(tmp, "p.csv")) == text,
           "grid -log2p on a CSV without p: %r" % r5.stderr)
    # -log2p needs epsilon-SVR
    shutil.copy(HEART, os.path.join(tmp, "heart"))
    for args, t in ((["grid", "-log2p", "-3,-1,1", "heart"], "c"),
                    (["grid", "--svm-type", "ls-svr", "-log2p", "-3,-1,1", "syn"], "ls-svr"),
                    (["easy", "-log2p", "-3,-1,1", "heart"], "c")):
        r = run(args, tmp)
        want = ("nesvm %s: -log2p searches epsilon-SVR's tube half-width (-p): it needs --svm-type svr (or -s 3), "
                "not svm_type %s\nTry 'nesvm %s --help'.\n" % (args[0], t, args[0]))
        report(r.returncode == 2 and r.stderr == want and r.stdout == "", "%s: refused: %r" % (" ".join(args), r.stderr))
    report(not os.path.exists(os.path.join(tmp, "heart.scale")), "easy -log2p refused before scaling")


def easy_checks(tmp):
    dia = load_diabetes()
    X, y = dia.data, dia.target
    write_libsvm(os.path.join(tmp, "dtr"), X[:300], y[:300])
    write_libsvm(os.path.join(tmp, "dte"), X[300:], y[300:])
    r = run(["easy", "-s", "3", "-y", "-1", "1", "-log2c", "-1,5,2", "-log2g", "-5,1,2", "-log2p", "-5,-3,1", "dtr",
             "dte"], tmp)
    m = re.search(r"^Best c=(\S+), g=(\S+), p=(\S+) CV MSE=(\S+)$", r.stdout, re.M)
    m2 = re.search(r"^Mean squared error = (\S+) \(regression\)$", r.stdout, re.M)
    m3 = re.search(r"^Squared correlation coefficient = (\S+) \(regression\)$", r.stdout, re.M)
    report(r.returncode == 0 and m and m2 and m3, "easy -s 3 -y -1 1 -log2p: exit %d %r %s" %
           (r.returncode, r.stdout, r.stderr))
    if not (m and m2 and m3):
        return
    lo, hi = y[:300].min(), y[:300].max()
    rng = read(os.path.join(tmp, "dtr.range")).splitlines()
    report(rng[0] == "y" and [float(v) for v in rng[1].split()] == [-1, 1] and
           [float(v) for v in rng[2].split()] == [lo, hi] and rng[3] == "x",
           "easy -y: TRAIN.range holds the targets' map %r (targets %g..%g)" % (rng[:3], lo, hi))
    _, pts = points(os.path.join(tmp, "dtr.scale.grid.csv"))
    b = grid_best(pts, [(lg, lp) for lg in (-5, -3, -1, 1) for lp in (-5, -4, -3)])
    unit = ((hi - lo) / 2) ** 2
    report(len(pts) == 48 and float(m.group(1)) == 2.0 ** b[0] and float(m.group(2)) == 2.0 ** b[1] and
           float(m.group(3)) == 2.0 ** b[2] and m.group(4) == "%g" % (b[3] * unit),
           "easy -y: best c=%s g=%s p=%s at the CSV's smallest MSE %g (scaled), CV MSE %s = it x %g" %
           (m.group(1), m.group(2), m.group(3), b[3], m.group(4), unit))
    # the steps by hand, in the scaled units
    c, g, p = m.group(1), m.group(2), m.group(3)
    steps = [["scale", "-y", "-1", "1", "-s", "h.range", "-o", "h.scale", "dtr"],
             ["train", "-q", "-s", "3", "-t", "rbf", "-c", c, "-g", g, "-p", p, "h.scale", "h.model"],
             ["scale", "-r", "h.range", "-o", "hte.scale", "dte"],
             ["predict", "-q", "hte.scale", "h.model", "h.pred"]]
    ok = all(run(s, tmp).returncode == 0 for s in steps)
    scaled = np.loadtxt(os.path.join(tmp, "h.pred")) if ok else np.zeros(1)
    mapped = lo + (scaled + 1) * (hi - lo) / 2
    pred = np.loadtxt(os.path.join(tmp, "dte.predict"))
    report(ok and pred.shape == mapped.shape and np.allclose(pred, mapped, rtol=1e-12, atol=0) and
           np.abs(scaled).max() < 3 and pred.mean() > 50,
           "easy -y: TEST.predict is the scaled model's prediction mapped back (max difference %.2e; scaled mean "
           "%.3g, mapped %.3g)" % (np.abs(pred - mapped).max() if pred.shape == mapped.shape else np.inf,
                                   scaled.mean(), pred.mean()))
    mse = float(np.mean((pred - y[300:]) ** 2))
    scc = float(np.corrcoef(pred, y[300:])[0, 1] ** 2)
    report(close(float(m2.group(1)), mse, 1e-5) and close(float(m3.group(1)), scc, 1e-5),
           "easy -y: the test's MSE %s and SCC %s in the original units (numpy %.6g %.6g)" %
           (m2.group(1), m3.group(1), mse, scc))
    # -y scales a regression's targets only
    r = run(["easy", "-y", "-1", "1", "heart"], tmp)
    want = ("nesvm easy: -y scales a regression's targets (--svm-type svr or ls-svr): svm_type c learns a "
            "classification\nTry 'nesvm easy --help'.\n")
    report(r.returncode == 2 and r.stderr == want, "easy -y with a classification refused: %r" % r.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="nesvm-gridsvr-")
    try:
        X, y = synthetic()
        write_libsvm(os.path.join(tmp, "syn"), X, y)
        cv_checks(tmp, X, y)
        grid_checks(tmp, y)
        easy_checks(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
