#!/usr/bin/python3
"""Oracle test for the regression task: LS-SVR (--svm-type ls-svr) against
scikit-learn and the normal equations, and the regression metrics against
LIBSVM's definitions.

LS-SVR   min 1/2 ||w||^2 + C sum_i (y_i - f(x_i))^2 on real targets y_i:
  linear, free bias      scikit-learn's Ridge(alpha = 1/(2C)) (its intercept
                         is not penalized), and the normal equations;
  RBF kernel, no bias    KernelRidge(alpha = 1/(2C), kernel='rbf'):
                         (K + I/(2C)) beta = y;
  RBF kernel, free bias  the LS-SVM regression system (Suykens)
                         [K + I/(2C), 1; 1', 0] [beta; b] = [y; 0].
nesvm's predictions on the training rows (nesvm predict's output) must match
the oracle's to 1e-6 (linear) or 1e-4 (kernel: single-precision stored K)
relative, and the certified gap must be reached.  `nesvm predict` prints
LIBSVM's "Mean squared error" and "Squared correlation coefficient", checked
against numpy on its own output; `nesvm train -v 5` prints the cross-validation
lines.  Data: scikit-learn's diabetes set (442 x 10, bundled with it), scaled
to [-1, 1], and a synthetic set.

    test_regression.py NESVM_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_diabetes
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge


def write_libsvm(path, X, y):
    with open(path, 'w') as f:
        for i in range(X.shape[0]):
            f.write('%.17g ' % y[i] + ' '.join('%d:%.17g' % (j + 1, X[i, j])
                                                for j in range(X.shape[1]) if X[i, j] != 0) + '\n')


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def rbf(X, g):
    sq = (X * X).sum(1)
    return np.exp(-g * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    data, model, out = (os.path.join(tmp, f) for f in ('d.txt', 'm.model', 'p.out'))
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    dia = load_diabetes()
    Xd = dia.data / np.abs(dia.data).max(0)
    yd = (dia.target - dia.target.mean()) / dia.target.std()
    rng = np.random.default_rng(11)
    Xs = rng.uniform(-1, 1, (150, 3))
    ys = np.sin(2 * Xs[:, 0]) + 0.5 * Xs[:, 1] ** 2 - Xs[:, 2] + 3.0 + 0.05 * rng.normal(size=150)
    for name, X, y in (('diabetes', Xd, yd), ('synthetic', Xs, ys)):
        write_libsvm(data, X, y)
        n, d = X.shape
        for C in (0.1, 1.0, 10.0):
            # linear, free bias: Ridge and the normal equations
            for method in ('newton', 'nesterov'):
                eps = '1e-12' if method == 'newton' else '1e-8'
                txt = run([nesvm, 'train', '--svm-type', 'ls-svr', '-c', '%g' % C, '-e', eps, '--method', method,
                           '--max-iter', '2000000', data, model])
                conv = 'exit converged' in txt
                run([nesvm, 'predict', data, model, out])
                f = np.loadtxt(out)
                r = Ridge(alpha=1.0 / (2 * C), tol=1e-12, solver='cholesky').fit(X, y)
                fr = r.predict(X)
                Z = np.hstack([X, np.ones((n, 1))])
                E = np.eye(d + 1)
                E[d, d] = 0
                th = np.linalg.solve(E + 2 * C * Z.T @ Z, 2 * C * Z.T @ y)
                fn = Z @ th
                tol = 1e-6 if method == 'newton' else 1e-3
                err = np.max(np.abs(f - fr) / (1 + np.abs(fr)))
                err2 = np.max(np.abs(fn - fr) / (1 + np.abs(fr)))
                report(conv and err <= tol and err2 <= 1e-8,
                       '%s linear C=%g %s: |f - Ridge| %.2e (tol %g), normal equations vs Ridge %.2e, converged %s'
                       % (name, C, method, err, tol, err2, conv))
            # RBF kernel, without and with a bias
            g = 1.0 / d
            K = rbf(X, g)
            for bias in (0, 1):
                txt = run([nesvm, 'train', '--svm-type', 'ls-svr', '-t', 'rbf', '-g', '%.17g' % g, '-c', '%g' % C,
                           '-B', '1' if bias else '-1', '-e', '1e-10', data, model])
                conv = 'exit converged' in txt
                run([nesvm, 'predict', data, model, out])
                f = np.loadtxt(out)
                if bias:
                    A = np.zeros((n + 1, n + 1))
                    A[:n, :n] = K + np.eye(n) / (2 * C)
                    A[:n, n] = A[n, :n] = 1.0
                    sol = np.linalg.solve(A, np.append(y, 0.0))
                    fo = K @ sol[:n] + sol[n]
                    oracle = 'the LS-SVM system'
                else:
                    fo = KernelRidge(alpha=1.0 / (2 * C), kernel='rbf', gamma=g).fit(X, y).predict(X)
                    fk = K @ np.linalg.solve(K + np.eye(n) / (2 * C), y)
                    oracle = 'KernelRidge (closed form %.1e apart)' % np.max(np.abs(fk - fo))
                err = np.max(np.abs(f - fo) / (1 + np.abs(fo)))
                report(conv and err <= 1e-4, '%s rbf C=%g bias=%d: |f - %s| %.2e, converged %s'
                       % (name, C, bias, oracle, err, conv))
        # the metrics nesvm predict prints, against LIBSVM's definitions on its output
        txt = run([nesvm, 'predict', data, model, out])
        f = np.loadtxt(out)
        mse = np.mean((f - y) ** 2)
        sv, sy, svv, syy, svy = f.sum(), y.sum(), (f * f).sum(), (y * y).sum(), (f * y).sum()
        scc = (n * svy - sv * sy) ** 2 / ((n * svv - sv * sv) * (n * syy - sy * sy))
        m1 = re.search(r'Mean squared error = (\S+) \(regression\)', txt)
        m2 = re.search(r'Squared correlation coefficient = (\S+) \(regression\)', txt)
        ok = m1 and m2 and abs(float(m1.group(1)) - mse) <= 1e-5 * mse and abs(float(m2.group(1)) - scc) <= 1e-5
        report(ok, '%s predict: printed %s / %s, numpy %.6g / %.6g' % (
            name, m1 and m1.group(1), m2 and m2.group(1), mse, scc))
        # nesvm info names the task and the problem
        txt = run([nesvm, 'info', model])
        report(re.search(r'^task +regression$', txt, re.M) and 'LS-SVR: L2 + squared loss on real targets' in txt,
               '%s info: task and problem' % name)
        # cross-validation reports the task's figures
        txt = run([nesvm, 'train', '--svm-type', 'ls-svr', '-t', 'rbf', '-c', '1', '-v', '5', data])
        m1 = re.search(r'Cross Validation Mean squared error = (\S+)', txt)
        m2 = re.search(r'Cross Validation Squared correlation coefficient = (\S+)', txt)
        ok = m1 and m2 and 0 < float(m1.group(1)) < np.var(y) and 0 <= float(m2.group(1)) <= 1 \
            and 'Accuracy' not in txt
        report(ok, '%s -v 5: MSE %s (variance of y %.4g), SCC %s' % (
            name, m1 and m1.group(1), np.var(y), m2 and m2.group(1)))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
