#!/usr/bin/python3
"""Oracle test for epsilon-SVR (issue 32): nesvm's linear `--svm-type svr`
against LIBLINEAR and LIBSVM solving the same problems, and closed forms.

  L1-loss SVR  min 1/2 ||w||^2 + C sum_i max(0, |y_i - f(x_i)| - p)
  L2-loss SVR  min 1/2 ||w||^2 + C sum_i max(0, |y_i - f(x_i)| - p)^2
               (--loss squared_epsilon_insensitive)

Peers: LIBLINEAR -s 13 (L1, dual) and -s 11 (L2, primal) without a bias
(nesvm -B 0), at -e 1e-8; LIBSVM -s 3 -t 0 (L1 with a free bias, nesvm -B 1)
at -e 1e-8.  Every objective is recomputed here with numpy from the model
files.  nesvm must converge to its certified gap (-e 1e-8) with every
method that takes the problem (newton, nesterov at a looser 1e-6, dcd where
it applies), and then
    P_nesvm <= P_peer + 1e-6 P_peer      (as good as the peer's optimum), and
    P_peer >= D_nesvm - 1e-9 P_peer      (nesvm's lower bound is one: weak
                                          duality against the peer's point).
Closed forms: p above every |y_i| gives w = 0 (and P = 0); the bias of a
constant target.  An RBF kernel: the full kernel (stored, and on the fly)
against LIBSVM -s 3 -t 2 with a bias, against the dual box QP solved by
scipy's L-BFGS-B without one, the squared tube against its primal by
L-BFGS-B; a reduced basis no lower than LIBSVM's full kernel's optimum, within
1% of it with 450 of 500 rows.  SSVM and NSSVM's squared tube against LIBLINEAR -s 11
(with -B 1 and without a bias) and the full kernel's primal by L-BFGS-B; Hyperpass's tube
against LIBLINEAR -s 13 and the dual box QP by L-BFGS-B; the regularized-bias models'
exports identical in liblinear-predict / svm-predict.  Least absolute deviation (p = 0,
large C) bracketed by GLPK's LP optimum; weights of 2 equal to repeated rows for every
solver of the tube; train -C's p search (LIBLINEAR's grid of p) against leave-one-out by
svm-train; a kernel tube's checkpoint (SIGINT) resumed to a fresh run's optimum.
`nesvm predict` prints LIBSVM's regression lines, checked
against numpy on its own output.  Data: scikit-learn's diabetes set (scaled
to [-1, 1], targets scaled by 1/100) and Friedman #1 (500 x 10, standardized,
centred targets).

    test_svr.py NESVM_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_diabetes, make_friedman1

from test_regression import rbf, run, write_libsvm  # the regression oracle's helpers (this folder)


def model_w_b(path, d):
    """w and b of a nesvm, LIBLINEAR or LIBSVM (linear kernel) model file."""
    lines = open(path).read().split('\n')
    w, b = np.zeros(d), 0.0
    if lines[0].startswith('nesvm_model'):
        for k, ln in enumerate(lines):
            t = ln.split()
            if t and t[0] == 'b':
                b = float(t[1])
            if t and t[0] == 'w':
                vals = [float(x) for x in lines[k + 1:k + 1 + d]]
                w[:len(vals)] = vals
                return w, b
        raise ValueError('no w in ' + path)
    if lines[0].startswith('solver_type'):  # LIBLINEAR
        k = lines.index('w')
        head = dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())
        vals = [float(ln.split()[0]) for ln in lines[k + 1:] if ln.strip()]
        w[:min(d, len(vals))] = vals[:d]
        if float(head.get('bias', '-1')) > 0:
            b = vals[d] * float(head['bias'])
        return w, b
    k = lines.index('SV')  # LIBSVM
    head = dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())
    for ln in lines[k + 1:]:
        t = ln.split()
        if not t:
            continue
        for tok in t[1:]:
            j, v = tok.split(':')
            if int(j) <= d:
                w[int(j) - 1] += float(t[0]) * float(v)
    return w, -float(head['rho'])


def primal(X, y, w, b, C, p, squared):
    r = np.maximum(np.abs(y - X @ w - b) - p, 0.0)
    return 0.5 * w @ w + C * ((r * r).sum() if squared else r.sum())


def lad_glpk(X, y, path):
    """Least absolute deviation, min sum_i |y_i - x_i.w - b| over w and b, as
    an LP (x_i.w + b + u_i - v_i = y_i, u, v >= 0) in CPLEX LP format solved by
    GLPK's glpsol: the optimum and its w."""
    n, d = X.shape
    with open(path, 'w') as f:
        f.write('Minimize\n obj:' + ''.join(' + u%d + v%d' % (i, i) for i in range(n)) + '\nSubject To\n')
        for i in range(n):
            f.write(' c%d:' % i + ''.join(' %+.17g w%d' % (X[i, j], j) for j in range(d) if X[i, j] != 0) +
                    ' + b + u%d - v%d = %.17g\n' % (i, i, y[i]))
        f.write('Bounds\n' + ''.join(' w%d free\n' % j for j in range(d)) + ' b free\nEnd\n')
    out = subprocess.run(['glpsol', '--lp', path, '-o', path + '.sol'], check=True, capture_output=True,
                         text=True).stdout
    if 'OPTIMAL' not in out.upper():
        raise RuntimeError('glpsol did not find the optimum:\n' + out)
    sol = open(path + '.sol').read()
    obj = float(re.search(r'Objective:\s+obj\s+=\s+([-0-9.eE+]+)', sol).group(1))
    w = np.zeros(d)
    for m in re.finditer(r'^\s*\d+\s+w(\d+)\s+\S+\s+([-0-9.eE+]+)', sol, re.M):
        w[int(m.group(1))] = float(m.group(2))
    return obj, w


