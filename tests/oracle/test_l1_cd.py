#!/usr/bin/python3
"""Oracle test for NESVM's L1 method `--method cd` (issue 34): proximal Newton
with coordinate descent over the features on the exact problem

    ||w||_1 + sum_i c_i l(r_i)

for the squared hinge (LIBLINEAR's -s 5), the logistic loss (-s 6) and the
square (the lasso of the +-1 targets), each with nesvm's free bias or none.

Truths:
  * LIBLINEAR (no bias): liblinear-train -s 5 / -s 6 at -e 1e-10 on the same
    file, its objective recomputed with numpy from its model file; nesvm's
    certified optimum must be as good (1e-8 relative) and its zeros exactly
    LIBLINEAR's, on dense data (heart_scale) and on a sparse set of 1,000
    features (CSR), read in double and in float (the values are multiples of
    1/64, so the float copy is the same problem);
  * scikit-learn (free bias): LogisticRegression(penalty='l1', solver='saga')
    and Lasso, whose intercepts are unpenalized as nesvm's bias, at tight
    tolerances: objectives within 1e-6 relative;
  * the certificate: every model converged at -e 1e-8, its objective
    recomputed from the model file equal to the reported primal, and the
    smoothed Newton method (--method newton, another algorithm) certified on
    the same problem within the two gaps;
  * method auto picks cd for these problems (the same model file bit for
    bit), two runs give the same file, a C search (-C, warm starts) certifies
    every C, and the refusals of --method cd (the L2 norm, the hinge, a full
    kernel, a joint multiclass problem) exit 1.

    test_l1_cd.py NESVM_BINARY
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.linear_model import Lasso, LogisticRegression

from test_liblinear_flag import read_libsvm  # this folder's oracles' helpers
from test_regression import write_libsvm

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'


def run(cmd, code=0):
    """cmd's process, which must exit with code (test_regression's run takes exit 0 only)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != code:
        sys.exit('%s: exit %d (expected %d)\n%s%s' % (' '.join(cmd), p.returncode, code, p.stdout, p.stderr))
    return p


def nesvm_model(path, d):
    """Labels, w, b and the submodel line's (exit, primal, gap) of a binary model."""
    lines = open(path).read().split('\n')
    labels = [float(v) for v in [ln for ln in lines if ln.startswith('labels ')][0].split()[1:]]
    sub = [ln.split() for ln in lines if ln.startswith('submodel ')][0]
    info = (sub[sub.index('exit') + 1], float(sub[sub.index('primal') + 1]), float(sub[sub.index('gap') + 1]))
    b = float([ln for ln in lines if ln.startswith('b ')][0].split()[1])
    k = lines.index('w')
    w = np.array([float(v) for v in lines[k + 1:k + 1 + d]])
    return labels, w, b, info


def liblinear_w(path, d):
    lines = open(path).read().split('\n')
    labels = [float(v) for v in [ln for ln in lines if ln.startswith('label ')][0].split()[1:]]
    k = lines.index('w')
    w = np.array([float(v) for v in lines[k + 1:k + 1 + d]])
    return labels, w


