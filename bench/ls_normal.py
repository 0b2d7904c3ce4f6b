#!/usr/bin/python3
"""LS-SVM reference for the benchmark harness: the normal equations.

    min 1/2 ||w||^2 + C sum_i (1 - y_i (w.x_i + b))^2,  b free

is a least-squares problem.  With Z = [X 1] and E = diag(1, .., 1, 0) (b is
not regularized) its minimizer solves (E + 2 C Z^T Z) [w; b] = 2 C Z^T y,
solved here densely by numpy.linalg.solve (LAPACK gesv); y = +1 for the
larger label.  Z^T Z is formed from the sparse X, so memory is (d+1)^2
doubles plus the data.  Saves coef, intercept, classes like sk_runner.py
(the decision value is for classes[1]) and a JSON summary.

    ls_normal.py --train F --n-features D --C C --model OUT.npz --json OUT.json
"""
import argparse
import json
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    ap.add_argument("--n-features", type=int, required=True)
    ap.add_argument("--C", type=float, required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--json", required=True)
    a = ap.parse_args(argv)

    import numpy as np
    import scipy.sparse as sp
    from sklearn.datasets import load_svmlight_file

    t0 = time.perf_counter()
    X, lab = load_svmlight_file(a.train, n_features=a.n_features)
    t_load = time.perf_counter() - t0
    t1 = time.perf_counter()
    classes = np.unique(lab)
    if classes.size != 2:
        raise SystemExit(f"ls_normal.py: {classes.size} classes, expected 2")
    y = np.where(lab == classes[1], 1.0, -1.0)
    n, d = X.shape
    Z = sp.hstack([X, np.ones((n, 1))]).tocsr()
    A = (Z.T @ Z).toarray() * (2.0 * a.C)
    A[np.arange(d), np.arange(d)] += 1.0
    rhs = 2.0 * a.C * (Z.T @ y)
    theta = np.linalg.solve(A, rhs)
    res = A @ theta - rhs
    t_fit = time.perf_counter() - t1
    w, b = theta[:d], float(theta[d])
    np.savez(a.model, coef=w[None, :], intercept=np.array([b]), classes=classes)
    r = 1.0 - y * (X @ w + b)
    out = {"load_seconds": t_load, "fit_seconds": t_fit, "n_train": n,
           "objective": 0.5 * float(w @ w) + a.C * float(r @ r),
           "residual_rel": float(np.linalg.norm(res) / max(np.linalg.norm(rhs), 1e-300)),
           "warnings": []}
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
