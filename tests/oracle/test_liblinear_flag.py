#!/usr/bin/python3
"""Oracle test for `--liblinear N` (issue 32): nesvm train with LIBLINEAR's
numbering solves liblinear-train -s N's problem, its bias convention included
(no bias unless -B B > 0, then a feature B regularized with w) and its
one-vs-rest for several classes.

For each N in 0, 1, 2, 3, 5, 6, 7 (heart_scale, and wine's 3 classes scaled to
[-1, 1]) and 11, 12, 13 (diabetes, targets / 100), without -B and with -B 1,
LIBLINEAR's regularized bias (NESVM's problem on the rows [x_i, B] for every
N: --bias-mode regularized), both tools
train at C = 0.5 to a tight tolerance;
LIBLINEAR's objective is recomputed here with numpy from its model file (every
class's one-vs-rest problem), and nesvm's reported optimum (every submodel's
primal, its certified point) must be as good (within 1e-6 relative), its
certified lower bound below it (weak duality), and both within 1e-3 (LIBLINEAR's
dual methods, -s 1/3/12/13, stop at 1000 passes, short of -e):

  -s 0/7   1/2 ||z||^2 + C sum_i log(1 + exp(-y_i z.x_i))
  -s 5     ||z||_1 + C sum_i max(0, 1 - y_i z.x_i)^2
  -s 6     ||z||_1 + C sum_i log(1 + exp(-y_i z.x_i))
  -s 1/2   1/2 ||z||^2 + C sum_i max(0, 1 - y_i z.x_i)^2
  -s 3     1/2 ||z||^2 + C sum_i max(0, 1 - y_i z.x_i)
  -s 11/12 1/2 ||w||^2 + C sum_i max(0, |y_i - w.x_i| - p)^2
  -s 13    1/2 ||w||^2 + C sum_i max(0, |y_i - w.x_i| - p)

(z = [w, v] and x_i = [x_i, B] with -B B > 0).  For a binary model the
objective is also recomputed from nesvm's own model file (= its reported P).
The model says one-vs-rest for several classes.  For the
L1 norm (-s 5, 6) the non-zero weights, the bias feature's included, are
LIBLINEAR's.  The types nesvm lacks (21) and conflicting options are refused
with exit 2 (-s 4, Crammer and Singer's, is oracle_joint's).

    test_liblinear_flag.py NESVM_BINARY
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_diabetes, load_wine

from test_regression import run, write_libsvm  # the regression oracle's helpers (this folder)
from test_svr import model_w_b

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'


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


def liblinear_weights(path, d):
    """LIBLINEAR's model: labels, W (rows: features then the bias feature's
    weight when bias > 0; columns: one per class, or one for two classes), B."""
    lines = open(path).read().split('\n')
    k = lines.index('w')
    head = dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())
    W = np.array([[float(v) for v in ln.split()] for ln in lines[k + 1:] if ln.strip()])
    B = float(head.get('bias', '-1'))
    labels = [float(v) for v in head['label'].split()] if 'label' in head else []
    return labels, W, B


def objective(kind, X, y, z, B, C, p):
    Z = np.hstack([X, np.full((X.shape[0], 1), B)]) if B > 0 else X
    f = Z @ z
    if kind == 'sq1':  # the L1-regularized squared hinge (-s 5)
        r = np.maximum(1 - y * f, 0)
        return np.abs(z).sum() + C * (r * r).sum()
    if kind == 'logistic1':  # the L1-regularized logistic regression (-s 6)
        return np.abs(z).sum() + C * np.logaddexp(0, -y * f).sum()
    if kind == 'sq':
        r = np.maximum(1 - y * f, 0)
        return 0.5 * z @ z + C * (r * r).sum()
    if kind == 'hinge':
        return 0.5 * z @ z + C * np.maximum(1 - y * f, 0).sum()
    if kind == 'logistic':
        return 0.5 * z @ z + C * np.logaddexp(0, -y * f).sum()
    r = np.maximum(np.abs(y - f) - p, 0)
    return 0.5 * z @ z + C * ((r * r).sum() if kind == 'sqtube' else r.sum())


def close(pn, gap, pt):
    """nesvm's certified P (relative gap gap) against the peer's P: as good
    (within 1e-6), its lower bound P (1 - gap) one (weak duality), and both near
    (LIBLINEAR's dual methods stop at 1000 passes short of 1e-6)."""
    return pn <= pt * (1 + 1e-6) and pn * (1 - gap) <= pt * (1 + 1e-12) and abs(pn - pt) <= 1e-3 * pt


def nesvm_weights(path, d, B=0.0):
    """Each sub-model's positive class index and weight vector (linear models),
    with the bias feature's weight b / B appended when B > 0."""
    lines = open(path).read().split('\n')
    out, pos, b = [], None, 0.0
    for i, ln in enumerate(lines):
        if ln.startswith('submodel '):
            t = ln.split()
            pos = int(t[t.index('pos') + 1])
        elif ln.startswith('b '):
            b = float(ln.split()[1])
        elif ln == 'w':
            w = np.array([float(v) for v in lines[i + 1:i + 1 + d]])
            out.append((pos, np.append(w, b / B) if B > 0 else w))
    return out


def submodel_primals(path):
    out = []
    for ln in open(path).read().split('\n'):
        if ln.startswith('submodel '):
            t = ln.split()
            f = dict(zip(t[2::2], t[3::2]))
            out.append((f['exit'], float(f['primal']), float(f['gap'])))
    return out


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

    wine = load_wine()
    Xw = wine.data
    Xw = 2 * (Xw - Xw.min(0)) / (Xw.max(0) - Xw.min(0)) - 1
    wine_path = os.path.join(tmp, 'wine.txt')
    write_libsvm(wine_path, Xw, wine.target + 1.0)
    dia = load_diabetes()
    Xd = dia.data
    Xd = 2 * (Xd - Xd.min(0)) / (Xd.max(0) - Xd.min(0)) - 1
    dia_path = os.path.join(tmp, 'diabetes.txt')
    write_libsvm(dia_path, Xd, dia.target / 100.0)
    C, p = 0.5, 0.1
    cases = []
    for path in (HEART, wine_path):
        for t, kind in ((1, 'sq'), (2, 'sq'), (3, 'hinge')):
            cases += [(path, t, kind, bias) for bias in ((), ('-B', '1'))]
        # logistic regression, -s 7 being LIBLINEAR's dual method for -s 0's
        # problem, and the L1-regularized squared hinge and logistic regression
        for t, kind in ((0, 'logistic'), (7, 'logistic'), (5, 'sq1'), (6, 'logistic1')):
            cases += [(path, t, kind, bias) for bias in ((), ('-B', '1'))]
    for t, kind in ((11, 'sqtube'), (12, 'sqtube'), (13, 'tube')):
        cases += [(dia_path, t, kind, bias) for bias in ((), ('-B', '1'))]

    for path, t, kind, bias in cases:
        X, y = read_libsvm(path)
        d = X.shape[1]
        tag = '--liblinear %d %s on %s' % (t, ' '.join(bias), os.path.basename(path))
        # the L1 norm's Huber continuation certifies to about 1e-7 (its last
        # stages stall below that: wine's -s 5 at 1.2e-7 and 1.9e-7): 1e-6,
        # the distance to the optimum
        l1 = kind in ('sq1', 'logistic1')
        run([nesvm, 'train', '-q', '--liblinear', str(t), *bias, '-c', str(C), '-p', str(p),
             '-e', '1e-8' if l1 else '1e-10', path, model])
        run(['liblinear-train', '-q', '-s', str(t), *bias, '-c', str(C), '-p', str(p), '-e', '1e-10', path, peer])
        labels, W, B = liblinear_weights(peer, d)
        ours = submodel_primals(model)
        if kind in ('sqtube', 'tube'):
            theirs = [objective(kind, X, y, W[:, 0], B, C, p)]
        else:
            # one-vs-rest: class k against the rest (two classes: the first label is +1)
            cols = range(W.shape[1]) if W.shape[1] > 1 else [0]
            theirs = [objective(kind, X, np.where(y == labels[k], 1.0, -1.0), W[:, k], B, C, p) for k in cols]
        report(len(ours) == len(theirs) and all(o[0] == 'converged' for o in ours),
               '%s: %d converged submodels (%s)' % (tag, len(theirs), ours))
        # the classes' problems in each tool's order of classes: matched by value
        for k, (pt, (pn, gap)) in enumerate(zip(sorted(theirs), sorted((pn, g) for _, pn, g in ours))):
            report(close(pn, gap, pt), '%s, problem %d: nesvm P = %.10g (gap %.2g), LIBLINEAR P = %.10g'
                   % (tag, k, pn, gap, pt))
        if l1:
            # the sparsity pattern: exact zeros where LIBLINEAR's are, per class
            # (matched by the classes' labels; two classes: the first label's model)
            nl = [float(v) for v in [ln for ln in open(model) if ln.startswith('labels ')][0].split()[1:]]
            wn = nesvm_weights(model, d, B)
            for k in range(W.shape[1]):
                col = [s for s in range(len(wn)) if nl[wn[s][0]] == labels[k]] if W.shape[1] > 1 else [0]
                same = len(col) == 1 and ((wn[col[0]][1] != 0) == (W[:, k] != 0)).all()
                report(same, '%s, class %g: non-zero weights %s where LIBLINEAR\'s are (%d of %d)'
                       % (tag, labels[k], 'exactly' if same else 'NOT', (W[:, k] != 0).sum(), W.shape[0]))
        if len(theirs) > 1:
            head = open(model).read().split('\n')
            report('multiclass ovr' in head and all(' neg -1 ' in ln for ln in head if ln.startswith('submodel ')),
                   '%s: one-vs-rest, as LIBLINEAR' % tag)
        if len(ours) == 1:
            # nesvm's own model: its w and b give the same objective (a regularized
            # feature B: the bias weight v = b / B)
            w, b = model_w_b(model, d)
            Bb = float(bias[1]) if bias else 0.0
            z = np.append(w, b / Bb) if Bb > 0 else w
            if kind not in ('sqtube', 'tube'):
                yy = np.where(y == labels[0], 1.0, -1.0)
                # nesvm's model is of its first label (the file's first); LIBLINEAR's too
                pm = min(objective(kind, X, yy, z, Bb, C, p), objective(kind, X, -yy, z, Bb, C, p))
            else:
                report(Bb or abs(b) == 0.0, '%s: no bias (LIBLINEAR has none without -B): b = %g' % (tag, b))
                pm = objective(kind, X, y, z, Bb, C, p)
            report(abs(pm - ours[0][1]) <= 1e-9 * pm and close(pm, ours[0][2], theirs[0]),
                   '%s: objective of nesvm\'s model file %.10g = %.10g' % (tag, pm, theirs[0]))

    # a C search with LIBLINEAR's bias (the problem's own C, as liblinear-train
    # -C -B prints it): the best C's score that of a cross-validation at that C
    # (the same folds), and no warning (an uncertified training warns)
    for t, path, what in (('2', HEART, 'Cross Validation Accuracy'), ('11', dia_path, 'Cross Validation Mean squared error')):
        r = subprocess.run([nesvm, 'train', '--liblinear', t, '-B', '1', '-C', '-e', '1e-6', path], capture_output=True,
                           text=True, cwd=tmp)
        best = [ln for ln in r.stdout.split('\n') if ln.startswith('Best C = ')]
        report(r.returncode == 0 and len(best) == 1 and 'warning' not in r.stderr,
               '--liblinear %s -B 1 -C: %s, no warning' % (t, best or [r.stderr.strip()]))
        if best:
            f = best[0].split()
            c, pp = f[3], (['-p', f[7]] if f[4:6] == ['Best', 'p'] else [])  # SVR: "Best C = c Best p = p ..."
            score = best[0].split('=')[-1].strip().split()[0]
            cv = subprocess.run([nesvm, 'train', '--liblinear', t, '-B', '1', '-v', '5', '-c', c, *pp, '-e', '1e-6',
                                 path], capture_output=True, text=True, cwd=tmp).stdout
            got = [ln for ln in cv.split('\n') if ln.startswith(what)]
            report(len(got) == 1 and score in got[0], '--liblinear %s -B 1: the best C %s, -v 5 gives %s too (%s)'
                   % (t, c, score, got))

    # refusals: LIBLINEAR's types nesvm lacks, no such type, a second spelling
    # of the problem, grid
    refusals = [(['train', '--liblinear', '5', '--penalty', 'l1', HEART], 'drop -s, --svm-type, --solver, --loss, '
                 '--penalty and --bias-mode'),
                (['train', '--liblinear', '0', '-B', '1', '--bias-mode', 'free', HEART], 'and --bias-mode'),

                (['train', '--liblinear', '4', '--solver', 'hyperpass', HEART], 'drop -s, --svm-type'),
                (['train', '--liblinear', '21', HEART], 'one-class'),
                (['cv', '--liblinear', '9', HEART], 'LIBLINEAR has no -s 9'),
                (['train', '--liblinear', 'x', HEART], "bad value 'x' for --liblinear"),
                (['train', '--liblinear', '2', '--solver', 'hyperpass', HEART], 'drop -s, --svm-type'),
                (['train', '-s', '3', '--liblinear', '13', HEART], 'drop -s, --svm-type'),
                (['grid', '--liblinear', '2', HEART], 'for nesvm train and cv')]
    # the library's refusals of --bias-mode (exit 1: an error of the training, not of the command line)
    lib_refusals = [(['train', '--solver', 'hyperpass', '-B', '1', '--bias-mode', 'free', HEART],
                     "hyperpass's bias is a constant feature B regularized with w"),
                    (['train', '--liblinear', '4', '-B', '1', '--bias-mode', 'free', HEART], 'drop -s'),
                    (['train', '--multiclass', 'cs', '-B', '1', '--bias-mode', 'free', HEART],
                     "--multiclass cs's bias is a constant feature B"),
                    (['train', '--svm-type', 'logistic', '--multiclass', 'multinomial', '--bias-mode', 'regularized',
                      HEART], 'multinomial has free intercepts'),
                    (['train', '-t', '2', '--bias-mode', 'regularized', HEART], "a full kernel's expansion has a "
                     "free bias")]
    for args, want in refusals + lib_refusals:
        r = subprocess.run([nesvm, *args, os.path.join(tmp, 'never.model')] if args[0] == 'train' and '-C' not in args
                           else [nesvm, *args], capture_output=True, text=True, cwd=tmp)
        code = 1 if (args, want) in lib_refusals and '--liblinear' not in args else 2
        report(r.returncode == code and want in r.stderr and not os.path.exists(os.path.join(tmp, 'never.model')),
               'refused (exit %d): %s: %s' % (r.returncode, ' '.join(args[:-1]), r.stderr.strip().split('\n')[0]))

    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
