#!/usr/bin/python3
"""Oracle test: nesvm's full-kernel C-SVM on a working set (expansion_ws.c)
against LIBSVM on problems where the working set matters, with both of its
sub-problem methods (the default, SMO on the exact dual: expansion_smo.c; and
--method newton):

  - a checkerboard of 4,000 rows with few support vectors (RBF, C = 100): the
    working set grows over several rounds and is never all rows;
  - the same at C = 1e4 (large C: Newton's steps stop at the kinks there);
  - two overlapping Gaussian classes, 1,500 rows, C = 1e4: many support
    vectors at the bound, where the SMO's single-precision matrix needs its
    refinement from the exact margins to certify;
  - 24 classes, one-vs-one (276 pairs, 960 rows): every pair on the shared
    stored matrix, LIBSVM's many small pairs;
  - without a bias (-B 0, no LIBSVM counterpart): 300 rows against the dual
    box QP max sum a - 1/2 a'Q a, 0 <= a <= C, solved here by scipy's L-BFGS-B.

For every binary problem (each one-vs-one pair) the expansion of each tool is
read from its model file (LIBSVM: the SVs, the pair's coefficients from its
sv_coef columns, b = -rho; nesvm: the basis and the sub-model's beta) and

    P = 1/2 beta^T K_SS beta + C sum_i max(0, 1 - y_i (K_iS beta + b))

is evaluated here by numpy over the pair's rows.  Checks: nesvm's P within
1e-3 relative of LIBSVM's (svm-train -e 1e-6); nesvm's certificate,
P (1 - gap) <= LIBSVM's P (an upper bound of the optimum); the same
training labels on all but a handful of rows; on the checkerboard, at most
1.25 times LIBSVM's support vectors and fewer kernel values than the stored
matrix (n^2 / 2).

    test_ws_oracle.py NESVM_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
from test_kernel_oracle import sparse_rows as rows_of  # noqa: E402


def rbf(A, B, gamma):
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-gamma * np.maximum(d2, 0))


def write(path, X, y):
    with open(path, 'w') as f:
        for row, t in zip(X, y):
            f.write('%d ' % t + ' '.join('%d:%.17g' % (j + 1, v) for j, v in enumerate(row) if v != 0) + '\n')


def libsvm_pairs(path, d):
    """{(label_i, label_j): (S, coef, b)} with label_i the positive class."""
    lines = open(path).read().splitlines()
    k = lines.index('SV')
    head = {ln.split()[0]: ln.split()[1:] for ln in lines[:k]}
    labels = [float(x) for x in head['label']]
    nsv = [int(x) for x in head['nr_sv']]
    rho = [float(x) for x in head['rho']]
    nc = len(labels)
    svl = lines[k + 1:]
    coef = np.array([[float(x) for x in ln.split()[:nc - 1]] for ln in svl])
    S = rows_of(svl, d, nc - 1)
    start = np.concatenate([[0], np.cumsum(nsv)])
    out, p = {}, 0
    for i in range(nc):
        for j in range(i + 1, nc):
            si, sj = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
            Sij = np.vstack([S[si], S[sj]])
            cij = np.concatenate([coef[si, j - 1], coef[sj, i]])
            out[(labels[i], labels[j])] = (Sij, cij, -rho[p])
            p += 1
    return out, int(head['total_sv'][0])


def nesvm_pairs(path, d):
    lines = open(path).read().splitlines()
    labels = [float(x) for x in [ln for ln in lines if ln.startswith('labels')][0].split()[1:]]
    nb = int([ln for ln in lines if ln.startswith('nr_basis')][0].split()[1])
    i = lines.index('basis')
    S = rows_of(lines[i + 1:i + 1 + nb], d, 1)
    out = {}
    for k, ln in enumerate(lines):
        m = re.match(r'submodel \d+ pos (\d+) neg (-?\d+) .* gap ([0-9.e+-]+)', ln)
        if not m:
            continue
        b = float(lines[k + 1].split()[1])
        beta = np.array([float(x) for x in lines[k + 3:k + 3 + nb]])
        out[(labels[int(m.group(1))], labels[int(m.group(2))])] = (S, beta, b, float(m.group(3)))
    return out, nb


def primal(X, y, S, beta, b, C, gamma):
    keep = beta != 0
    S, beta = S[keep], beta[keep]
    f = rbf(X, S, gamma) @ beta + b
    return 0.5 * beta @ rbf(S, S, gamma) @ beta + C * np.maximum(0, 1 - y * f).sum(), np.sign(f)


def case(nesvm, tmp, name, X, y, C, gamma, few_sv, method):
    path, lm, nm = (os.path.join(tmp, s) for s in ('d.txt', 'l.model', 'n.model'))
    write(path, X, y)
    d = X.shape[1]
    name = '%s (%s)' % (name, method)
    subprocess.run(['svm-train', '-q', '-t', '2', '-g', '%.17g' % gamma, '-c', '%g' % C, '-e', '1e-6', path, lm],
                   check=True)
    out = subprocess.run([nesvm, 'train', '-t', '2', '-g', '%.17g' % gamma, '-c', '%g' % C, '-e', '1e-4',
                          '--method', method, path, nm], check=True, capture_output=True, text=True).stdout
    evals = int(re.search(r'kernel evaluations (\d+)', out).group(1))
    lib, total_sv = libsvm_pairs(lm, d)
    nes, nbasis = nesvm_pairs(nm, d)
    passed = failed = 0
    worst, differ_all = 0.0, 0
    for (a, c), (Sl, cl, bl) in lib.items():
        if (a, c) in nes:
            Sn, bn, b0, gap = nes[(a, c)]
        else:  # the pair the other way round
            Sn, bn, b0, gap = nes[(c, a)]
            bn, b0 = -bn, -b0
        rows = (y == a) | (y == c)
        yy = np.where(y[rows] == a, 1.0, -1.0)
        pl, fl = primal(X[rows], yy, Sl, cl, bl, C, gamma)
        pn, fn = primal(X[rows], yy, Sn, bn, b0, C, gamma)
        rel = abs(pn - pl) / pl
        differ = int((fl != fn).sum())
        worst, differ_all = max(worst, rel), differ_all + differ
        ok = rel <= 1e-3 and pn * (1 - gap) <= pl * (1 + 1e-9) and differ <= 3
        if not ok:
            print('not ok - %s pair %g/%g: nesvm %.10g libsvm %.10g rel %.2e gap %.2e, labels differ on %d'
                  % (name, a, c, pn, pl, rel, gap, differ))
        passed += ok
        failed += not ok
    n = len(y)
    if few_sv:
        ok = nbasis <= 1.25 * total_sv + 2 and evals < n * n / 2
        print('%s - %s: basis %d vs %d support vectors, %d kernel values (the stored matrix: %d)'
              % ('ok' if ok else 'not ok', name, nbasis, total_sv, evals, n * n // 2))
        passed += ok
        failed += not ok
    print('# %s: %d pairs, largest relative difference of P %.2e, labels differ on %d rows in all'
          % (name, len(lib), worst, differ_all))
    return passed, failed


def no_bias(nesvm, tmp, method):
    """-B 0 against the dual box QP solved by L-BFGS-B: nesvm's P (evaluated
    here) within its certified gap of the QP's optimum, which bounds it from
    below (weak duality)."""
    from scipy.optimize import minimize
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=300) > 0.5, 1.0, -1.0)
    C, gamma = 50.0, 0.5
    path, nm = os.path.join(tmp, 'nb.txt'), os.path.join(tmp, 'nb.model')
    write(path, X, y)
    subprocess.run([nesvm, 'train', '-q', '-t', '2', '-g', '%g' % gamma, '-c', '%g' % C, '-B', '0', '-e', '1e-5',
                    '--method', method, path, nm], check=True)
    (Sn, bn, b0, gap), = nesvm_pairs(nm, 4)[0].values()
    pn, _ = primal(X, y, Sn, bn, b0, C, gamma)
    Q = (y[:, None] * y[None, :]) * rbf(X, X, gamma)
    res = minimize(lambda a: (0.5 * a @ Q @ a - a.sum(), Q @ a - 1), np.zeros(300), jac=True, method='L-BFGS-B',
                   bounds=[(0, C)] * 300, options={'maxiter': 20000, 'ftol': 1e-15, 'gtol': 1e-11})
    dstar = -res.fun
    ok = b0 == 0 and dstar <= pn * (1 + 1e-9) and (pn - dstar) / pn <= gap + 1e-6
    print('%s - no bias (%s): nesvm P %.10g, the QP dual %.10g, certified gap %.2e'
          % ('ok' if ok else 'not ok', method, pn, dstar, gap))
    return ok


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    passed = failed = 0
    for method in ('auto', 'newton'):
        rng = np.random.default_rng(7)
        # the NSSVM paper's checkerboard on [0, 1]^2 (4 x 4 squares), 4,000 rows
        X = rng.uniform(size=(4000, 2))
        y = np.where(((X[:, 0] * 4).astype(int) + (X[:, 1] * 4).astype(int)) % 2 == 0, 1, -1)
        for C in (100.0, 1e4):
            p, f = case(nesvm, tmp, 'checkerboard 4000 C %g' % C, X, y, C, 40.0, True, method)
            passed, failed = passed + p, failed + f
        # 24 Gaussian classes of 40 rows in 5 dimensions
        k = 24
        y = np.repeat(np.arange(1, k + 1), 40)
        X = rng.normal(size=(len(y), 5)) + 2.0 * rng.normal(size=(k, 5))[y - 1]
        p, f = case(nesvm, tmp, '24 classes', X, y, 10.0, 0.2, False, method)
        passed, failed = passed + p, failed + f
        ok = no_bias(nesvm, tmp, method)
        passed, failed = passed + ok, failed + (not ok)
    # two overlapping classes at C = 1e4 (the SMO's refinement; Newton is slow here)
    rng = np.random.default_rng(3)
    y = np.where(rng.random(1500) < 0.5, 1, -1)
    X = rng.normal(size=(1500, 3)) + 0.8 * y[:, None]
    p, f = case(nesvm, tmp, 'overlap 1500 C 1e4', X, y, 1e4, 0.5, False, 'auto')
    passed, failed = passed + p, failed + f
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
