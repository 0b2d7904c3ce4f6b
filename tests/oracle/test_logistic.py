#!/usr/bin/python3
"""Oracle test for logistic regression (issue 34; --svm-type logistic, the
logistic loss of src/solvers/loss/logistic.c under NESVM's Newton method):

    P(w, b) = 1/2 ||w||^2 + sum_i C_i log(1 + exp(-y_i (w.x_i + b)))

with a free bias (nesvm's default, scikit-learn's unpenalized intercept) or
none (-B 0, LIBLINEAR's -s 0 without -B).  Every objective is recomputed here
with numpy from the model files:

  - against scikit-learn's LogisticRegression (lbfgs, tol 1e-12): binary
    (heart_scale, breast cancer) and one-vs-rest (wine, 3 classes) with the
    free intercept, class weights (-wL W against class_weight) and sample
    weights (-W against sample_weight): nesvm's P <= scikit-learn's P (1 +
    1e-9), its certified lower bound <= scikit-learn's P (weak duality), and
    the coefficients within the strong convexity bound ||w - w*|| <=
    sqrt(2 (P - lower)) + sqrt(2 (P_sk - lower));
  - the L1 norm (--penalty l1) with the free intercept against scikit-learn's
    saga (penalty='l1', which leaves the intercept unpenalized): P within 1e-6;
  - LIBLINEAR -s 0 -e 1e-10 -B -1 against nesvm -B 0: the same objective;
  - probabilities (predict -b 1): binary P(+) = 1 / (1 + exp(-f)) of the
    decision values recomputed from the model file; one-vs-rest each class's
    sigmoid normalized (liblinear-predict -b 1's numbers, compared); one-vs-one
    rows sum to 1 and their argmax is the predicted label;
  - the kernel problem (RBF, full expansion): P(beta, b) = 1/2 beta'K beta +
    C sum log(1 + exp(-y (K beta + b))) minimized by scipy's L-BFGS-B on
    heart_scale: nesvm's P within 1e-7 relative of scipy's, its lower bound
    below scipy's P, and its decision values near scipy's;
  - bad input: refusals of the options logistic regression does not take.

    test_logistic.py NESVM_BINARY
"""
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LogisticRegression

from test_regression import write_libsvm  # this folder's helper

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'


def run(args, check=True, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(args), r.returncode, r.stderr))
    return r


def read_libsvm(path, d=None):
    rows, y = [], []
    for ln in open(path):
        t = ln.split()
        if not t:
            continue
        y.append(float(t[0]))
        rows.append({int(a.split(':')[0]): float(a.split(':')[1]) for a in t[1:]})
    d = d or max(max(r) for r in rows if r)
    X = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for j, v in r.items():
            X[i, j - 1] = v
    return X, np.array(y)


def nesvm_model(path, d):
    """labels, and per sub-model: (pos, neg, exit, primal, gap, b, w or beta);
    the basis rows (kernel models) as a dense matrix, else None."""
    lines = open(path).read().split('\n')
    head = {}
    subs, basis = [], None
    i = 0
    while i < len(lines):
        ln = lines[i]
        t = ln.split()
        if not t:
            i += 1
            continue
        if t[0] == 'basis':
            nb = int(head['nr_basis'])
            basis = np.zeros((nb, d))
            for k in range(nb):
                for a in lines[i + 1 + k].split()[1:]:
                    j, v = a.split(':')
                    basis[k, int(j) - 1] = float(v)
            i += 1 + nb
            continue
        if t[0] == 'submodel':
            f = dict(zip(t[2::2], t[3::2]))
            subs.append({'pos': int(f['pos']), 'neg': int(f['neg']), 'exit': f['exit'],
                         'primal': float(f['primal']), 'gap': float(f['gap'])})
        elif t[0] == 'b' and subs:
            subs[-1]['b'] = float(t[1])
        elif t[0] in ('w', 'beta') and subs:
            n = basis.shape[0] if t[0] == 'beta' else d
            subs[-1]['w'] = np.array([float(v) for v in lines[i + 1:i + 1 + n]])
            i += 1 + n
            continue
        elif len(t) >= 2:
            head.setdefault(t[0], ' '.join(t[1:]))
        i += 1
    labels = [float(v) for v in head['labels'].split()]
    return labels, subs, basis


