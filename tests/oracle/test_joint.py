#!/usr/bin/python3
"""Oracle test for the joint multiclass problems (issue 34's WP "joint
problems"; src/solvers/nesvm/multi.h states them), every objective recomputed
here with numpy from the model files:

  - Crammer and Singer (--multiclass cs, --liblinear 4; by the dual method,
    auto's choice, and by NESVM's smoothed max, --method newton)
        P(W) = 1/2 sum_m ||w_m||^2 + sum_i C_i max_m (1 - delta_{m,y_i} + f_m(x_i) - f_{y_i}(x_i))
    against liblinear-train -s 4 -e 1e-8 on iris, wine, breast cancer (two
    classes), heart_scale and a generated 5-class set (scaled to [-1, 1]),
    with class weights (-wL W on both) and LIBLINEAR's -B 1 (a constant
    feature regularized with W): nesvm's P <= LIBLINEAR's P (1 + 1e-6) and
    nesvm's certified lower bound <= LIBLINEAR's P; the model exported as
    MCSVM_CS gives liblinear-predict nesvm's predictions exactly, and
    LIBLINEAR's own model imported gives nesvm predict liblinear-predict's;
    --liblinear 4 is --multiclass cs -B 0;
  - the multinomial logistic regression (--svm-type logistic --multiclass
    multinomial)
        P(W, b) = 1/2 sum_m ||w_m||^2 + sum_i C_i [log sum_m exp(f_m(x_i)) - f_{y_i}(x_i)]
    against scikit-learn's LogisticRegression(multi_class='multinomial',
    solver='newton-cg', tol=1e-10) with its free intercepts, class weights,
    sample weights and fit_intercept=False (-B 0): nesvm's P <= scikit-learn's
    P (1 + 1e-9), its lower bound <= scikit-learn's P, W within the strong
    convexity bound, predict -b 1's probabilities (softmax, rows summing to 1)
    those of predict_proba; two classes: the binary logistic regression at
    2 C (w_1 - w_2 its w, the same probabilities, half its objective);
  - cv, train -C and grid run on both, grid's accuracy at a C is cv's there;
  - refusals: exit code, message, no model file.

    test_joint.py NESVM_BINARY
"""
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
from scipy.special import logsumexp
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.linear_model import LogisticRegression

from test_logistic import nesvm_model, read_libsvm, run  # this folder's helpers
from test_regression import write_libsvm

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'


def scaled(X):
    lo, hi = X.min(0), X.max(0)
    return 2 * (X - lo) / np.where(hi > lo, hi - lo, 1) - 1


def five_classes(n=400, d=12, seed=3):
    """Five overlapping Gaussian classes, a third of the entries zero."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 5, n)
    centres = rng.normal(0, 1.2, (5, d))
    X = centres[y] + rng.normal(0, 1.5, (n, d))
    X[rng.random((n, d)) < 0.33] = 0
    return scaled(X), y + 1.0


def liblinear_model(path):
    """labels, bias B, W (nr_feature + (B >= 0) rows, one column per class)."""
    lines = open(path).read().split('\n')
    head, i = {}, 0
    while lines[i] != 'w':
        t = lines[i].split()
        head[t[0]] = t[1:]
        i += 1
    W = np.array([[float(v) for v in ln.split()] for ln in lines[i + 1:] if ln.strip()])
    return [float(v) for v in head['label']], float(head['bias'][0]), W, head['solver_type'][0]


def joint_weights(subs, labels, classes):
    """W (rows in `classes` order) and b of a joint model's sub-models."""
    order = [labels.index(c) for c in classes]
    by_pos = {s['pos']: s for s in subs}
    return np.array([by_pos[o]['w'] for o in order]), np.array([by_pos[o]['b'] for o in order])


def cs_primal(X, y, W, b, classes, c, B=None):
    F = X @ W.T + b
    yi = np.array([list(classes).index(v) for v in y])
    Z = 1.0 - np.eye(len(classes))[yi] + F - F[np.arange(len(y)), yi][:, None]
    P = 0.5 * np.sum(W * W) + np.sum(c * Z.max(1))
    if B:  # LIBLINEAR's bias feature B, its weight b / B regularized
        P += 0.5 * np.sum((b / B) ** 2)
    return P


