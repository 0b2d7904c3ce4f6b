#!/usr/bin/python3
"""Oracle test for epsilon-SVR's full kernel on the working set (issue 32;
src/solvers/nesvm/expansion_wst.c, the tube's dual by decomposition with the
kernel SMO):

    min 1/2 beta'K beta + sum_k C w_k max(0, |y_k - (K beta)_k - b| - p)

(RBF kernel, a free bias unless -B 0).  Every objective is recomputed here
with numpy from the model files (nesvm's basis and coefficients, LIBSVM's
support vectors, coefficients and rho), and every training must say in its
summary that it ran on the working set (`working set (R rounds)`):

  - C in {0.1, 10, 1000} x p in {0, 0.1, 1} on 600 rows of Friedman #1
    (standardized, centred targets) against svm-train -s 3 -t 2 -e 1e-8:
    nesvm converged (-e 1e-8), its P the file's, P_nesvm <= P_libsvm
    (1 + 1e-6) and P_libsvm >= nesvm's lower bound (weak duality against
    LIBSVM's point);
  - 3,000 rows in several rounds (C = 1, p = 0.5), and with --kernel-memory 1
    (sub-problems of at most 512 rows: more rounds), the same checks;
  - without a bias (-B 0): P against the dual box QP
        max sum a_k y_k - p sum |a_k| - 1/2 a'K a,  |a_k| <= C
    solved by scipy's L-BFGS-B (a = a+ - a-, both in [0, C]);
  - sample weights (-W): a weight of 2 is the row repeated (the same P and
    predictions as the data with those rows twice);
  - a warm start: a training interrupted with a checkpoint, resumed from it
    (its coefficients and bias start the rounds), at the same optimum;
  - --method newton keeps the operator path (no working set) on the same
    problem, at the same optimum;
  - closed forms: a tube wider than every target (every coefficient 0,
    P = 0), a constant target (P = 0: the bias inside the tube everywhere).

    test_svr_ws.py NESVM_BINARY
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.optimize import minimize
from sklearn.datasets import make_friedman1

from test_regression import rbf, run, write_libsvm  # this folder's helpers

GAMMA = 0.1


def kern(A, B):
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-GAMMA * np.maximum(d2, 0))


def rows_of(lines, d):
    S = np.zeros((len(lines), d))
    for i, ln in enumerate(lines):
        for tok in ln.split()[1:]:
            j, v = tok.split(':')
            S[i, int(j) - 1] = float(v)
    return S


def nesvm_model(path, d):
    """(S, beta, b, exit, primal, gap) of a nesvm regression model file."""
    lines = open(path).read().splitlines()
    nb = int([ln for ln in lines if ln.startswith('nr_basis')][0].split()[1])
    i = lines.index('basis')
    S = rows_of(lines[i + 1:i + 1 + nb], d)
    k = [j for j, ln in enumerate(lines) if ln.startswith('submodel 0 ')][0]
    f = lines[k].split()
    fields = dict(zip(f[2::2], f[3::2]))
    b = float(lines[k + 1].split()[1])
    beta = np.array([float(x) for x in lines[k + 3:k + 3 + nb]])
    return S, beta, b, fields['exit'], float(fields['primal']), float(fields['gap'])


def libsvm_model(path, d):
    lines = open(path).read().splitlines()
    k = lines.index('SV')
    head = dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())
    sv = [ln for ln in lines[k + 1:] if ln.strip()]
    coef = np.array([float(ln.split()[0]) for ln in sv])
    return rows_of(sv, d), coef, -float(head['rho'])


def primal(X, y, w, S, beta, b, C, p):
    f = kern(X, S) @ beta + b
    return 0.5 * beta @ kern(S, S) @ beta + C * (w * np.maximum(np.abs(y - f) - p, 0)).sum(), f


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    data, model, peer, wfile, ck = (os.path.join(tmp, f) for f in ('d.txt', 'm.model', 'p.model', 'w.txt', 'ck'))
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    def friedman(n, seed):
        X, y = make_friedman1(n_samples=n, n_features=10, noise=1.0, random_state=seed)
        return (X - X.mean(0)) / X.std(0), y - y.mean()

    def train(args, X):
        out = run([nesvm, 'train', '--svm-type', 'svr', '-t', 'rbf', '-g', str(GAMMA)] + args + [data, model])
        m = re.search(r'working set \((\d+) rounds?\)', out)
        lb = re.search(r'^lower bound (\S+)', out, re.M)
        it = re.search(r'iterations (\d+),', out)
        return (nesvm_model(model, X.shape[1]), int(m.group(1)) if m else 0, float(lb.group(1)) if lb else np.nan,
                int(it.group(1)) if it else -1, out)

    def against_libsvm(what, X, y, C, p, extra=(), min_rounds=1):
        write_libsvm(data, X, y)
        run(['svm-train', '-q', '-s', '3', '-t', '2', '-g', str(GAMMA), '-c', str(C), '-p', str(p), '-e', '1e-8', data,
             peer])
        Sl, cl, bl = libsvm_model(peer, X.shape[1])
        w = np.ones(len(y))
        P_l = primal(X, y, w, Sl, cl, bl, C, p)[0]
        (S, beta, b, ex, P_file, gap), rounds, D, _, _ = train(['-c', str(C), '-p', str(p), '-e', '1e-8'] + list(extra),
                                                               X)
        P = primal(X, y, w, S, beta, b, C, p)[0]
        report(ex == 'converged' and gap <= 1e-8 and rounds >= min_rounds and abs(P - P_file) <= 1e-9 * P,
               '%s: %s, gap %.2g, %d rounds (want >= %d), P %.12g (file %.12g)' % (what, ex, gap, rounds, min_rounds,
                                                                               P, P_file))
        report(P <= P_l * (1 + 1e-6) and P_l >= D - 1e-9 * P_l,
               '%s: P %.12g, svm-train -s 3 %.12g, lower bound %.12g' % (what, P, P_l, D))
        return P

    # C x p against LIBSVM, 600 rows
    X, y = friedman(600, 0)
    for C in (0.1, 10.0, 1000.0):
        for p in (0.0, 0.1, 1.0):
            against_libsvm('600 rows, C %g, p %g' % (C, p), X, y, C, p)

    # several rounds: 3,000 rows; sub-problems within 1 MB (512 rows)
    X3, y3 = friedman(3000, 1)
    P_ws = against_libsvm('3000 rows, C 1, p 0.5', X3, y3, 1.0, 0.5, min_rounds=2)
    against_libsvm('3000 rows, C 1, p 0.5, --kernel-memory 1', X3, y3, 1.0, 0.5, ['--kernel-memory', '1'],
                   min_rounds=4)

    # --method newton: the operator path, no working set, the same optimum
    (S, beta, b, ex, P_file, gap), rounds, D, _, out = train(['-c', '1', '-p', '0.5', '-e', '1e-6', '--method',
                                                              'newton'], X3)
    P = primal(X3, y3, np.ones(len(y3)), S, beta, b, 1.0, 0.5)[0]
    report(rounds == 0 and 'kernel matrix stored' in out and abs(P - P_ws) <= 2e-6 * P_ws,
           '--method newton: no working set (%d rounds), P %.10g, the working set\'s %.10g' % (rounds, P, P_ws))

    # no bias: the dual box QP by L-BFGS-B
    Xb, yb = X[:400], y[:400]
    write_libsvm(data, Xb, yb)
    Kb, n, C, p = kern(Xb, Xb), len(yb), 1.0, 0.5

    def neg_dual(z):
        a = z[:n] - z[n:]
        Ka = Kb @ a
        g = yb - Ka
        return -(a @ yb - p * z.sum() - 0.5 * a @ Ka), np.concatenate([-g + p, g + p])
    r = minimize(neg_dual, np.zeros(2 * n), jac=True, method='L-BFGS-B', bounds=[(0, C)] * (2 * n),
                 options={'maxiter': 100000, 'ftol': 1e-15, 'gtol': 1e-12})
    (S, beta, b, ex, P_file, gap), rounds, D, _, _ = train(['-c', str(C), '-p', str(p), '-B', '0', '-e', '1e-9'], Xb)
    P = primal(Xb, yb, np.ones(n), S, beta, b, C, p)[0]
    report(ex == 'converged' and rounds >= 1 and b == 0 and abs(P - (-r.fun)) <= 2e-6 * P and D <= -r.fun + 1e-9 * P,
           '-B 0: %s, %d rounds, P %.10g, the dual QP by L-BFGS-B %.10g, lower bound %.10g'
           % (ex, rounds, P, -r.fun, D))

    # sample weights: weight 2 = the row twice
    Xw, yw = X3[:1500], y3[:1500]
    wt = np.where(np.arange(len(yw)) % 5 == 0, 2.0, 1.0)
    np.savetxt(wfile, wt, fmt='%g')
    write_libsvm(data, Xw, yw)
    (S, beta, b, ex, P_file, gap), rw, _, _, _ = train(['-c', '1', '-p', '0.5', '-e', '1e-9', '-W', wfile], Xw)
    Pw, fw = primal(Xw, yw, wt, S, beta, b, 1.0, 0.5)
    rep = np.concatenate([np.arange(len(yw)), np.arange(0, len(yw), 5)])
    write_libsvm(data, Xw[rep], yw[rep])
    (S2, beta2, b2, ex2, P2_file, gap2), rr, _, _, _ = train(['-c', '1', '-p', '0.5', '-e', '1e-9'], Xw)
    Pr, fr = primal(Xw[rep], yw[rep], np.ones(len(rep)), S2, beta2, b2, 1.0, 0.5)
    fr2 = kern(Xw, S2) @ beta2 + b2
    report(ex == ex2 == 'converged' and rw >= 1 and rr >= 1 and abs(Pw - Pr) <= 1e-7 * Pr and
           abs(Pw - P_file) <= 1e-9 * Pw and np.abs(fw - fr2).max() <= 1e-3,
           '-W, weight 2 = the row twice: P %.12g and %.12g, predictions within %.2g' % (Pw, Pr, np.abs(fw - fr2).max()))

    # closed forms: a tube wider than every target (beta = 0, P = 0); a
    # constant target (b inside the tube at every row, P = 0, converged: the
    # bias in the middle of its flat interval)
    write_libsvm(data, X, y)
    (S, beta, b, ex, P_file, gap), rounds, D, _, _ = train(['-c', '10', '-p', str(1.01 * np.abs(y).max())], X)
    report(ex == 'converged' and rounds == 1 and np.all(beta == 0) and P_file == 0,
           'p > max |y|: every coefficient 0 (%d non-zero), P %g, %s' % ((beta != 0).sum(), P_file, ex))
    write_libsvm(data, X, np.full(len(y), 2.5))
    (S, beta, b, ex, P_file, gap), rounds, D, _, _ = train(['-c', '10', '-p', '0.1'], X)
    f = kern(X, S) @ beta + b if len(beta) else np.full(len(y), b)
    report(ex == 'converged' and P_file == 0 and np.abs(f - 2.5).max() <= 0.1,
           'a constant target: %s, P %g, max |f - 2.5| = %g' % (ex, P_file, np.abs(f - 2.5).max()))

    # a warm start (--init is for linear models): a training interrupted
    # (SIGINT) once it has written its first periodic checkpoint (every 0.2
    # s: an iteration boundary well inside the rounds), its checkpoint holding
    # every row's coefficient, resumed from it: the rounds start there (the
    # unit tests ws and checkpoint check warm starts exactly, through the
    # library)
    X6, y6 = friedman(6000, 3)
    write_libsvm(data, X6, y6)
    args = ['-c', '1', '-p', '0.5', '-e', '1e-8']
    (S, beta, b, ex, _, _), r0, _, _, out = train(args, X6)
    P6 = primal(X6, y6, np.ones(len(y6)), S, beta, b, 1.0, 0.5)[0]
    if os.path.exists(ck):
        os.unlink(ck)
    t0 = time.time()
    proc = subprocess.Popen([nesvm, 'train', '--svm-type', 'svr', '-t', 'rbf', '-g', str(GAMMA)] + args +
                            ['--checkpoint', ck, '--checkpoint-every', '0.2', data, model], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    while not os.path.exists(ck) and proc.poll() is None:
        time.sleep(0.002)
    T = time.time() - t0
    proc.send_signal(signal.SIGINT)
    proc.wait()
    if not os.path.exists(ck):
        report(False, 'no checkpoint after the interrupt (exit code %d)' % proc.returncode)
        print('%d passed, %d failed' % (passed, failed))
        return 1
    (S, beta, b, ex2, P_file, gap), r2, D2, _, _ = train(args + ['--resume', ck], X6)
    P2 = primal(X6, y6, np.ones(len(y6)), S, beta, b, 1.0, 0.5)[0]
    report(proc.returncode == 130 and os.path.exists(ck) and ex2 == 'converged' and r2 >= 1 and
           abs(P2 - P6) <= 1e-7 * P6,
           'interrupted after %.2f s (exit code %d), resumed from its checkpoint: %s, %d rounds (cold %d), '
           'P %.12g (cold %.12g)' % (T, proc.returncode, ex2, r2, r0, P2, P6))

    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