def objective(loss, X, yy, w, b, C):
    m = X @ w + b
    if loss == 'logistic':
        return np.abs(w).sum() + C * np.logaddexp(0, -yy * m).sum()
    if loss == 'squared_hinge':
        return np.abs(w).sum() + C * (np.maximum(0, 1 - yy * m) ** 2).sum()
    return np.abs(w).sum() + C * ((yy - m) ** 2).sum()


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    # a sparse set: 3,000 rows, 1,000 features, 1% of them non-zero, multiples
    # of 1/64 (exact in float); 20 features carry the labels.  More rows than
    # features: with fewer, the squared hinge's optimum is not unique (600 x
    # 2,000: LIBLINEAR's and nesvm's optima had 423 and 438 non-zeros, equal
    # objectives)
    rng = np.random.RandomState(7)
    n, d = 3000, 1000
    Xs = np.where(rng.rand(n, d) < 0.01, np.round(rng.randn(n, d) * 32) / 64, 0.0)
    truth = np.zeros(d)
    truth[rng.choice(d, 20, replace=False)] = rng.randn(20) * 3
    ys = np.where(Xs @ truth + 0.3 * rng.randn(n) > 0, 1.0, -1.0)
    sparse_path = os.path.join(tmp, 'sparse.txt')
    write_libsvm(sparse_path, Xs, ys)
    sets = [('heart_scale', HEART, read_libsvm(HEART), ()), ('sparse csr', sparse_path, (Xs, ys), ()),
            ('sparse float', sparse_path, (Xs, ys), ('--float',))]
    model, peer = os.path.join(tmp, 'm.model'), os.path.join(tmp, 'p.model')

    # 1. LIBLINEAR's problems without a bias
    for name, path, (X, y), read in sets:
        for t, loss in ((5, 'squared_hinge'), (6, 'logistic')):
            for C in (0.1, 1.0, 10.0):
                tag = '--liblinear %d -c %g on %s' % (t, C, name)
                run([nesvm, 'train', '-q', *read, '--liblinear', str(t), '--method', 'cd', '-c', str(C),
                     '-e', '1e-8', path, model])
                run(['liblinear-train', '-q', '-s', str(t), '-c', str(C), '-e', '1e-10', path, peer])
                labels, w, b, (ex, pn, gap) = nesvm_model(model, X.shape[1])
                ll_labels, wl = liblinear_w(peer, X.shape[1])
                yy = np.where(y == labels[0], 1.0, -1.0)
                pl = objective(loss, X, np.where(y == ll_labels[0], 1.0, -1.0), wl, 0.0, C)
                pm = objective(loss, X, yy, w, b, C)
                report(ex == 'converged' and gap <= 1e-8 and b == 0.0,
                       '%s: converged, gap %.2g <= 1e-8, no bias (b = %g)' % (tag, gap, b))
                report(abs(pm - pn) <= 1e-10 * pn, '%s: the model file\'s objective %.12g = the reported %.12g'
                       % (tag, pm, pn))
                report(pn <= pl * (1 + 1e-8), '%s: nesvm P = %.12g <= LIBLINEAR\'s %.12g (1e-8)' % (tag, pn, pl))
                sign = 1.0 if labels[0] == ll_labels[0] else -1.0
                same = ((w != 0) == (wl != 0)).all()
                report(same, '%s: zeros exactly LIBLINEAR\'s (%d and %d non-zero of %d)'
                       % (tag, (w != 0).sum(), (wl != 0).sum(), len(w)))
                report(np.abs(w - sign * wl).max() <= 1e-3 * max(1.0, np.abs(wl).max()),
                       '%s: weights LIBLINEAR\'s (largest difference %.2g)' % (tag, np.abs(w - sign * wl).max()))

    # 2. the free bias against scikit-learn, and against the smoothed Newton method
    X, y = read_libsvm(HEART)
    for loss, svm in (('logistic', 'logistic'), ('squared_hinge', 'c'), ('squared', 'c')):
        for C in (0.05, 1.0):
            tag = '%s, L1, free bias, C = %g' % (loss, C)
            base = ['train', '-q', '--svm-type', svm, '--penalty', 'l1', '-c', str(C)]
            if svm == 'c':
                base += ['--loss', loss]
            run([nesvm, *base, '-e', '1e-8', '--method', 'cd', HEART, model])
            labels, w, b, (ex, pn, gap) = nesvm_model(model, X.shape[1])
            yy = np.where(y == labels[0], 1.0, -1.0)
            pm = objective(loss, X, yy, w, b, C)
            report(ex == 'converged' and abs(pm - pn) <= 1e-10 * pn,
                   '%s: converged (gap %.2g), the file\'s objective %.12g = the reported %.12g' % (tag, gap, pm, pn))
            auto, again = os.path.join(tmp, 'auto.model'), os.path.join(tmp, 'again.model')
            run([nesvm, *base, '-e', '1e-8', HEART, auto])
            # the same file but for the option's line ("param method cd")
            strip = lambda f: [ln for ln in open(f) if ln != 'param method cd\n']
            report(strip(auto) == strip(model), '%s: --method auto gives the same model' % tag)
            run([nesvm, *base, '-e', '1e-8', HEART, again])
            report(open(auto).read() == open(again).read(), '%s: a second run gives the same file' % tag)
            newton = os.path.join(tmp, 'newton.model')
            run([nesvm, *base, '-e', '1e-7', '--method', 'newton', HEART, newton])
            _, wn, bn, (exn, pnn, gapn) = nesvm_model(newton, X.shape[1])
            report(exn == 'converged' and abs(pn - pnn) <= (gap + gapn) * pn + 1e-12,
                   '%s: --method newton certifies %.12g (gap %.2g), cd %.12g' % (tag, pnn, gapn, pn))
            if loss == 'logistic':
                sk = LogisticRegression(penalty='l1', C=C, solver='saga', tol=1e-12, max_iter=200000).fit(X, yy)
                ps = objective(loss, X, yy, sk.coef_[0], sk.intercept_[0], C)
            elif loss == 'squared':
                # Lasso: 1/(2n) ||y - Xw - b||^2 + alpha ||w||_1, alpha = 1 / (2 n C)
                sk = Lasso(alpha=1.0 / (2 * len(yy) * C), tol=1e-14, max_iter=1000000).fit(X, yy)
                ps = objective(loss, X, yy, sk.coef_, sk.intercept_, C)
            else:
                continue
            report(pn <= ps * (1 + 1e-6) and ps <= pn * (1 + 1e-6),
                   '%s: scikit-learn\'s objective %.12g, nesvm %.12g (1e-6)' % (tag, ps, pn))

    # 3. a C search (warm starts from the previous C): no warning (an
    # uncertified training warns), and the best C's accuracy that of a cold
    # cross-validation at that C (the same folds)
    p = run([nesvm, 'train', '--liblinear', '6', '-C', '-e', '1e-6', sparse_path])
    best = [ln for ln in p.stdout.split('\n') if ln.startswith('Best C = ')]
    report(len(best) == 1 and 'warning' not in p.stderr, 'the C search: %s, no warning' % (best or ['no best C']))
    if best:
        c, acc = best[0].split()[3], best[0].split('=')[2].strip()
        cv = run([nesvm, 'train', '--liblinear', '6', '-v', '5', '-c', c, '-e', '1e-6', sparse_path]).stdout
        report('Cross Validation Accuracy = %s' % acc in cv, 'the best C %s: -v 5 gives %s too (%s)'
               % (c, acc, cv.strip().split('\n')[-1]))

    # 4. refusals
    for args in (['--method', 'cd', HEART], ['--method', 'cd', '--penalty', 'l1', '--loss', 'hinge', HEART],
                 ['--method', 'cd', '-t', 'rbf', HEART]):
        p = run([nesvm, 'train', '-q', *args, model], code=1)
        report('--method cd' in p.stderr, 'train %s: refused (%s)' % (' '.join(args[:-1]), p.stderr.strip()))

    print('# %d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