def softmax_primal(X, y, W, b, classes, c):
    F = X @ W.T + b
    yi = np.array([list(classes).index(v) for v in y])
    return 0.5 * np.sum(W * W) + np.sum(c * (logsumexp(F, axis=1) - F[np.arange(len(y)), yi]))


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    os.chdir(tmp)  # the files train -C and grid write next to their data's name
    model, peer = os.path.join(tmp, 'm.model'), os.path.join(tmp, 'p.model')
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    sets = {}
    for name, loader in (('iris', load_iris), ('wine', load_wine), ('breast', load_breast_cancer)):
        data = loader()
        path = os.path.join(tmp, name + '.txt')
        write_libsvm(path, scaled(data.data), data.target + 1.0)
        sets[name] = path
    X5, y5 = five_classes()
    sets['five'] = os.path.join(tmp, 'five.txt')
    write_libsvm(sets['five'], X5, y5)
    sets['heart'] = HEART

    def predictions(path):
        return [float(ln.split()[0]) for ln in open(path) if ln.strip() and not ln.startswith('labels')]

    # ---------------------------------------- Crammer and Singer against liblinear-train -s 4
    cases = [('iris', 1.0, {}, 0, 'auto'), ('iris', 100.0, {}, 0, 'auto'), ('wine', 1.0, {}, 0, 'auto'),
             ('wine', 10.0, {2.0: 3.0}, 0, 'auto'), ('breast', 1.0, {}, 0, 'auto'), ('heart', 0.5, {}, 0, 'auto'),
             ('five', 1.0, {}, 0, 'auto'), ('five', 4.0, {1.0: 0.5, 5.0: 2.0}, 0, 'auto'), ('wine', 1.0, {}, 1, 'auto'),
             ('five', 2.0, {}, 1, 'auto'), ('heart', 1.0, {}, 1, 'auto'),
             # NESVM's smoothed max with continuation (auto: the dual method)
             ('iris', 10.0, {}, 0, 'newton'), ('wine', 1.0, {2.0: 3.0}, 1, 'newton'), ('five', 1.0, {}, 0, 'newton'),
             ('heart', 0.5, {}, 0, 'newton')]
    for name, C, cw, B, method in cases:
        path = sets[name]
        X, y = read_libsvm(path)
        classes = list(dict.fromkeys(y))  # first appearance: both tools' label order
        tag = 'cs %s C=%g%s%s --method %s' % (name, C, ' weights %s' % cw if cw else '', ' -B %d' % B if B else '',
                                             method)
        wargs = []
        for lab, wt in cw.items():
            wargs += ['-w%g' % lab, str(wt)]
        run([nesvm, 'train', '-q', '--multiclass', 'cs', '--method', method, '-c', str(C), '-e', '1e-9']
            + (['-B', str(B)] if B else []) + wargs + [path, model])
        run(['liblinear-train', '-q', '-s', '4', '-c', str(C), '-e', '1e-8', '-B', str(B) if B else '-1']
            + wargs + [path, peer])
        labels, subs, _ = nesvm_model(model, X.shape[1])
        W, b = joint_weights(subs, labels, classes)
        c = C * np.array([cw.get(v, 1.0) for v in y])
        Pn = cs_primal(X, y, W, b, classes, c, B)
        llab, lB, LW, solver = liblinear_model(peer)
        d = X.shape[1]
        order = [llab.index(v) for v in classes]
        Wl = LW[:d, order].T
        bl = lB * LW[d, order] if lB > 0 else np.zeros(len(classes))
        Pl = cs_primal(X, y, Wl, bl, classes, c, B)
        s = subs[0]
        lower = s['primal'] * (1 - s['gap'])
        report(all(t['exit'] == 'converged' and t['primal'] == s['primal'] for t in subs) and len(subs) == len(classes),
               '%s: one converged joint training, a sub-model per class (%d)' % (tag, len(subs)))
        report(abs(Pn - s['primal']) <= 1e-10 * Pn, '%s: the file\'s P %.12g recomputed %.12g' % (tag, s['primal'], Pn))
        report(Pn <= Pl * (1 + 1e-6) and lower <= Pl * (1 + 1e-12),
               '%s: nesvm P %.12g (lower %.12g) vs liblinear -s 4 P %.12g' % (tag, Pn, lower, Pl))
        # the model as LIBLINEAR's MCSVM_CS: liblinear-predict's labels are nesvm's
        exp_path = os.path.join(tmp, 'exported.model')
        run([nesvm, 'export', '--format', 'liblinear', model, exp_path])
        elab, eB, EW, esolver = liblinear_model(exp_path)
        run(['liblinear-predict', '-q', path, exp_path, os.path.join(tmp, 'll.pred')])
        run([nesvm, 'predict', path, model, os.path.join(tmp, 'nv.pred')])
        same = predictions(os.path.join(tmp, 'll.pred')) == predictions(os.path.join(tmp, 'nv.pred'))
        report(esolver == 'MCSVM_CS' and EW.shape[1] == len(classes) and same,
               '%s: exported as %s with %d columns, liblinear-predict = nesvm predict' % (tag, esolver, EW.shape[1]))
        # LIBLINEAR's own model imported: nesvm predict = liblinear-predict
        imp = os.path.join(tmp, 'imported.model')
        run([nesvm, 'import', peer, imp])
        run(['liblinear-predict', '-q', path, peer, os.path.join(tmp, 'll2.pred')])
        run([nesvm, 'predict', path, imp, os.path.join(tmp, 'nv2.pred')])
        ihead = open(imp).read()
        report(predictions(os.path.join(tmp, 'll2.pred')) == predictions(os.path.join(tmp, 'nv2.pred'))
               and 'multiclass cs' in ihead and 'problem crammer_singer_svm_hinge_l2' in ihead,
               '%s: LIBLINEAR\'s model imported (multiclass cs) predicts as liblinear-predict' % tag)

    # --liblinear 4 is Crammer and Singer without a bias, LIBLINEAR's C
    path = sets['wine']
    run([nesvm, 'train', '-q', '--liblinear', '4', '-c', '3', '-e', '1e-9', path, model])
    run([nesvm, 'train', '-q', '--multiclass', 'cs', '-B', '0', '-c', '3', '-e', '1e-9', path, peer])
    a = [ln for ln in open(model) if not ln.startswith('param')]
    b_ = [ln for ln in open(peer) if not ln.startswith('param')]
    report(a == b_, '--liblinear 4 -c 3 trains --multiclass cs -B 0 -c 3\'s model')

    # ---------------------------------------- multinomial against scikit-learn
    cases = [('iris', 1.0, {}, None, True), ('wine', 2.0, {}, None, True), ('five', 0.5, {}, None, True),
             ('five', 10.0, {2.0: 3.0}, None, True), ('wine', 1.0, {}, 'W', True), ('iris', 5.0, {}, None, False),
             ('breast', 1.0, {}, None, True)]
    for name, C, cw, sw, fit_b in cases:
        path = sets[name]
        X, y = read_libsvm(path)
        classes = sorted(set(y))
        tag = 'multinomial %s C=%g%s%s%s' % (name, C, ' weights %s' % cw if cw else '', ' sample weights' if sw else '',
                                             '' if fit_b else ' -B 0')
        args = [nesvm, 'train', '-q', '--svm-type', 'logistic', '--multiclass', 'multinomial', '-c', str(C), '-e',
                '1e-11'] + ([] if fit_b else ['-B', '0'])
        for lab, wt in cw.items():
            args += ['-w%g' % lab, str(wt)]
        swv = None
        if sw:
            swv = np.random.default_rng(5).uniform(0.2, 3.0, len(y))
            wpath = os.path.join(tmp, 'weights.txt')
            with open(wpath, 'w') as f:
                f.write(''.join('%.17g\n' % v for v in swv))
            args += ['-W', wpath]
        run(args + [path, model])
        labels, subs, _ = nesvm_model(model, X.shape[1])
        W, b = joint_weights(subs, labels, classes)
        c = C * np.array([cw.get(v, 1.0) for v in y]) * (swv if swv is not None else 1.0)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            sk = LogisticRegression(C=C, multi_class='multinomial', solver='newton-cg', tol=1e-10, max_iter=10000,
                                    fit_intercept=fit_b, class_weight=cw or None).fit(X, y, sample_weight=swv)
        Wsk, bsk = sk.coef_, sk.intercept_ if fit_b else np.zeros(len(classes))
        if len(classes) == 2:  # scikit-learn keeps one row, w_2 - w_1's half each way
            Wsk = np.vstack([-Wsk[0] / 2, Wsk[0] / 2])
            bsk = np.array([-bsk[0] / 2, bsk[0] / 2]) if fit_b else np.zeros(2)
        Pn = softmax_primal(X, y, W, b, classes, c)
        Ps = softmax_primal(X, y, Wsk, bsk, classes, c)
        s = subs[0]
        lower = s['primal'] * (1 - s['gap'])
        report(all(t['exit'] == 'converged' for t in subs) and len(subs) == len(classes),
               '%s: converged, a sub-model per class' % tag)
        report(abs(Pn - s['primal']) <= 1e-10 * Pn, '%s: the file\'s P %.12g recomputed %.12g' % (tag, s['primal'], Pn))
        report(Pn <= Ps * (1 + 1e-9) and lower <= Ps * (1 + 1e-12),
               '%s: nesvm P %.14g (lower %.14g) vs scikit-learn P %.14g' % (tag, Pn, lower, Ps))
        # 1/2 ||W - W*||^2 <= P(W, b) - P* (P is 1-strongly convex in W); each
        # P known to its evaluation's rounding, 1e-13 P over these sums
        rnd = 1e-13 * Pn
        bound = np.sqrt(2 * (max(Pn - lower, 0) + rnd)) + np.sqrt(2 * (max(Ps - lower, 0) + rnd))
        dist = np.linalg.norm(W - Wsk)
        report(dist <= bound, '%s: ||W - W_sk|| %.3g within %.3g' % (tag, dist, bound))
        report(abs(np.sum(b)) <= 1e-10 * (1 + np.abs(b).max()), '%s: the biases sum to 0 (%.3g)' % (tag, np.sum(b)))
        # predict -b 1: the softmax, without -b 1 at training
        out = os.path.join(tmp, 'proba.out')
        run([nesvm, 'predict', '-b', '1', path, model, out])
        lines = open(out).read().split('\n')
        plab = [float(v) for v in lines[0].split()[1:]]
        Pr = np.array([[float(v) for v in ln.split()[1:]] for ln in lines[1:] if ln.strip()])
        pred = np.array([float(ln.split()[0]) for ln in lines[1:] if ln.strip()])
        Pr = Pr[:, [plab.index(v) for v in sk.classes_]]
        F = X @ W.T + b
        mine = np.exp(F - logsumexp(F, axis=1)[:, None])
        report(np.abs(Pr.sum(1) - 1).max() <= 1e-12 and np.abs(Pr - mine).max() <= 1e-12,
               '%s: predict -b 1 is the softmax of the decision values, rows sum to 1' % tag)
        err = np.abs(Pr - sk.predict_proba(X)).max()
        report(err <= 1e-6, '%s: probabilities within %.2g of predict_proba' % (tag, err))
        report(np.all(pred == np.array(sk.classes_)[Pr.argmax(1)]), '%s: the label is the most probable class' % tag)

    # two classes: the binary logistic regression at 2 C (w = w_1 - w_2)
    for C in (0.5, 4.0):
        run([nesvm, 'train', '-q', '--svm-type', 'logistic', '--multiclass', 'multinomial', '-c', str(C), '-e', '1e-12',
             HEART, model])
        run([nesvm, 'train', '-q', '--svm-type', 'logistic', '-c', str(2 * C), '-e', '1e-12', HEART, peer])
        outs = []
        for m in (model, peer):
            out = os.path.join(tmp, os.path.basename(m) + '.p')
            run([nesvm, 'predict', '-b', '1', HEART, m, out])
            outs.append(np.array([[float(v) for v in ln.split()[1:]] for ln in open(out).read().split('\n')[1:] if ln.strip()]))
        _, s2, _ = nesvm_model(model, 13)
        _, s1, _ = nesvm_model(peer, 13)
        report(abs(s2[0]['primal'] - s1[0]['primal'] / 2) <= 1e-9 * s2[0]['primal'] and
               np.abs(outs[0] - outs[1]).max() <= 1e-7,
               'multinomial heart C=%g: half the binary logistic regression\'s P at 2C (%.12g, %.12g), its '
               'probabilities (%.2g)' % (C, s2[0]['primal'], s1[0]['primal'] / 2, np.abs(outs[0] - outs[1]).max()))

    # ---------------------------------------- cv, train -C, grid
    for opts, tag in ((['--multiclass', 'cs'], 'cs'), (['--svm-type', 'logistic', '--multiclass', 'multinomial'],
                                                       'multinomial')):
        path = sets['wine']
        r = run([nesvm, 'cv', '-v', '5', '-c', '0.25', '-e', '1e-9'] + opts + [path])
        acc = float(r.stdout.strip().split('=')[-1].rstrip('%'))
        g = run([nesvm, 'grid', '-log2c', '-4,0,2', '-e', '1e-9', '--out', os.path.join(tmp, tag + '.csv')] + opts
                + [path])
        r2 = run([nesvm, 'train', '-C', '-e', '1e-9'] + opts + [path])
        gacc = None
        for ln in (g.stdout + g.stderr).split('\n'):
            t = ln.split()  # "log2c -2: 98.3146% (best: ...)"
            if len(t) > 2 and t[0] == 'log2c' and t[1] == '-2:':
                gacc = float(t[2].rstrip('%'))
        report(acc > 90 and 'Best C' in r2.stdout + r2.stderr,
               '%s: cv -c 0.25 accuracy %.4g%%, train -C: %s' % (tag, acc, (r2.stdout + r2.stderr).strip().split('\n')[-1]))
        report(gacc is not None and abs(gacc - acc) < 1e-9,
               '%s: grid\'s accuracy at log2c -2 (%s, warm along C) is cv\'s at C 0.25 (%.6g)' % (tag, gacc, acc))

    # ---------------------------------------- refusals
    never = os.path.join(tmp, 'never.model')
    refusals = [(['--multiclass', 'cs', '--svm-type', 'lp'], 1, 'it takes --svm-type c'),
                (['--multiclass', 'multinomial'], 1, 'it takes --svm-type logistic'),
                (['--multiclass', 'cs', '--solver', 'hyperpass'], 1, 'trains binary problems only'),
                (['--multiclass', 'cs', '-t', 'rbf'], 1, 'trains linear models only'),
                (['--multiclass', 'cs', '--method', 'nesterov'], 1, 'not --method nesterov'),
                (['--svm-type', 'logistic', '--multiclass', 'multinomial', '--method', 'dcd'], 1,
                 "Newton's method only"),
                (['--multiclass', 'cs', '--method', 'dcd', '--mu', '0.1'], 1, 'not a fixed smoothing'),
                (['--multiclass', 'cs', '--loss', 'squared_hinge'], 1, 'has its own loss'),
                (['--svm-type', 'logistic', '--multiclass', 'multinomial', '--checkpoint', os.path.join(tmp, 'ck')], 1,
                 'checkpoints are not written'),
                (['--multiclass', 'crammer'], 2, 'expected ovo, ovr, cs or multinomial')]
    for extra, rc, want in refusals:
        if os.path.exists(never):
            os.remove(never)  # one refusal's stray model does not fail the next
        r = run([nesvm, 'train'] + extra + [sets['wine'], never], check=False)
        report(r.returncode == rc and want in r.stderr and not os.path.exists(never),
               'refused (exit %d): %s: %s' % (r.returncode, ' '.join(extra), r.stderr.strip().split('\n')[-1]))
    run([nesvm, 'train', '-q', '--svm-type', 'logistic', '--multiclass', 'multinomial', sets['wine'], model])
    r = run([nesvm, 'export', '--format', 'liblinear', model, never], check=False)
    report(r.returncode == 1 and 'no multinomial logistic regression' in r.stderr and not os.path.exists(never),
           'export of a multinomial model for LIBLINEAR refused (exit %d)' % r.returncode)

    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
