#!/usr/bin/python3
"""Oracle test for the one-class SVM (issue 33; src/solvers/nesvm/expansion_wso.c),
LIBSVM's -s 2 problem in LIBSVM's scaling, with costs W_i (sample weights, 1
without) and W = sum W_i:

    dual    min_a 1/2 a'K a,   0 <= a_i <= W_i,   sum a = nu W
    primal  min_{w,rho} 1/2 ||w||^2 + sum_i W_i max(0, rho - w.phi(x_i)) - nu W rho

and decision f(x) = sum a_i K(x_i, x) - rho (+1 where > 0).  At the optimum
P = -1/2 a'K a, so LIBSVM's printed obj (1/2 a'K a at its a) is -P there.
Every objective is recomputed here with numpy from the model files (nesvm's
basis and coefficients or w, LIBSVM's support vectors, coefficients and rho):

  - heart_scale and a generated set of 3,000 rows (several working-set
    rounds), RBF and linear kernels, nu in {0.05, 0.3, 0.8}, against
    svm-train -s 2 -e 1e-6: LIBSVM's obj equals 1/2 a'K a of its file;
    weak duality both ways without tolerance but rounding (nesvm's P >=
    LIBSVM's dual -obj, LIBSVM's primal >= nesvm's lower bound); nesvm's P
    <= -obj + 1e-6 |obj| and nesvm's bound >= -obj - 1e-6 |obj| (as good as
    LIBSVM's solution); nesvm's certificate (P - bound <= eps |P|) and its P
    the one recomputed from its file; the w-part of the decision values,
    ||w_nesvm - w_libsvm|| <= sqrt(2 (P_n - P*)) + sqrt(2 (P_L - P*)) with
    P* >= the better lower bound (strong convexity in w), and LIBSVM's rho
    nearly as good for nesvm's w as nesvm's own (P(w_n, rho_L) - P(w_n,
    rho_n) within 1e-6 |P|);
  - nu's properties on random problems: #{f_i < 0} <= nu n <= #{a_i > 0}
    (the first with a tolerance of 1e-7 rho for the free vectors, whose
    f = 0 is met to the solver's accuracy only);
  - closed forms: nu = 1 (every a_i = 1, rho = max_i (K 1)_i, P = -1/2 1'K 1);
    nu n < 1 (the box never binds: a = nu n times the minimum-norm point of
    the rows' hull, so w and rho scale with nu): three points (1,0), (0,1),
    (2,2) with the linear kernel (a = nu n (1/2, 1/2, 0), rho = nu n / 2),
    two points with the RBF kernel (a = nu n (1/2, 1/2)), heart_scale at
    nu = 0.001 and 0.002 (w and rho doubled);
  - sample weights: a weight of 2 is the row repeated (the same P);
  - predict: svm-predict's accuracy line, and the ROC AUC of the decision
    values against scikit-learn's;
  - bad input: nu out of (0, 1] refused (exit 2, no model file), -n on a
    classifier warned and ignored (the same model), the refusals of a
    one-class training nesvm cannot do.

    test_oneclass.py NESVM_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.metrics import roc_auc_score

from test_regression import write_libsvm  # this folder's helper

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'


def run(args, check=True):
    p = subprocess.run(args, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(args), p.returncode, p.stderr))
    return p


def read_data(path):
    lines = [ln for ln in open(path).read().splitlines() if ln.strip()]
    d = max(int(t.split(':')[0]) for ln in lines for t in ln.split()[1:])
    return rows_of(lines, d), np.array([float(ln.split()[0]) for ln in lines])


def rows_of(lines, d):
    S = np.zeros((len(lines), d))
    for i, ln in enumerate(lines):
        for tok in ln.split()[1:]:
            j, v = tok.split(':')
            if int(j) <= d:
                S[i, int(j) - 1] = float(v)
    return S


def kern(A, B, kernel, g):
    if kernel == 'linear':
        return A @ B.T
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-g * np.maximum(d2, 0))


def nesvm_model(path, d):
    """(S, a, rho, fields): a linear model as S = I (w its coefficients)."""
    lines = open(path).read().splitlines()
    k = [j for j, ln in enumerate(lines) if ln.startswith('submodel 0 ')][0]
    f = lines[k].split()
    fields = dict(zip(f[2::2], f[3::2]))
    rho = -float(lines[k + 1].split()[1])
    if lines[k + 2] == 'w':
        return np.eye(d), np.array([float(x) for x in lines[k + 3:k + 3 + d]]), rho, fields
    nb = int([ln for ln in lines if ln.startswith('nr_basis')][0].split()[1])
    i = lines.index('basis')
    return rows_of(lines[i + 1:i + 1 + nb], d), np.array([float(x) for x in lines[k + 3:k + 3 + nb]]), rho, fields


def libsvm_model(path, d):
    lines = open(path).read().splitlines()
    k = lines.index('SV')
    head = dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())
    sv = [ln for ln in lines[k + 1:] if ln.strip()]
    return rows_of(sv, d), np.array([float(ln.split()[0]) for ln in sv]), float(head['rho'])


def feasible(a, nuw):
    """LIBSVM's coefficients (written in single precision: their sum is nu n to
    1e-8 only) made a feasible dual point: scaled to sum nu n, clipped to
    [0, 1], the rest put where there is room."""
    a = np.clip(a * (nuw / a.sum()), 0, 1)
    for i in np.argsort(a):
        a[i] = min(1.0, max(0.0, a[i] + nuw - a.sum()))
    return a


class Problem:
    """A one-class problem (X, kernel, gamma, nu, weights) and its objectives in numpy."""

    def __init__(self, X, kernel, g, nu, W=None):
        self.X, self.kernel, self.g, self.nu = X, kernel, g, nu
        self.W = np.ones(len(X)) if W is None else W
        self.nuw = nu * self.W.sum()

    def k(self, A, B):
        if self.kernel == 'linear' and A.shape[1] != B.shape[1]:
            raise ValueError('dims')
        return kern(A, B, self.kernel, self.g)

    def wnorm2(self, S, a):
        """||w||^2 of w = sum a_j phi(s_j) (the linear model's S = I: w = a)."""
        return a @ self.k(S, S) @ a

    def margins(self, S, a, X=None):
        return self.k(self.X if X is None else X, S) @ a

    def primal(self, S, a, rho):
        f = self.margins(S, a)
        return 0.5 * self.wnorm2(S, a) + (self.W * np.maximum(rho - f, 0)).sum() - self.nuw * rho

    def best_rho(self, f):
        o = np.argsort(f, kind='stable')
        cum = np.cumsum(self.W[o])
        k = int(np.searchsorted(cum, self.nuw * (1 - 1e-15)))
        return f[o[min(k, len(f) - 1)]]

    def dist2(self, S1, a1, S2, a2):
        """||w1 - w2||^2 of two expansions."""
        return self.wnorm2(S1, a1) + self.wnorm2(S2, a2) - 2 * a1 @ self.k(S1, S2) @ a2


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    data, model, peer, wfile = (os.path.join(tmp, f) for f in ('d.txt', 'm.model', 'p.model', 'w.txt'))
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    def train(pb, extra=(), path=None):
        """nesvm's model of pb: (S, a, rho, P, bound, exit, fields)."""
        args = [nesvm, 'train', '-s', '2', '-t', pb.kernel, '-n', repr(pb.nu)]
        if pb.kernel != 'linear':
            args += ['-g', repr(pb.g)]
        out = run(args + list(extra) + [path or data, model]).stdout
        P = float(re.search(r'^primal objective (\S+),', out, re.M).group(1))
        lb = re.search(r'^lower bound (\S+)', out, re.M)
        S, a, rho, fields = nesvm_model(model, pb.X.shape[1])
        return S, a, rho, P, float(lb.group(1)) if lb else np.nan, fields['exit'], fields

    # ---- 1. against svm-train -s 2 -e 1e-6
    rng = np.random.default_rng(33)
    Xh, yh = read_data(HEART)
    Xg = rng.normal(size=(3000, 6)) + 1.5
    Xg[:300] += rng.normal(scale=3.0, size=(300, 6))  # a tenth spread out: outliers
    yg = np.where(np.arange(3000) < 300, -1.0, 1.0)
    # gammas LIBSVM's float holds exactly: both solve the same problem
    sets = [('heart_scale', Xh, yh, 0.0625), ('generated 3000x6', Xg, yg, 0.25)]
    for name, X, y, g in sets:
        write_libsvm(data, X, y)
        for kernel in ('rbf', 'linear'):
            for nu in (0.05, 0.3, 0.8):
                pb = Problem(X, kernel, g, nu)
                what = '%s %s nu %g' % (name, kernel, nu)
                lout = run(['svm-train', '-s', '2', '-t', '2' if kernel == 'rbf' else '0', '-g', repr(g), '-n',
                            repr(nu), '-e', '1e-6', data, peer]).stdout
                obj = float(re.search(r'obj = (\S+),', lout).group(1))
                SL, aL, rhoL = libsvm_model(peer, X.shape[1])
                half = 0.5 * pb.wnorm2(SL, aL)
                report(abs(half - obj) <= 1e-6 * abs(obj) + 1e-6 and aL.min() >= 0 and aL.max() <= 1 + 1e-7 and
                       abs(aL.sum() - pb.nuw) <= 1e-7 * pb.nuw,
                       '%s: LIBSVM feasible (to its file\'s precision), its obj %.12g = 1/2 a\'K a = %.12g' %
                       (what, obj, half))
                aF = feasible(aL, pb.nuw)
                DL = -0.5 * pb.wnorm2(SL, aF)  # the dual value of LIBSVM's point made feasible
                S, a, rho, P, lb, ex, fields = train(pb, ['-e', '1e-8'])
                Pn = pb.primal(S, a, rho)
                PL = pb.primal(SL, aL, rhoL)
                tiny = 1e-9 * abs(Pn)
                report(ex == 'converged' and abs(Pn - P) <= 1e-7 * abs(P) and P - lb <= 1e-8 * abs(P) + tiny,
                       '%s: nesvm converged, P %.12g (file %.12g, numpy %.12g), bound %.12g' %
                       (what, P, float(fields['primal']), Pn, lb))
                report(Pn >= DL - tiny and lb <= PL + tiny,
                       '%s: weak duality: P_nesvm %.12g >= D_libsvm %.12g, P_libsvm %.12g >= bound %.12g' %
                       (what, Pn, DL, PL, lb))
                report(Pn <= -obj + 1e-6 * abs(obj) and lb >= -obj - 1e-6 * abs(obj),
                       '%s: as good as LIBSVM: P %.10g, bound %.10g, -obj %.10g' % (what, Pn, lb, -obj))
                star = max(lb, DL)
                bound = np.sqrt(2 * max(Pn - star, 0)) + np.sqrt(2 * max(PL - star, 0))
                dw = np.sqrt(max(pb.dist2(S, a, SL, aL), 0))
                scale = np.sqrt(pb.wnorm2(S, a))
                report(dw <= bound + 1e-7 * scale,
                       '%s: ||w_nesvm - w_libsvm|| %.3g <= %.3g from the gaps (||w|| %.6g)' %
                       (what, dw, bound, scale))
                Prl = pb.primal(S, a, rhoL)
                Pbest = pb.primal(S, a, pb.best_rho(pb.margins(S, a)))
                report(Prl - Pn <= 1e-6 * abs(Pn) and Pn - Pbest <= 1e-12 * abs(Pn),
                       '%s: rho %.10g is the best for w (LIBSVM\'s %.10g: P %.3g higher)' % (what, rho, rhoL, Prl - Pn))
                # nu's properties on nesvm's solution
                f = pb.margins(S, a) - rho
                nsv = int((a > 0).sum()) if kernel == 'rbf' else None  # (the basis: the rows of a > 0)
                out_rows = int((f < -1e-7 * abs(rho)).sum())
                report(out_rows <= nu * len(X) and (nsv is None or nsv >= nu * len(X)),
                       '%s: outside %d <= nu n %g <= support vectors %s' % (what, out_rows, nu * len(X), nsv))

    # ---- 2. nu's properties on random problems
    for t in range(6):
        n, d = int(rng.integers(80, 400)), int(rng.integers(2, 8))
        X = rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d)
        nu, g = float(rng.uniform(0.02, 0.98)), float(rng.uniform(0.05, 2.0))
        pb = Problem(X, 'rbf', g, nu)
        write_libsvm(data, X, np.ones(n))
        S, a, rho, P, lb, ex, _ = train(pb, ['-e', '1e-9'])
        f = pb.margins(S, a) - rho
        out_rows, nsv = int((f < -1e-7 * abs(rho)).sum()), int((a > 0).sum())
        frac_lo = int((f <= 1e-7 * abs(rho)).sum())  # at or beyond the boundary
        report(ex == 'converged' and out_rows <= nu * n <= nsv and nu * n <= frac_lo,
               'random %d (n %d, d %d, nu %.3f, gamma %.3f): outside %d <= nu n %.1f <= SVs %d, at or outside %d '
               '(exit %s)' % (t, n, d, nu, g, out_rows, nu * n, nsv, frac_lo, ex))
        pred = run([nesvm, 'predict', data, model, os.path.join(tmp, 'o.txt')]).stdout
        labels = np.loadtxt(os.path.join(tmp, 'o.txt'))
        report(int((labels < 0).sum()) >= out_rows and np.all(((labels > 0) == (f > 0)) | (np.abs(f) <= 1e-7 * abs(rho))),
               'random %d: predict gives +1 exactly where f > 0 (to the solver\'s accuracy)' % t)

    # ---- 3. closed forms
    n = len(Xh)
    write_libsvm(data, Xh, yh)
    pb = Problem(Xh, 'rbf', 1.0 / 13, 1.0)
    S, a, rho, _, lb, ex, fields = train(pb)
    P = float(fields['primal'])
    K1 = pb.k(Xh, Xh).sum(1)
    report(len(a) == n and np.all(a == 1) and abs(rho - K1.max()) <= 1e-12 * K1.max() and
           abs(P + 0.5 * K1.sum()) <= 1e-12 * K1.sum(),
           'nu = 1: every a_i = 1 (%d of %d), rho = max (K 1)_i = %.12g (%.12g), P = -1/2 1\'K 1 = %.12g (%.12g)' %
           (int((a == 1).sum()), n, K1.max(), rho, -0.5 * K1.sum(), P))
    X3 = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    write_libsvm(data, X3, np.ones(3))
    pb = Problem(X3, 'linear', 0, 0.2)
    S, w, rho, P, lb, ex, _ = train(pb, ['-e', '1e-12'])
    report(np.allclose(w, [0.3, 0.3], rtol=0, atol=1e-9) and abs(rho - 0.3) <= 1e-9,
           'nu n = 0.6 < 1, linear, (1,0), (0,1), (2,2): w %s = (0.3, 0.3), rho %.12g = 0.3' % (w, rho))
    run([nesvm, 'predict', '--decision-values', data, model, os.path.join(tmp, 'o.txt')])
    dv = np.loadtxt(os.path.join(tmp, 'o.txt'))
    report(np.allclose(dv[:, 1], [0, 0, 0.9], atol=1e-9) and dv[2, 0] == 1,
           'the three points\' decision values %s = (0, 0, 0.9)' % dv[:, 1])
    X2 = np.array([[0.0, 0.0], [1.0, 1.0]])
    write_libsvm(data, X2, np.ones(2))
    pb = Problem(X2, 'rbf', 0.5, 0.3)
    S, a, rho, P, lb, ex, _ = train(pb, ['-e', '1e-12'])
    k12, s = np.exp(-0.5 * 2.0), 0.6
    report(np.allclose(a, [0.3, 0.3], rtol=0, atol=1e-9) and abs(rho - 0.3 * (1 + k12)) <= 1e-9 and
           abs(P + 0.5 * (s / 2) ** 2 * (2 + 2 * k12)) <= 1e-9,
           'nu n = 0.6 < 1, rbf, two points: a %s = (0.3, 0.3), rho %.12g = %.12g' % (a, rho, 0.3 * (1 + k12)))
    write_libsvm(data, Xh, yh)
    res = []
    for nu in (0.001, 0.002):
        pb = Problem(Xh, 'rbf', 1.0 / 13, nu)
        res.append(train(pb, ['-e', '1e-10']) + (pb,))
    (S1, a1, r1, P1, lb1, *_r), (S2, a2, r2, P2, lb2, *_s) = res[0][:6], res[1][:6]
    pb = res[1][-1]
    dw = np.sqrt(max(pb.dist2(S2, a2, S1, 2 * a1), 0)) / np.sqrt(pb.wnorm2(S2, a2))
    report(dw <= 1e-4 and abs(r2 - 2 * r1) <= 1e-6 * r2 and abs(P2 - 4 * P1) <= 1e-8 * abs(P2),
           'nu n < 1 on heart_scale: nu 0.002 is twice nu 0.001 (||w2 - 2 w1|| / ||w2|| %.2g, rho %.10g vs %.10g, '
           'P %.10g vs 4 x %.10g)' % (dw, r2, 2 * r1, P2, P1))

    # ---- 4. sample weights: a weight of 2 is the row repeated
    Xw = Xh[:120]
    write_libsvm(data, Xw, yh[:120])
    with open(wfile, 'w') as f:
        f.write(''.join('%d\n' % (2 if i < 15 else 1) for i in range(120)))
    pw = Problem(Xw, 'rbf', 1.0 / 13, 0.3, np.where(np.arange(120) < 15, 2.0, 1.0))
    S, a, rho, P, lb, ex, _ = train(pw, ['-e', '1e-10', '-W', wfile])
    Xr = np.vstack([Xw, Xw[:15]])
    rep = os.path.join(tmp, 'rep.txt')
    write_libsvm(rep, Xr, np.ones(135))
    pr = Problem(Xr, 'rbf', 1.0 / 13, 0.3)
    Sr, ar, rhor, Pr, lbr, exr, _ = train(pr, ['-e', '1e-10'], path=rep)
    report(abs(P - Pr) <= 1e-8 * abs(Pr) and abs(pw.primal(S, a, rho) - P) <= 1e-8 * abs(P) and a.max() <= 2 and
           abs(rho - rhor) <= 1e-5 * rhor,
           'weights: 15 rows of weight 2 = those rows twice (P %.12g vs %.12g, rho %.10g vs %.10g)' % (P, Pr, rho, rhor))

    # ---- 5. predict's lines against svm-predict and scikit-learn
    write_libsvm(data, Xh, yh)
    pb = Problem(Xh, 'rbf', 1.0 / 13, 0.3)
    S, a, rho, *_ = train(pb, ['-e', '1e-8'])
    out = run([nesvm, 'predict', '--decision-values', data, model, os.path.join(tmp, 'o.txt')]).stdout
    dv = np.loadtxt(os.path.join(tmp, 'o.txt'))
    run([nesvm, 'export', '--format', 'libsvm', model, peer])
    sp = run(['svm-predict', data, peer, os.path.join(tmp, 'l.txt')]).stdout
    auc = float(re.search(r'ROC AUC = (\S+)', out).group(1))
    report(out.splitlines()[0] == sp.strip() and abs(auc - roc_auc_score(yh > 0, dv[:, 1])) <= 1e-6 and
           np.allclose(dv[:, 1], pb.margins(S, a) - rho, rtol=0, atol=1e-9 * rho),
           'predict: svm-predict\'s line (%s) and ROC AUC %g = scikit-learn\'s' % (sp.strip(), auc))

    # ---- 6. bad input
    for nu in ('0', '1.5', '-0.1', 'nan'):
        if os.path.exists(model):
            os.unlink(model)
        p = run([nesvm, 'train', '-s', '2', '-n', nu, data, model], check=False)
        report(p.returncode == 2 and "invalid value '%s' for svm_nu: expected a number in (0, 1]" % nu in p.stderr and
               'infeasible' in p.stderr and not os.path.exists(model),
               '-n %s refused (exit %d): %s' % (nu, p.returncode, p.stderr.strip().splitlines()[0]))
    run([nesvm, 'train', '-q', '-t', 'rbf', data, model])
    plain = open(model).read()
    p = run([nesvm, 'train', '-q', '-t', 'rbf', '-n', '0.2', data, model])
    given = open(model).read().replace('param svm_nu 0.2\n', '')  # (a given option is recorded)
    report('-n/--svm-nu is ignored here (solver nesvm): it applies to --svm-type one-class' in p.stderr and
           given == plain, '-n on a C-SVM: warned, and the same model')
    refusals = [(['--method', 'newton'], 'the one-class SVM is solved exactly by the kernel SMO'),
                (['--basis', '50'], 'the one-class SVM trains on the full kernel, not a reduced basis'),
                (['--solver', 'hyperpass'], 'solver hyperpass has no one-class SVM model'),
                (['-t', 'sigmoid'], 'with it, the one-class SVM is not convex'),
                (['-b', '1'], 'probability estimates (-b 1) are for classifiers'),
                (['-w1', '2'], 'class weights (-w1) are a classifier\'s'),
                (['--loss', 'squared_hinge'], '--svm-type one-class is the hinge loss')]
    run([nesvm, 'train', '-q', '-s', '2', data, peer])  # a linear one-class model: w
    refusals.append((['-t', 'linear', '--init', peer], 'warm starts (--init) are for models trained on their weights'))
    for extra, msg in refusals:
        if os.path.exists(model):
            os.unlink(model)
        kern_opt = [] if '-t' in extra else ['-t', 'rbf']
        p = run([nesvm, 'train', '-s', '2'] + kern_opt + extra + [data, model], check=False)
        report(p.returncode != 0 and msg in p.stderr and not os.path.exists(model),
               'one-class with %s refused: %s' % (' '.join(extra), p.stderr.strip().splitlines()[0]))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
