#!/usr/bin/python3
"""Oracle test: `--restart 0` runs the NESVM paper's plain Algorithm 1.

numpy reruns Algorithm 1 from the paper's formulas, independent of nesvm's
code, on heart_scale (C = 1, a free bias: w := [w; b], eq. 26, b not
penalized) at a fixed mu with the step size of eq. (14) plus the
regularizer's 1, L = 1 + n max_i C ||z_i||_2^2 / (mu ||z_i||_inf),
z_i = [x_i, 1]:

    the smoothed hinge (eq. 5-9)  u_i = median{0, r_i / (mu ||z_i||_inf), 1},
                                  r_i = 1 - y_i (x_i.w + b),
                                  F_mu = 1/2 ||w||^2 + sum_i C (u_i r_i - mu ||z_i||_inf u_i^2 / 2);
    from w_0 = w* = 0:            y_k = w_k - grad F_mu(w_k) / L                 (eq. 22)
                                  z_k = w* - 1/L sum_{i<=k} (i+1)/2 grad F_mu(w_i) (eq. 23)
                                  w_k+1 = 2/(k+3) z_k + (k+1)/(k+3) y_k           (eq. 24)

and checks that the trace's `smoothed` column is F_mu(w_0), F_mu(w_1), ...
(row k+1 = w_k) and its `lipschitz` column L.  The kernel form (RBF, the
full kernel's expansion) is the same algorithm on Z = K^1/2 (the paper:
X -> K(X,X) Y, ||w||^2 -> beta^T K beta; ||z_i||_inf taken as 1 and
L = 1 + n max_i C (K_ii + 1) / mu, the kernel analogue of eq. 48).

Within the 400 iterations compared, plain Nesterov's F_mu goes up (from
about iteration 105 linear, 83 RBF): there the default (adaptive restart)
takes another path, which the same comparison must detect.

    test_nesterov_oracle.py NESVM_BINARY SOURCE_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libsvm_primal as lp  # noqa: E402
import numpy as np  # noqa: E402

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'
MU, N, C = 1.0, 400, 1.0


def algorithm1(Z, y, s, L, n_iter):
    """F_mu(w_k), k = 0 .. n_iter-1, of Algorithm 1 on rows Z with a free bias."""
    n, d = Z.shape
    c = np.full(n, C)
    w, b = np.zeros(d), 0.0
    G, Gb = np.zeros(d), 0.0
    out = []
    for k in range(n_iter):
        r = 1.0 - y * (Z @ w + b)
        t = MU * s
        u = np.clip(r / t, 0.0, 1.0)
        out.append(0.5 * w @ w + np.sum(c * (u * r - 0.5 * t * u * u)))
        g, gb = w - Z.T @ (c * u * y), -np.sum(c * u * y)
        yk, ybk = w - g / L, b - gb / L
        G += 0.5 * (k + 1) * g
        Gb += 0.5 * (k + 1) * gb
        w = 2.0 / (k + 3) * (-G / L) + (k + 1) / (k + 3) * yk
        b = 2.0 / (k + 3) * (-Gb / L) + (k + 1) / (k + 3) * ybk
    return np.array(out)


def trace(nesvm, tmp, extra, restart):
    path = os.path.join(tmp, 't.csv')
    subprocess.run([nesvm, 'train', '-q', '--method', 'nesterov', '--mu', '%g' % MU, '--lipschitz', 'paper',
                    '-c', '%g' % C, '--restart', restart, '-e', '1e-12', '--max-iter', str(N), '--trace', path]
                   + extra + [HEART, os.path.join(tmp, 'm')], check=True)
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return np.array([float(r['smoothed']) for r in rows]), float(rows[0]['lipschitz'])


def main():
    nesvm = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        return run(nesvm, tmp)


def run(nesvm, tmp):
    y_raw, rows = lp.read_libsvm(HEART)
    X = lp.dense(rows, max(max(r) for r in rows if r))
    y = np.where(y_raw == y_raw[0], 1.0, -1.0)  # nesvm's first label is the first seen
    n, d = X.shape
    # linear: z_i = [x_i, 1]
    s = np.maximum(np.abs(X).max(axis=1), 1.0)
    L_lin = 1.0 + n * np.max(C * ((X ** 2).sum(axis=1) + 1.0) / s) / MU
    # RBF with gamma = 1/d (the default): Z = K^1/2
    sq = (X ** 2).sum(axis=1)
    K = np.exp(-(1.0 / d) * np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0))
    ev, V = np.linalg.eigh(K)
    Kh = (V * np.sqrt(np.maximum(ev, 0.0))) @ V.T
    L_rbf = 1.0 + n * np.max(C * (np.diag(K) + 1.0)) / MU
    cases = [('linear', X, s, L_lin, [], 1e-12), ('rbf', Kh, np.ones(n), L_rbf, ['-t', 'rbf'], 1e-7)]
    passed = failed = 0

    def report(ok, what):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', what))
        passed += ok
        failed += not ok

    for name, Z, sc, L, extra, tol in cases:
        ref = algorithm1(Z, y, sc, L, N)
        ups = [k for k in range(1, N) if ref[k] > ref[k - 1]]
        report(len(ups) > 0, '%s: plain Nesterov (numpy) is not monotone within %d iterations (first rise at %s)'
               % (name, N, ups[0] if ups else None))
        got, L_got = trace(nesvm, tmp, extra, '0')
        rel = np.abs(got - ref[:len(got)]) / np.abs(ref[:len(got)])
        report(len(got) == N and abs(L_got - L) <= 1e-12 * L and rel.max() <= tol,
               '%s --restart 0: %d rows, L %.15g (numpy %.15g), F_mu equal to Algorithm 1 to %.1e (<= %g)'
               % (name, len(got), L_got, L, rel.max(), tol))
        got1, _ = trace(nesvm, tmp, extra, '1')
        rel1 = np.abs(got1 - ref[:len(got1)]) / np.abs(ref[:len(got1)])
        first = int(np.argmax(rel1 > tol)) if (rel1 > tol).any() else None
        report(first is not None and ups and first > ups[0],
               '%s --restart 1 (default): leaves Algorithm 1 after its first rise of F_mu (row %s, rise at %s)'
               % (name, first, ups[0] if ups else None))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
