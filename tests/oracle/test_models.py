#!/usr/bin/python3
"""Oracle test for nesvm's LP-SVM and LS-SVM against independent solvers.

LS-SVM   min 1/2 ||w||^2 + sum_i C_i (1 - y_i (w.x_i + b))^2
         is a least-squares problem: with Z = [X 1] and E = diag(1,..,1, 0)
         (b is not regularized) its solution solves the normal equations
         (E + 2 Z^T C Z) [w; b] = 2 Z^T C y, solved here by numpy.linalg.solve
         (LAPACK gesv).  nesvm's w, b must match to 1e-6 relative, and its
         lower bound must not exceed the optimum; as --svm-type ls and as the
         C-SVM with the squared loss (--loss squared, the same problem).
L2-SVM   min 1/2 ||w||^2 + sum_i C_i max(0, 1 - y_i (w.x_i + b))^2
         (--loss squared_hinge): without a bias LIBLINEAR's -s 2 problem
         (liblinear-train -e 1e-10), with a free bias scipy's L-BFGS-B on the
         once-differentiable objective; nesvm's primal, recomputed here from
         its model file, must be within 1e-7 relative of the peer's, and its
         lower bound must not exceed it.
LP-SVM   min ||w||_1 + sum_i C_i max(0, 1 - y_i (w.x_i + b))
         is written out as a linear program (w = p - q, p, q >= 0, slacks
         xi >= 0) in CPLEX LP format and solved by GLPK's glpsol.  nesvm's
         primal, computed here from its model file, must be within 1e-3
         relative of GLPK's optimum, and its lower bound must not exceed it.

    test_models.py NESVM_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libsvm_primal as lp  # noqa: E402
import numpy as np  # noqa: E402


def load(data):
    y_raw, rows = lp.read_libsvm(data)
    d = max((max(r) for r in rows if r), default=0)
    return y_raw, lp.dense(rows, d), d


def targets(y_raw, model, d):
    w, b, labels = lp.model_w_b(model, d)
    return w, b, np.where(y_raw == labels[0], 1.0, -1.0)


def costs(y_raw, C, weights):
    return np.array([C * weights.get(l, 1.0) for l in y_raw])


def train(nesvm, args, data, model):
    out = subprocess.run([nesvm, 'train'] + args + [data, model], check=True,
                         capture_output=True, text=True).stdout
    gap = float(re.search(r'relative gap ([0-9.e+-]+)', out).group(1))
    nnz = int(re.search(r'non-zero weights (\d+)', out).group(1))
    return gap, nnz


def ls_direct(X, y, Ci, bias):
    n, d = X.shape
    Z = np.hstack([X, np.ones((n, 1))]) if bias else X
    E = np.eye(Z.shape[1])
    if bias:
        E[d, d] = 0.0
    A = E + 2.0 * Z.T @ (Ci[:, None] * Z)
    theta = np.linalg.solve(A, 2.0 * Z.T @ (Ci * y))
    w, b = theta[:d], (theta[d] if bias else 0.0)
    r = 1.0 - y * (X @ w + b)
    return w, b, 0.5 * w @ w + np.sum(Ci * r * r)


def lp_glpk(X, y, Ci, bias, path, count_nonzero=False):
    n, d = X.shape
    with open(path, 'w') as f:
        f.write('Minimize\n obj:')
        for j in range(d):
            f.write(' + p%d + q%d' % (j, j))
        for i in range(n):
            f.write(' + %.17g xi%d' % (Ci[i], i))
        f.write('\nSubject To\n')
        for i in range(n):
            f.write(' c%d: xi%d' % (i, i))
            for j in range(d):
                a = y[i] * X[i, j]
                if a != 0:
                    f.write(' %+.17g p%d %+.17g q%d' % (a, j, -a, j))
            if bias:
                f.write(' %+.17g b' % y[i])
            f.write(' >= 1\n')
        f.write('Bounds\n')
        if bias:
            f.write(' b free\n')
        f.write('End\n')
    out = subprocess.run(['glpsol', '--lp', path, '-o', path + '.sol'], check=True,
                         capture_output=True, text=True).stdout
    if 'OPTIMAL' not in out.upper():
        raise RuntimeError('glpsol did not find the optimum:\n' + out)
    with open(path + '.sol') as f:
        sol = f.read()
    obj = float(re.search(r'Objective:\s+obj\s+=\s+([-0-9.eE+]+)', sol).group(1))
    if not count_nonzero:
        return obj
    # the columns p_j, q_j of the solution report: w_j = p_j - q_j
    w = np.zeros(d)
    for m in re.finditer(r'^\s*\d+\s+([pq])(\d+)\s+\S+\s+([-0-9.eE+]+)', sol, re.M):
        w[int(m.group(2))] += float(m.group(3)) * (1 if m.group(1) == 'p' else -1)
    return obj, int(np.count_nonzero(np.abs(w) > 1e-12))


def l2svm_peer(X, y, y_raw, Ci, bias, data, C, tmp):
    """The squared-hinge SVM's optimum: LIBLINEAR -s 2 without a bias (its
    model's w), scipy's L-BFGS-B with a free bias."""
    if not bias:
        path = os.path.join(tmp, 'll.model')
        subprocess.run(['liblinear-train', '-s', '2', '-c', '%g' % C, '-e', '1e-10', data, path], check=True,
                       capture_output=True)
        lines = open(path).read().split('\n')
        w = np.array([float(v) for v in lines[lines.index('w') + 1:lines.index('w') + 1 + X.shape[1]]])
        lab = float([ln for ln in lines if ln.startswith('label')][0].split()[1])
        yl = np.where(y_raw == lab, 1.0, -1.0)  # LIBLINEAR's first label is its +1
        return 0.5 * w @ w + np.sum(Ci * np.maximum(0.0, 1.0 - yl * (X @ w)) ** 2)
    from scipy.optimize import minimize
    d = X.shape[1]

    def f(t):
        r = np.maximum(0.0, 1.0 - y * (X @ t[:d] + t[d]))
        g = -2.0 * (Ci * r * y)
        return 0.5 * t[:d] @ t[:d] + np.sum(Ci * r * r), np.append(t[:d] + X.T @ g, g.sum())
    res = minimize(f, np.zeros(d + 1), jac=True, method='L-BFGS-B', options={'ftol': 1e-15, 'gtol': 1e-10,
                                                                              'maxiter': 100000})
    return res.fun


def main():
    nesvm, src = sys.argv[1], sys.argv[2]
    datasets = ['/usr/share/doc/liblinear-tools/examples/heart_scale',
                os.path.join(src, 'tests/data/breast_cancer_scale')]
    tmp = tempfile.mkdtemp()
    model = os.path.join(tmp, 'n.model')
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += ok
        failed += not ok

    cases = [(d, C, {}, 1) for d in datasets for C in (0.1, 1.0, 10.0)]
    cases += [(datasets[0], 1.0, {1.0: 2.0}, 1), (datasets[1], 0.5, {-1.0: 3.0}, 1),
              (datasets[0], 1.0, {}, 0)]
    for data, C, weights, bias in cases:
        y_raw, X, d = load(data)
        wopts = []
        for lab, wt in weights.items():
            wopts += ['-w%g' % lab, '%g' % wt]
        base = ['-c', '%g' % C, '-B', '1' if bias else '-1'] + wopts
        name = '%s C=%g w=%s bias=%d' % (os.path.basename(data), C, weights, bias)
        Ci = costs(y_raw, C, weights)
        # LS-SVM against the normal equations: --svm-type ls, and the same
        # problem as the C-SVM with the squared loss (--loss squared)
        for model_args, method in ((['--svm-type', 'ls'], ['--method', 'newton']),
                                   (['--svm-type', 'ls'], ['--method', 'nesterov', '--max-iter', '2000000']),
                                   (['--loss', 'squared'], ['--method', 'newton'])):
            eps = '1e-14' if method[1] == 'newton' else '1e-9'
            gap, _ = train(nesvm, model_args + ['-e', eps] + method + base, data, model)
            w, b, y = targets(y_raw, model, d)
            wd, bd, Pd = ls_direct(X, y, Ci, bias)
            err = np.linalg.norm(np.append(w - wd, b - bd)) / np.linalg.norm(np.append(wd, bd))
            r = 1.0 - y * (X @ w + b)
            P = 0.5 * w @ w + np.sum(Ci * r * r)
            tol = 1e-6 if method[1] == 'newton' else 1e-3
            ok = err <= tol and P * (1 - gap) <= Pd * (1 + 1e-12)
            report(ok, 'LS %s %s: |theta - theta*|/|theta*| %.2e (tol %g), P %.12g, direct %.12g, '
                   'gap %.2e' % (name, ' '.join(model_args + method[1:2]), err, tol, P, Pd, gap))
        # the squared hinge (--loss squared_hinge) against LIBLINEAR -s 2 / L-BFGS
        if not weights:
            txt = subprocess.run([nesvm, 'train', '--loss', 'squared_hinge', '-e', '1e-10'] + base + [data, model],
                                 check=True, capture_output=True, text=True).stdout
            w, b, y = targets(y_raw, model, d)
            P = 0.5 * w @ w + np.sum(Ci * np.maximum(0.0, 1.0 - y * (X @ w + b)) ** 2)
            lower = float(re.search(r'lower bound ([0-9.e+-]+)', txt).group(1))
            Pp = l2svm_peer(X, y, y_raw, Ci, bias, data, C, tmp)
            ok = abs(P - Pp) <= 1e-7 * Pp and lower <= Pp * (1 + 1e-9) and 'exit converged' in txt
            report(ok, 'L2-SVM %s: P %.12g, %s %.12g, lower bound %.12g' % (
                name, P, 'L-BFGS' if bias else 'LIBLINEAR -s 2', Pp, lower))
        # LP-SVM against GLPK
        Pg = lp_glpk(X, np.where(y_raw == y_raw[0], 1.0, -1.0), Ci, bias, os.path.join(tmp, 'p.lp'))
        for method in (['--method', 'newton'], ['--method', 'nesterov', '--max-iter', '1000000']):
            eps = '1e-4' if method[1] == 'newton' else '1e-3'
            gap, nnz = train(nesvm, ['--svm-type', 'lp', '-e', eps] + method + base, data, model)
            w, b, y = targets(y_raw, model, d)
            P = np.abs(w).sum() + np.sum(Ci * np.maximum(0.0, 1.0 - y * (X @ w + b)))
            rel = (P - Pg) / Pg
            ok = -1e-9 <= rel <= 1e-3 and P * (1 - gap) <= Pg * (1 + 1e-9) and \
                nnz == np.count_nonzero(w)
            report(ok, 'LP %s %s: P %.10g, GLPK %.10g, rel %.2e, gap %.2e, non-zero weights %d'
                   % (name, method[1], P, Pg, rel, gap, nnz))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