def primal(X, y, w, b, c):
    return 0.5 * w @ w + np.sum(c * np.logaddexp(0, -y * (X @ w + b)))


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    model, peer = os.path.join(tmp, 'm.model'), os.path.join(tmp, 'p.model')
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    bc = load_breast_cancer()
    Xb = bc.data
    Xb = 2 * (Xb - Xb.min(0)) / (Xb.max(0) - Xb.min(0)) - 1
    bc_path = os.path.join(tmp, 'bc.txt')
    write_libsvm(bc_path, Xb, np.where(bc.target == 1, 1.0, -1.0))
    wine = load_wine()
    Xw = wine.data
    Xw = 2 * (Xw - Xw.min(0)) / (Xw.max(0) - Xw.min(0)) - 1
    wine_path = os.path.join(tmp, 'wine.txt')
    write_libsvm(wine_path, Xw, wine.target + 1.0)

    # ---------------------------------------- scikit-learn, free intercept
    cases = [(HEART, 1.0, {}, None), (HEART, 30.0, {}, None), (bc_path, 0.5, {}, None),
             (bc_path, 4.0, {1.0: 3.0}, None), (wine_path, 2.0, {}, None), (HEART, 1.0, {}, "W")]
    for path, C, cw, sw in cases:
        X, y = read_libsvm(path)
        d = X.shape[1]
        tag = '%s C=%g%s%s' % (os.path.basename(path), C, ' class weights %s' % cw if cw else '',
                               ' sample weights' if sw else '')
        args = [nesvm, 'train', '-q', '--svm-type', 'logistic', '--multiclass', 'ovr', '-c', str(C), '-e', '1e-10']
        for lab, wt in cw.items():
            args += ['-w%g' % lab, str(wt)]
        swv = None
        if sw:
            rng = np.random.default_rng(5)
            swv = rng.uniform(0.2, 3.0, len(y))
            wpath = os.path.join(tmp, 'weights.txt')
            with open(wpath, 'w') as f:
                f.write(''.join('%.17g\n' % v for v in swv))
            args += ['-W', wpath]
        run(args + [path, model])
        labels, subs, _ = nesvm_model(model, d)
        classes = np.unique(y)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            sk = LogisticRegression(C=C, tol=1e-12, max_iter=100000, multi_class='ovr',
                                    class_weight=cw or None).fit(X, y, sample_weight=swv)
        report(all(s['exit'] == 'converged' for s in subs), '%s: every sub-model converged' % tag)
        for k, s in enumerate(subs):
            # the sub-model's positive class against the rest (two classes: one model)
            pos = labels[s['pos']]
            yy = np.where(y == pos, 1.0, -1.0)
            c = C * np.array([cw.get(v, 1.0) for v in y]) * (swv if swv is not None else 1.0)
            if len(classes) == 2:
                j = 0
                sgn = 1.0 if pos == sk.classes_[1] else -1.0
            else:
                j = list(sk.classes_).index(pos)
                sgn = 1.0
            wsk, bsk = sgn * sk.coef_[j], sgn * sk.intercept_[j]
            Pn = primal(X, yy, s['w'], s['b'], c)
            Ps = primal(X, yy, wsk, bsk, c)
            lower = s['primal'] * (1 - s['gap'])
            report(abs(Pn - s['primal']) <= 1e-10 * Pn,
                   '%s, model %d: the file\'s P %.12g recomputed %.12g' % (tag, k, s['primal'], Pn))
            report(Pn <= Ps * (1 + 1e-9) and lower <= Ps * (1 + 1e-12),
                   '%s, model %d: nesvm P %.12g (lower %.12g) vs scikit-learn P %.12g' % (tag, k, Pn, lower, Ps))
            bound = np.sqrt(2 * max(Pn - lower, 0)) + np.sqrt(2 * max(Ps - lower, 0)) + 1e-9
            dist = np.linalg.norm(np.append(s['w'] - wsk, 0))
            report(dist <= bound, '%s, model %d: ||w - w_sk|| %.3g within %.3g' % (tag, k, dist, bound))

    # ---------------------------------------- the L1 norm, free intercept: saga
    for path, C in ((HEART, 0.5), (bc_path, 2.0)):
        X, y = read_libsvm(path)
        run([nesvm, 'train', '-q', '--svm-type', 'logistic', '--penalty', 'l1', '-c', str(C), '-e', '1e-6',
             path, model])
        labels, subs, _ = nesvm_model(model, X.shape[1])
        s = subs[0]
        yy = np.where(y == labels[s['pos']], 1.0, -1.0)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            sk = LogisticRegression(penalty='l1', C=C, solver='saga', tol=1e-12, max_iter=200000).fit(X, y)
        sgn = 1.0 if labels[s['pos']] == sk.classes_[1] else -1.0
        P1 = lambda w, b: np.abs(w).sum() + C * np.logaddexp(0, -yy * (X @ w + b)).sum()
        Pn, Ps = P1(s['w'], s['b']), P1(sgn * sk.coef_[0], sgn * sk.intercept_[0])
        lower = s['primal'] * (1 - s['gap'])
        report(s['exit'] == 'converged' and abs(Pn - s['primal']) <= 1e-10 * Pn and Pn <= Ps * (1 + 1e-6)
               and lower <= Ps * (1 + 1e-12),
               '%s --penalty l1 C=%g: nesvm P %.10g (lower %.10g), saga P %.10g; non-zero weights %d, saga\'s %d'
               % (os.path.basename(path), C, Pn, lower, Ps, (s['w'] != 0).sum(), (np.abs(sk.coef_) > 1e-8).sum()))

    # ---------------------------------------- LIBLINEAR -s 0 without a bias
    for path in (HEART, bc_path):
        X, y = read_libsvm(path)
        C = 2.0
        run([nesvm, 'train', '-q', '--svm-type', 'logistic', '-B', '0', '-c', str(C), '-e', '1e-10', path, model])
        run(['liblinear-train', '-q', '-s', '0', '-c', str(C), '-e', '1e-10', '-B', '-1', path, peer])
        lines = open(peer).read().split('\n')
        wl = np.array([float(v) for v in lines[lines.index('w') + 1:] if v.strip()])
        first = float([ln for ln in lines if ln.startswith('label')][0].split()[1])
        labels, subs, _ = nesvm_model(model, X.shape[1])
        s = subs[0]
        yy = np.where(y == labels[s['pos']], 1.0, -1.0)
        sgn = 1.0 if labels[s['pos']] == first else -1.0
        Pl = primal(X, yy, sgn * wl, 0.0, C)
        Pn = primal(X, yy, s['w'], s['b'], C)
        report(s['b'] == 0.0 and Pn <= Pl * (1 + 1e-9) and s['primal'] * (1 - s['gap']) <= Pl * (1 + 1e-12),
               '%s -B 0: nesvm P %.12g (b %g), liblinear-train -s 0 P %.12g' % (os.path.basename(path), Pn,
                                                                               s['b'], Pl))

    # ---------------------------------------- probabilities
    X, y = read_libsvm(bc_path)
    run([nesvm, 'train', '-q', '--svm-type', 'logistic', '-c', '1', bc_path, model])
    out = os.path.join(tmp, 'out')
    run([nesvm, 'predict', '-b', '1', bc_path, model, out])
    labels, subs, _ = nesvm_model(model, X.shape[1])
    rows = open(out).read().split('\n')
    head = rows[0].split()[1:]
    P = np.array([[float(v) for v in r.split()[1:]] for r in rows[1:] if r.strip()])
    f = X @ subs[0]['w'] + subs[0]['b']
    ppos = P[:, head.index('%g' % labels[subs[0]['pos']])]
    report(np.max(np.abs(ppos - 1 / (1 + np.exp(-f)))) <= 1e-12,
           'binary -b 1: P(+) is the sigmoid of the decision value (max diff %.2g)'
           % np.max(np.abs(ppos - 1 / (1 + np.exp(-f)))))
    report(np.max(np.abs(P.sum(1) - 1)) <= 1e-12, 'binary -b 1: rows sum to 1')
    grep = run([nesvm, 'train', '--svm-type', 'logistic', '-b', '1', bc_path, model]).stdout
    report('Platt' not in grep and nesvm_model(model, X.shape[1])[1][0]['primal'] == subs[0]['primal'],
           'train -b 1: the same model (probabilities native, no Platt fit)')
    # one-vs-rest: liblinear-predict -b 1's numbers on LIBLINEAR's own problem
    run([nesvm, 'train', '-q', '--liblinear', '0', '-c', '1', '-e', '1e-10', wine_path, model])
    run(['liblinear-train', '-q', '-s', '0', '-c', '1', '-e', '1e-10', wine_path, peer])
    run([nesvm, 'predict', '-b', '1', wine_path, model, out])
    run(['liblinear-predict', '-b', '1', wine_path, peer, out + '.ll'])

    def probs(p):
        r = open(p).read().split('\n')
        h = [float(v) for v in r[0].split()[1:]]
        A = np.array([[float(v) for v in ln.split()[1:]] for ln in r[1:] if ln.strip()])
        return A[:, np.argsort(h)], np.array([float(ln.split()[0]) for ln in r[1:] if ln.strip()])
    Pn, ln_ = probs(out)
    Pl, ll_ = probs(out + '.ll')
    report(np.max(np.abs(Pn - Pl)) <= 1e-5 and (ln_ == ll_).all(),
           'one-vs-rest -b 1: liblinear-predict -b 1\'s probabilities (max diff %.2g, its 6 digits)'
           % np.max(np.abs(Pn - Pl)))
    run([nesvm, 'train', '-q', '--svm-type', 'logistic', '-c', '1', wine_path, model])
    run([nesvm, 'predict', '-b', '1', wine_path, model, out])
    Pn, lab = probs(out)
    classes = np.array(sorted(set(ll_)))
    report(np.max(np.abs(Pn.sum(1) - 1)) <= 1e-12 and (classes[Pn.argmax(1)] == lab).all(),
           'one-vs-one -b 1: rows sum to 1, the label their argmax')

    # ---------------------------------------- LIBLINEAR's model files both ways
    def same_predictions(path, ours, theirs, logistic):
        """nesvm predict on ours and liblinear-predict on theirs agree: the labels,
        and with logistic models the -b 1 probabilities (to liblinear's 6 digits)."""
        b = ['-b', '1'] if logistic else []
        run([nesvm, 'predict'] + b + [path, ours, out])
        run(['liblinear-predict'] + b + [path, theirs, out + '.ll'])
        if not logistic:
            return [ln.split()[0] for ln in open(out)] == [ln.split()[0] for ln in open(out + '.ll')]
        Pn, ln_ = probs(out)
        Pl, ll_ = probs(out + '.ll')
        return np.max(np.abs(Pn - Pl)) <= 1e-5 and (ln_ == ll_).all()

    for path in (HEART, wine_path):
        for opts, typ in ((['--svm-type', 'logistic', '--multiclass', 'ovr'], 'L2R_LR'),
                          (['--svm-type', 'logistic', '--penalty', 'l1', '--multiclass', 'ovr'], 'L1R_LR'),
                          (['--liblinear', '5'], 'L1R_L2LOSS_SVC')):
            tag = 'export %s of %s' % (typ, os.path.basename(path))
            run([nesvm, 'train', '-q'] + opts + [path, model])
            run([nesvm, 'export', '--format', 'liblinear', model, peer])
            head = open(peer).readline().split()
            logistic = typ != 'L1R_L2LOSS_SVC'
            same = same_predictions(path, model, peer, logistic)
            report(head == ['solver_type', typ] and same,
                   '%s: liblinear-predict %sgives nesvm\'s labels%s' % (tag, '-b 1 ' if logistic else '',
                                                                      ' and probabilities' if logistic else ''))
        # LIBLINEAR's bias feature (--liblinear N -B 2: bias_mode regularized) exported
        for s_, typ in (('0', 'L2R_LR'), ('6', 'L1R_LR'), ('5', 'L1R_L2LOSS_SVC')):
            tag = 'export --liblinear %s -B 2 of %s' % (s_, os.path.basename(path))
            run([nesvm, 'train', '-q', '--liblinear', s_, '-B', '2', path, model])
            run([nesvm, 'export', '--format', 'liblinear', model, peer])
            head = open(peer).read().split('\n')
            same = same_predictions(path, model, peer, s_ != '5')
            report(head[0].split() == ['solver_type', typ] and 'bias 2' in head and same,
                   '%s: %s, bias 2, liblinear-predict gives nesvm\'s predictions' % (tag, typ))
        for s_, typ in (('0', 'L2R_LR'), ('7', 'L2R_LR_DUAL'), ('6', 'L1R_LR'), ('5', 'L1R_L2LOSS_SVC')):
            for B in ('-1', '1', '2'):
                tag = 'import liblinear-train -s %s -B %s of %s' % (s_, B, os.path.basename(path))
                run(['liblinear-train', '-q', '-s', s_, '-B', B, path, peer])
                imp = os.path.join(tmp, 'imp.model')
                r_ = run([nesvm, 'import', peer, imp], check=False)
                if r_.returncode:
                    report(False, '%s: %s' % (tag, r_.stderr.strip()))
                    continue
                logistic = s_ != '5'
                same = same_predictions(path, imp, peer, logistic)
                # the problem LIBLINEAR's: with -B B > 0 its bias feature, regularized
                want = 'problem %s%s\n' % ('logistic_regression_logistic_l1' if s_ == '6' else
                                           'c_svm_squared_hinge_l1' if s_ == '5' else 'logistic_regression_logistic_l2',
                                           '_regularized_bias' if B != '-1' else '')
                # and back: the export's predictions liblinear-predict's of the original
                back = os.path.join(tmp, 'back.model')
                run([nesvm, 'export', '--format', 'liblinear', imp, back])
                same_back = same_predictions(path, imp, back, logistic)
                report(same and same_back and want in open(imp).read(),
                       '%s: nesvm predict%s gives liblinear-predict\'s, and of its export' % (tag, ' -b 1' if logistic else ''))

    # ---------------------------------------- the kernel problem against scipy
    X, y = read_libsvm(HEART)
    g, C = 0.2, 1.0
    run([nesvm, 'train', '-q', '--svm-type', 'logistic', '-t', '2', '-g', str(g), '-c', str(C), '-e', '1e-9',
         HEART, model])
    labels, subs, basis = nesvm_model(model, X.shape[1])
    s = subs[0]
    yy = np.where(y == labels[s['pos']], 1.0, -1.0)
    sq = (X * X).sum(1)
    K = np.exp(-g * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))

    def kp(z):
        beta, b = z[:-1], z[-1]
        m = yy * (K @ beta + b)
        sig = 0.5 * (1 - np.tanh(0.5 * m))  # 1 / (1 + exp(m)) without overflow
        Kb = K @ beta
        val = 0.5 * beta @ Kb + C * np.logaddexp(0, -m).sum()
        gb = -C * sig * yy
        return val, np.append(Kb + K @ gb, gb.sum())
    r = minimize(kp, np.zeros(len(y) + 1), jac=True, method='L-BFGS-B',
                 options={'maxiter': 100000, 'ftol': 1e-15, 'gtol': 1e-11})
    Kb = np.exp(-g * np.maximum((basis * basis).sum(1)[None, :] + sq[:, None] - 2 * X @ basis.T, 0))
    fn = Kb @ s['w'] + s['b']
    fs = K @ r.x[:-1] + r.x[-1]
    lower = s['primal'] * (1 - s['gap'])
    report(s['exit'] == 'converged' and abs(s['primal'] - r.fun) <= 1e-7 * r.fun and lower <= r.fun * (1 + 1e-12),
           'RBF kernel: nesvm P %.12g (lower %.12g), scipy L-BFGS-B P %.12g' % (s['primal'], lower, r.fun))
    report(np.max(np.abs(fn - fs)) <= 1e-3, 'RBF kernel: decision values within %.2g of scipy\'s'
           % np.max(np.abs(fn - fs)))

    # ---------------------------------------- refusals
    never = os.path.join(tmp, 'never.model')
    one = os.path.join(tmp, 'one.txt')
    with open(one, 'w') as fh:
        fh.write('1 1:0.5\n1 1:0.25\n')
    nan = os.path.join(tmp, 'nan.txt')
    with open(nan, 'w') as fh:
        fh.write('1 1:0.5\n-1 1:nan\n')
    refusals = [(['--loss', 'hinge'], 1, 'takes --svm-type c'),
                (['--svm-type', 'c', '--loss', 'logistic'], 1, "logistic regression's"),
                (['--method', 'dcd'], 1, 'not logistic regression'),
                (['-c', '0'], 2, "for c: expected"),
                (['-c', 'inf'], 2, "for c: expected")]
    for extra, rc, want in refusals:
        args = [nesvm, 'train', '--svm-type', 'logistic'] if '--svm-type' not in extra else [nesvm, 'train']
        r = run(args + extra + [HEART, never], check=False)
        report(r.returncode == rc and want in r.stderr and not os.path.exists(never),
               'refused (exit %d): %s: %s' % (r.returncode, ' '.join(extra), r.stderr.strip().split('\n')[0]))
    for path, want in ((one, 'one class'), (nan, 'nan')):
        r = run([nesvm, 'train', '--svm-type', 'logistic', path, never], check=False)
        report(r.returncode != 0 and want in r.stderr.lower() and not os.path.exists(never),
               'refused (exit %d): %s' % (r.returncode, r.stderr.strip().split('\n')[0]))

    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