def nesvm_fields(path):
    sub = [ln for ln in open(path).read().split('\n') if ln.startswith('submodel 0 ')][0].split()
    f = dict(zip(sub[2::2], sub[3::2]))
    return f['exit'], float(f['primal']), float(f['gap'])


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    data, model, peer, pred = (os.path.join(tmp, f) for f in ('d.txt', 'm.model', 'p.model', 'p.out'))
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    dia = load_diabetes()
    Xd = dia.data
    Xd = 2 * (Xd - Xd.min(0)) / (Xd.max(0) - Xd.min(0)) - 1
    yd = dia.target / 100.0
    Xf, yf = make_friedman1(n_samples=500, n_features=10, noise=1.0, random_state=0)
    Xf = (Xf - Xf.mean(0)) / Xf.std(0)
    yf = yf - yf.mean()
    sets = [('diabetes', Xd, yd, 0.1), ('friedman1', Xf, yf, 0.5)]

    for name, X, y, p in sets:
        write_libsvm(data, X, y)
        d = X.shape[1]
        for C in (0.1, 1.0, 10.0):
            for squared in (0, 1):
                for bias in (0, 1):
                    if squared and bias:
                        continue  # no peer solves the L2 loss with a free bias
                    loss = ['--loss', 'squared_epsilon_insensitive'] if squared else []
                    if bias:
                        run(['svm-train', '-q', '-s', '3', '-t', '0', '-c', str(C), '-p', str(p), '-e', '1e-8',
                             data, peer])
                        tag = 'svm-train -s 3 -t 0'
                    else:
                        s = '11' if squared else '13'
                        run(['liblinear-train', '-q', '-s', s, '-c', str(C), '-p', str(p), '-e', '1e-8', data, peer])
                        tag = 'liblinear-train -s ' + s
                    pw, pb = model_w_b(peer, d)
                    P_peer = primal(X, y, pw, pb, C, p, squared)
                    methods = ['newton', 'nesterov'] + ([] if bias and squared else ['dcd'])
                    for method in methods:
                        eps = '1e-6' if method == 'nesterov' else '1e-8'
                        what = '%s C=%g %s B=%d %s' % (name, C, 'L2' if squared else 'L1', bias, method)
                        out = run([nesvm, 'train', '--svm-type', 'svr', '-p', str(p), '-c', str(C), '-B', str(bias),
                                   '-e', eps, '--method', method, '--max-iter', '1000000'] + loss + [data, model])
                        ex, P_file, gap = nesvm_fields(model)
                        w, b = model_w_b(model, d)
                        P = primal(X, y, w, b, C, p, squared)
                        lb = re.search(r'^lower bound (\S+)', out, re.M)
                        D = float(lb.group(1)) if lb else float('nan')
                        report(ex == 'converged' and gap <= float(eps) and abs(P - P_file) <= 1e-9 * P,
                               '%s: converged, gap %.2g, P %.12g (file %.12g)' % (what, gap, P, P_file))
                        tol = float(eps) if method == 'nesterov' else 1e-6
                        report(P <= P_peer * (1 + tol) and P_peer >= D - 1e-9 * P_peer,
                               '%s: P %.12g, %s %.12g, lower bound %.12g' % (what, P, tag, P_peer, D))

    # closed form: a tube wider than every target: w = 0, P = 0
    write_libsvm(data, Xd, yd)
    out = run([nesvm, 'train', '--svm-type', 'svr', '-p', str(np.abs(yd).max() * 1.01), '-c', '10', '-B', '0', data,
               model])
    w, b = model_w_b(model, Xd.shape[1])
    report(np.all(w == 0) and nesvm_fields(model)[1] == 0,
           'p > max |y_i|: w = 0 and P = 0 (max |w_j| %g)' % np.abs(w).max())
    # a constant target c with a bias: f = c within the tube, P = 0
    yc = np.full(len(yd), 2.5)
    write_libsvm(data, Xd, yc)
    run([nesvm, 'train', '--svm-type', 'svr', '-p', '0.1', '-c', '1', '-B', '1', data, model])
    w, b = model_w_b(model, Xd.shape[1])
    f = Xd @ w + b
    report(np.abs(f - 2.5).max() <= 0.1 + 1e-6 and nesvm_fields(model)[1] <= 1e-9,
           'a constant target: every f within the tube (max |f - 2.5| = %g)' % np.abs(f - 2.5).max())

    # a kernel on a reduced basis (the full kernel's expansion is refused): its
    # problem is the full kernel's restricted to the basis's span under the
    # RKHS norm, so its optimum is no lower than LIBSVM's -s 3 -t 2 (P of
    # LIBSVM's model recomputed here), and close to it with most rows as basis
    write_libsvm(data, Xf, yf)
    g, C, p = 0.1, 1.0, 0.5
    run(['svm-train', '-q', '-s', '3', '-t', '2', '-g', str(g), '-c', str(C), '-p', str(p), '-e', '1e-8', data, peer])
    lines = open(peer).read().split('\n')
    k = lines.index('SV')
    rho = float(dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())['rho'])
    coef, S = [], []
    for ln in lines[k + 1:]:
        t = ln.split()
        if t:
            coef.append(float(t[0]))
            v = np.zeros(Xf.shape[1])
            for tok in t[1:]:
                j, x = tok.split(':')
                v[int(j) - 1] = float(x)
            S.append(v)
    coef, S = np.array(coef), np.array(S)

    K = rbf(np.vstack([Xf, S]), g)  # rows of Xf, then the support vectors
    n = Xf.shape[0]
    f_l = K[:n, n:] @ coef - rho
    P_l = 0.5 * coef @ K[n:, n:] @ coef + C * np.maximum(np.abs(yf - f_l) - p, 0).sum()
    # the full kernel: by default on the working set (the tube's dual by
    # decomposition with the kernel SMO, the summary says `working set (R
    # rounds)`; with --kernel-memory 0.01 its sub-problems hold at most 51
    # rows), and with --method newton its expansion with K as an operator
    # (stored in single precision, certified again in double): LIBSVM's
    # optimum with a free bias; without a bias the dual box QP
    #   max sum a_i y_i - p sum |a_i| - 1/2 a'Ka,  -C <= a_i <= C
    # (a = a+ - a-, both in [0, C]) by scipy's L-BFGS-B; the squared tube with
    # a bias: its primal, once differentiable, by L-BFGS-B
    from scipy.optimize import minimize
    Kf = rbf(Xf, g)
    for how in ([], ['--kernel-memory', '0.01'], ['--method', 'newton']):
        out = run([nesvm, 'train', '--svm-type', 'svr', '-t', 'rbf', '-g', str(g), '-c', str(C), '-p', str(p),
                   '-e', '1e-7'] + how + [data, model])
        ex, P, gap = nesvm_fields(model)
        lb = re.search(r'^lower bound (\S+)', out, re.M)
        D = float(lb.group(1)) if lb else float('nan')
        ws = re.search(r'working set \((\d+) rounds?\)', out)
        path = ('kernel matrix stored' in out and not ws) if 'newton' in how else \
            (ws and int(ws.group(1)) >= (3 if how else 1))
        report(ex == 'converged' and path and P <= P_l * (1 + 1e-6) and P_l >= D - 1e-9 * P_l,
               'rbf, full kernel%s: %s, %s, gap %.2g, P %.10g, LIBSVM %.10g, lower bound %.10g'
               % (' ' + ' '.join(how) if how else '', ex, ws.group(0) if ws else 'the operator', gap, P, P_l, D))
    n = len(yf)

    def neg_dual(z):
        a = z[:n] - z[n:]
        Ka = Kf @ a
        v = -(a @ yf - p * z.sum() - 0.5 * a @ Ka)
        ga = -(yf - Ka)
        return v, np.concatenate([ga + p, -ga + p])
    r = minimize(neg_dual, np.zeros(2 * n), jac=True, method='L-BFGS-B', bounds=[(0, C)] * (2 * n),
                 options={'maxiter': 100000, 'ftol': 1e-15, 'gtol': 1e-12})
    D_q = -r.fun
    out = run([nesvm, 'train', '--svm-type', 'svr', '-t', 'rbf', '-g', str(g), '-c', str(C), '-p', str(p), '-B', '0',
               '-e', '1e-7', data, model])
    ex, P, gap = nesvm_fields(model)
    report(ex == 'converged' and 'working set' in out and abs(P - D_q) <= 2e-6 * D_q,
           'rbf, full kernel, no bias, on the working set: P %.10g, the dual QP by L-BFGS-B %.10g' % (P, D_q))

    def sq_primal(z):
        beta, b0 = z[:n], z[n]
        Kb = Kf @ beta
        res = yf - Kb - b0
        t = np.maximum(np.abs(res) - p, 0.0) * np.sign(res)
        v = 0.5 * beta @ Kb + C * (t * t).sum()
        return v, np.concatenate([Kb - 2 * C * (Kf @ t), [-2 * C * t.sum()]])
    r = minimize(sq_primal, np.zeros(n + 1), jac=True, method='L-BFGS-B',
                 options={'maxiter': 100000, 'ftol': 1e-15, 'gtol': 1e-10})
    out = run([nesvm, 'train', '--svm-type', 'svr', '--loss', 'squared_epsilon_insensitive', '-t', 'rbf', '-g', str(g),
               '-c', str(C), '-p', str(p), '-e', '1e-8', data, model])
    ex, P, gap = nesvm_fields(model)
    report(ex == 'converged' and 'working set' not in out and P <= r.fun * (1 + 1e-6) and r.fun <= P * (1 + 1e-6),
           'rbf, full kernel, squared tube (the operator path): P %.10g, L-BFGS-B on the primal %.10g' % (P, r.fun))
    for basis in (100, 450):
        run([nesvm, 'train', '--svm-type', 'svr', '-t', 'rbf', '-g', str(g), '-c', str(C), '-p', str(p),
             '--basis', str(basis), '-e', '1e-8', data, model])
        ex, P, gap = nesvm_fields(model)
        report(ex == 'converged' and P >= P_l * (1 - 1e-9) and (basis < 450 or P <= P_l * 1.01),
               'rbf, basis %d: %s, P %.10g >= LIBSVM full kernel %.10g' % (basis, ex, P, P_l))

    # SSVM and NSSVM's squared tube (two squared hinges, hinge.h), their
    # problem 1/2 ||z||^2 + 1/2 sum_i c_i max(0, |y_i - z.[x_i, B]| - p)^2 with
    # c_i = 2 C: LIBLINEAR's -s 11 with -B 1 (the bias feature regularized) and
    # without a bias, objectives recomputed from both model files
    Xd1 = np.hstack([Xd, np.ones((Xd.shape[0], 1))])
    write_libsvm(data, Xd, yd)
    for solver in ('ssvm', 'nssvm'):
        for C in (0.1, 1.0, 10.0):
            for B in (1, 0):
                run(['liblinear-train', '-q', '-s', '11', '-c', str(C), '-p', '0.1', '-B', str(B or -1), '-e', '1e-10',
                     data, peer])
                run([nesvm, 'train', '--svm-type', 'svr', '--solver', solver, '--loss', 'squared_epsilon_insensitive',
                     '-c', str(2 * C), '-p', '0.1', '-B', str(B), '-e', '1e-9', data, model])
                ex, P, gap = nesvm_fields(model)
                Z = Xd1 if B else Xd
                Pl = primal(Z, yd, np.append(*model_w_b(peer, Xd.shape[1])) if B else model_w_b(peer, Xd.shape[1])[0],
                            0.0, C, 0.1, 1)
                w, b = model_w_b(model, Xd.shape[1])
                Pm = primal(Z, yd, np.append(w, b) if B else w, 0.0, C, 0.1, 1)
                report(ex == 'converged' and abs(P - Pm) <= 1e-9 * Pm and P <= Pl * (1 + 1e-7) and
                       Pl >= P * (1 - gap) - 1e-12 * Pl,
                       '%s squared tube, C %g, -B %d: %s (gap %.2g), P %.10g (its model %.10g), LIBLINEAR -s 11 %.10g'
                       % (solver, C, B, ex, gap, P, Pm, Pl))
    # Hyperpass's tube (two hinges with thresholds, its cuts' constants sum
    # c_i t_i): LIBLINEAR's -s 13 with -B 1 (the bias feature regularized)
    # and without a bias, with and without shrinking.  LIBLINEAR's dual method
    # stops short at large C (0.16% above at C = 10), so: as good as its point,
    # its point no lower than Hyperpass's certified lower bound, and the
    # optimum equal to the dual box QP's (no free bias:
    #   max sum a_i y_i - p sum |a_i| - 1/2 ||Z'a||^2, |a_i| <= C)
    # solved by scipy's L-BFGS-B
    nd = len(yd)
    for C in (0.1, 1.0, 10.0):
        for B in (1, 0):
            run(['liblinear-train', '-q', '-s', '13', '-c', str(C), '-p', '0.1', '-B', str(B or -1), '-e', '1e-10',
                 data, peer])
            Z = Xd1 if B else Xd
            wl, bl = model_w_b(peer, Xd.shape[1])
            Pl = primal(Z, yd, np.append(wl, bl) if B else wl, 0.0, C, 0.1, 0)

            def neg_lin_dual(z, Z=Z):
                a = z[:nd] - z[nd:]
                v = Z.T @ a
                ga = -(yd - Z @ v)
                return -(a @ yd - 0.1 * z.sum() - 0.5 * v @ v), np.concatenate([ga + 0.1, -ga + 0.1])
            rq = minimize(neg_lin_dual, np.zeros(2 * nd), jac=True, method='L-BFGS-B', bounds=[(0, C)] * (2 * nd),
                          options={'maxiter': 100000, 'ftol': 1e-15, 'gtol': 1e-12})
            Dq = -rq.fun
            for shrink in ('1', '0'):
                out = run([nesvm, 'train', '--svm-type', 'svr', '--solver', 'hyperpass', '-c', str(C), '-p', '0.1',
                           '-B', str(B), '-h', shrink, '-e', '1e-9', data, model])
                ex, P, gap = nesvm_fields(model)
                w, b = model_w_b(model, Xd.shape[1])
                Pm = primal(Z, yd, np.append(w, b) if B else w, 0.0, C, 0.1, 0)
                report(ex == 'converged' and abs(P - Pm) <= 1e-9 * Pm and P <= Pl * (1 + 1e-7) and
                       Pl >= P * (1 - gap) - 1e-12 * Pl and abs(P - Dq) <= 1e-6 * Dq,
                       'hyperpass tube, C %g, -B %d, -h %s: %s (gap %.2g), P %.10g (its model %.10g), '
                       'LIBLINEAR -s 13 %.10g, the dual QP by L-BFGS-B %.10g' % (C, B, shrink, ex, gap, P, Pm, Pl, Dq))
    # the regularized-bias models export for the peers: the same values in
    # liblinear-predict (-s 13 and -s 11 with their bias) and svm-predict (the tube)
    exp, outs = os.path.join(tmp, 'exp.model'), [os.path.join(tmp, 'o%d.txt' % k) for k in range(2)]
    for args, fmts in ((['--solver', 'hyperpass', '-B', '1'], ('liblinear', 'libsvm')),
                       (['--solver', 'nssvm', '--loss', 'squared_epsilon_insensitive', '-B', '2'], ('liblinear',))):
        run([nesvm, 'train', '-q', '--svm-type', 'svr', '-c', '1', '-p', '0.1'] + args + [data, model])
        run([nesvm, 'predict', '-q', data, model, outs[0]])
        for fmt in fmts:
            run([nesvm, 'export', '--format', fmt, model, exp])
            run(['liblinear-predict' if fmt == 'liblinear' else 'svm-predict', data, exp, outs[1]])
            a_, b_ = np.loadtxt(outs[0]), np.loadtxt(outs[1])
            report(np.abs(a_ - b_).max() <= 1e-12 * max(1.0, np.abs(a_).max()),
                   'export --format %s of %s: the same values in its predict (%.2g)'
                   % (fmt, ' '.join(args), np.abs(a_ - b_).max()))
    # their full kernel (--basis 0, the RKHS norm, Nystrom features of the whole
    # set) with the regularized bias: L-BFGS-B on
    #   1/2 beta'K beta + 1/2 v^2 + C sum_i max(0, |y_i - (K beta)_i - v| - p)^2
    write_libsvm(data, Xf, yf)

    def sqb_primal(z):
        beta, v = z[:n], z[n]
        Kb = Kf @ beta
        res = yf - Kb - v
        t = np.maximum(np.abs(res) - p, 0.0) * np.sign(res)
        val = 0.5 * beta @ Kb + 0.5 * v * v + C * (t * t).sum()
        return val, np.concatenate([Kb - 2 * C * (Kf @ t), [v - 2 * C * t.sum()]])
    r = minimize(sqb_primal, np.zeros(n + 1), jac=True, method='L-BFGS-B',
                 options={'maxiter': 100000, 'ftol': 1e-15, 'gtol': 1e-10})
    for solver in ('ssvm', 'nssvm'):
        run([nesvm, 'train', '--svm-type', 'svr', '--solver', solver, '--loss', 'squared_epsilon_insensitive',
             '-t', 'rbf', '-g', str(g), '-c', str(2 * C), '-p', str(p), '--basis', '0', '-B', '1', '-e', '1e-9',
             data, model])
        ex, P, gap = nesvm_fields(model)
        report(ex == 'converged' and P <= r.fun * (1 + 1e-6) and r.fun >= P * (1 - gap) - 1e-9 * r.fun,
               '%s rbf full kernel, squared tube, -B 1: %s, P %.10g, L-BFGS-B %.10g' % (solver, ex, P, r.fun))

    # train -C searches C and p as LIBLINEAR's -s 11 -C does (p = max |y| k / 20,
    # k = 19..0): leave-one-out on 40 rows, three of its printed MSEs against
    # leave-one-out by svm-train -s 3 -t 0 (the same problem with a free bias),
    # and the best line the smallest printed MSE
    Xs, ys = Xf[:40, :4], yf[:40] / 4
    write_libsvm(data, Xs, ys)
    out = run([nesvm, 'train', '--svm-type', 'svr', '-C', '-v', '40', '-e', '1e-9', data])
    rows = [(float(a), float(b), float(c)) for a, b, c in
            re.findall(r'^log2c=\s*(\S+)\tp=\s*(\S+)\tMean squared error=(\S+)$', out, re.M)]
    mb = re.search(r'^Best C = (\S+) Best p = (\S+)  CV MSE = (\S+)$', out, re.M)
    pm = np.abs(ys).max()
    ps = sorted({r[1] for r in rows}, reverse=True)
    report(len(ps) == 20 and abs(ps[0] - round(pm * 19 / 20, 2)) < 0.006 and ps[-1] == 0 and mb,
           'train -C, svr: 20 values of p from %.3g (max |y| 19/20) to 0, and the best line: %r'
           % (pm * 19 / 20, mb and mb.group(0)))
    if rows and mb:
        k = min(range(len(rows)), key=lambda i: rows[i][2])
        report(float(mb.group(3)) == rows[k][2] and abs(np.log2(float(mb.group(1))) - rows[k][0]) < 0.006,
               'train -C, svr: the best line is the smallest printed MSE (%g at log2c %g, p %g)'
               % (rows[k][2], rows[k][0], rows[k][1]))
        loo_x = os.path.join(tmp, 'loo.txt')
        # points whose optimum is unique (C >= 1; at small C and a wide tube
        # every residual is inside or at the bound, and the bias is any point of
        # an interval: LIBSVM takes its middle)
        pick = [r for r in rows if r[1] == 0 and r[0] in (0, 6)] + \
            [r for r in rows if abs(r[1] - ps[14]) < 1e-9 and r[0] == 4]
        report(len(pick) == 3, 'train -C, svr: the three points to check are printed: %r' % pick)
        for lc, pp, mse in pick:
            # p printed to 2 decimals: the exact grid value
            pe = min((pm * k / 20 for k in range(20)), key=lambda v: abs(v - pp))
            err = []
            for j in range(40):
                keep = np.arange(40) != j
                write_libsvm(loo_x, Xs[keep], ys[keep])
                run(['svm-train', '-q', '-s', '3', '-t', '0', '-c', repr(2.0 ** lc), '-p', repr(pe), '-e', '1e-9',
                     loo_x, peer])
                w, b = model_w_b(peer, Xs.shape[1])
                err.append((ys[j] - Xs[j] @ w - b) ** 2)
            ref = float(np.mean(err))
            report(abs(mse - ref) <= 1e-3 * ref + 1e-9,
                   'train -C, svr: leave-one-out MSE at log2c %g, p %.3g: %g, svm-train\'s %g' % (lc, pe, mse, ref))

    # closed form by an LP: p = 0 and a large C is least absolute deviation.
    # nesvm's certified point (relative gap e) has C sum|r| <= P <= (1 + e) P*
    # and P* <= C LAD + 1/2 ||w_LAD||^2, so LAD <= sum|r| <= (1 + e)(LAD +
    # ||w_LAD||^2 / (2C)); GLPK's glpsol solves the LP
    write_libsvm(data, Xd, yd)
    lad, wlad = lad_glpk(Xd, yd, os.path.join(tmp, 'lad.lp'))
    for C in (100.0, 1e4):
        run([nesvm, 'train', '-q', '--svm-type', 'svr', '-p', '0', '-c', str(C), '-e', '1e-9', data, model])
        ex, P, gap = nesvm_fields(model)
        w, b = model_w_b(model, Xd.shape[1])
        sr = np.abs(yd - Xd @ w - b).sum()
        hi = (1 + 1e-9) * (lad + 0.5 * wlad @ wlad / C)
        report(ex == 'converged' and lad * (1 - 1e-12) <= sr <= hi * (1 + 1e-12),
               'p = 0, C %g: least absolute deviation %.10g <= nesvm sum|r| %.10g <= %.10g (GLPK LP)'
               % (C, lad, sr, hi))
    # sample weights: a weight of 2 is the row repeated (-W), for every solver
    # of the tube: the objectives equal within the two runs' certified gaps
    # (-e 1e-10; the stored single-precision kernel's, 1e-6)
    wfile, dup = os.path.join(tmp, 'w.txt'), os.path.join(tmp, 'dup.txt')
    rng = np.random.default_rng(5)
    twice = rng.random(len(yd)) < 0.3
    np.savetxt(wfile, np.where(twice, 2.0, 1.0))
    write_libsvm(dup, np.vstack([Xd, Xd[twice]]), np.concatenate([yd, yd[twice]]))
    for args in (['-B', '1'], ['-B', '0', '--method', 'dcd'], ['--solver', 'hyperpass', '-B', '1'],
                 ['--solver', 'nssvm', '--loss', 'squared_epsilon_insensitive'],
                 ['-t', 'rbf', '-g', '0.5', '-B', '1']):
        e = '1e-6' if '-t' in args else '1e-10'
        run([nesvm, 'train', '-q', '--svm-type', 'svr', '-c', '1', '-e', e, '-W', wfile] + args + [data, model])
        ex1, P1, g1 = nesvm_fields(model)
        run([nesvm, 'train', '-q', '--svm-type', 'svr', '-c', '1', '-e', e] + args + [dup, model])
        ex2, P2, g2 = nesvm_fields(model)
        report(ex1 == ex2 == 'converged' and abs(P1 - P2) <= (max(g1, g2) + 1e-12) * P2,
               'weights of 2 = repeated rows (%s): P %.12g and %.12g (gaps %.2g, %.2g)'
               % (' '.join(args), P1, P2, g1, g2))

    # a checkpoint of the kernel tube (SIGINT once the first checkpoint is
    # written, every 0.01 s) resumed to the same certified optimum as a run
    # from scratch (5,000 rows of Friedman #1: over a second of training)
    import signal
    import time
    X5, y5 = make_friedman1(n_samples=5000, n_features=10, noise=1.0, random_state=0)
    write_libsvm(data, X5, y5)
    ck = os.path.join(tmp, 'svr.ckpt')
    kargs = ['--svm-type', 'svr', '-t', 'rbf', '-g', '0.1', '-c', '1', '-p', '0.1', '--method', 'newton', '-e', '1e-6']
    proc = subprocess.Popen([nesvm, 'train', '-q', '--checkpoint', ck, '--checkpoint-every', '0.01'] + kargs +
                            [data, model], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t_end = time.time() + 120
    while proc.poll() is None and time.time() < t_end:
        if os.path.exists(ck):
            proc.send_signal(signal.SIGINT)
            break
        time.sleep(0.001)
    err_ = proc.communicate()[1]
    r_ = subprocess.run([nesvm, 'train', '--resume', ck] + kargs + [data, model], capture_output=True, text=True)
    ex1, P1, g1 = nesvm_fields(model)
    run([nesvm, 'train', '-q'] + kargs + [data, model])
    ex2, P2, g2 = nesvm_fields(model)
    report(proc.returncode == 130 and 'continue it with --resume' in err_ and r_.returncode == 0 and
           ex1 == ex2 == 'converged' and abs(P1 - P2) <= (max(g1, g2) + 1e-12) * P2,
           'checkpoint (SIGINT: exit %s) and --resume (exit %d): P %.12g, from scratch %.12g'
           % (proc.returncode, r_.returncode, P1, P2))

    # predict prints LIBSVM's regression lines, true of its own output
    write_libsvm(data, Xf, yf)
    run([nesvm, 'train', '--svm-type', 'svr', '-p', '0.5', '-c', '1', data, model])
    out = run([nesvm, 'predict', data, model, pred])
    fp = np.loadtxt(pred)
    mse = np.mean((fp - yf) ** 2)
    scc = np.corrcoef(fp, yf)[0, 1] ** 2
    m1 = re.search(r'Mean squared error = (\S+) \(regression\)', out)
    m2 = re.search(r'Squared correlation coefficient = (\S+) \(regression\)', out)
    report(m1 and m2 and abs(float(m1.group(1)) - mse) <= 1e-5 * mse and abs(float(m2.group(1)) - scc) <= 1e-5,
           'predict: MSE %s (numpy %g), SCC %s (numpy %g)' % (m1 and m1.group(1), mse, m2 and m2.group(1), scc))

    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
