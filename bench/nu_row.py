#!/usr/bin/python3
"""Issue 33's benchmark rows: the one-class SVM, nu-SVC and precomputed kernels
against LIBSVM on the same problems, one thread, in one run.

    nu_row.py NESVM_BINARY WORKDIR [--rows oneclass,nusvc,precomputed] [--runs K] [--out bench/nu-run]

Data from bench/data (bench/lib/datasets.py prepares it):
  oneclass     Fashion-MNIST: the 6,000 training T-shirts (class 0) to train,
               the 10,000 official test images to score (T-shirt +1, the other
               nine classes -1); RBF gamma 0.02, nu 0.1 (LIBSVM -s 2 -n 0.1 -g 0.02).
               Score: the ROC AUC of the test decision values (nesvm's from
               `nesvm predict`; LIBSVM's recomputed with numpy from its model
               file, sum_i coef_i K(sv_i, x) - rho, svm-predict printing no
               decision values for -s 2).
  nusvc        Fashion-MNIST T-shirt vs Shirt (12,000 / 2,000 rows), RBF gamma 0.02,
               nu 0.3 (svm-train -s 1 -n 0.3 -g 0.02); test accuracy.
  precomputed  scikit-learn's digits (1,347 / 450 rows, 10 classes): the RBF
               matrix (gamma 0.02) computed by numpy and written as LIBSVM's -t 4
               files (17 digits), C = 10: nesvm -t 4 against nesvm -t 2 (the same
               model: the largest difference of the test decision values) and
               against LIBSVM -t 4 and -t 2 (test accuracy).
Each run once per --runs (default 3), the median wall time (whole process,
reading included, /usr/bin/time) and its peak RSS; OPENBLAS_NUM_THREADS=1
OMP_NUM_THREADS=1, nesvm --threads 1, LIBSVM -m 1000 (a 1,000 MB cache).
nesvm stops at its default certified relative gap 1e-3, LIBSVM at its default
-e 1e-3 on its own rule.  Prints a markdown table.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file
from sklearn.metrics import roc_auc_score

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.datasets import Data  # noqa: E402

ENV = dict(os.environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
GAMMA = 0.02


def timed(args):
    r = subprocess.run(['/usr/bin/time', '-f', 'TIME %e %M'] + args, capture_output=True, text=True, env=ENV)
    if r.returncode != 0:
        raise RuntimeError('%s failed: %s' % (' '.join(args), r.stderr[-400:]))
    m = re.search(r'TIME (\S+) (\d+)', r.stderr)
    return float(m.group(1)), int(m.group(2)) / 1024.0, r.stdout + r.stderr


def median_run(args, runs):
    out = [timed(args) for _ in range(runs)]
    t = statistics.median(o[0] for o in out)
    return t, max(o[1] for o in out), out[-1][2]


def run(args):
    return subprocess.run(args, capture_output=True, text=True, env=ENV, check=True).stdout


def write_rows(path, X, y):
    with open(path, 'w') as f:
        for i in range(X.shape[0]):
            if sp.issparse(X):
                idx, val = X[i].indices, X[i].data
            else:
                idx = np.flatnonzero(X[i])
                val = X[i][idx]
            f.write('%.17g ' % y[i] + ' '.join('%d:%.17g' % (j + 1, v) for j, v in zip(idx, val)) + '\n')


def write_pc(path, K, y, serial):
    with open(path, 'w') as f:
        for i in range(K.shape[0]):
            f.write('%.17g 0:%d ' % (y[i], serial(i)) + ' '.join('%d:%.17g' % (j + 1, v) for j, v in
                                                                 enumerate(K[i])) + '\n')


def rbf(A, B, g):
    A = A.toarray() if hasattr(A, 'toarray') else A
    B = B.toarray() if hasattr(B, 'toarray') else B
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-g * np.maximum(d2, 0))


def libsvm_decision(model, X, d):
    """A LIBSVM binary model's decision values sum coef K(sv, x) - rho (RBF)."""
    with open(model) as f:
        lines = f.read().splitlines()
    k = lines.index('SV')
    head = dict(l.split(' ', 1) for l in lines[:k])
    g, rho = float(head['gamma']), float(head['rho'])
    coef, sv = [], np.zeros((len(lines) - k - 1, d))
    for r, l in enumerate(lines[k + 1:]):
        parts = l.split()
        coef.append(float(parts[0]))
        for p in parts[1:]:
            j, v = p.split(':')
            sv[r, int(j) - 1] = float(v)
    coef = np.array(coef)
    out = np.empty(X.shape[0])
    for s in range(0, X.shape[0], 1000):
        out[s:s + 1000] = rbf(X[s:s + 1000], sv, g) @ coef - rho
    return out


def gap_of(text):
    m = re.search(r'relative gap (\S+),', text)
    return m.group(1) if m else '?'


def row_oneclass(nesvm, work, data, runs):
    data.ensure('fmnist-all')
    Xtr, ytr = load_svmlight_file(data.path('fmnist-all', 'train'), n_features=784)
    Xte, yte = load_svmlight_file(data.path('fmnist-all', 'test'), n_features=784)
    tr, te = os.path.join(work, 'oc_train.svm'), os.path.join(work, 'oc_test.svm')
    keep = np.flatnonzero(ytr == 0)
    if not os.path.exists(te):
        write_rows(tr, Xtr[keep], np.ones(keep.size))
        write_rows(te, Xte, np.where(yte == 0, 1.0, -1.0))
    prob = ['-s', '2', '-n', '0.1', '-t', '2', '-g', str(GAMMA)]
    nm, lm = os.path.join(work, 'oc.nesvm'), os.path.join(work, 'oc.libsvm')
    nt, nr, nout = median_run([nesvm, 'train', '--threads', '1'] + prob + [tr, nm], runs)
    lt, lr, _ = median_run(['svm-train', '-m', '1000'] + prob + [tr, lm], runs)
    pred = run([nesvm, 'predict', te, nm])
    nauc = float(re.search(r'ROC AUC = (\S+)', pred).group(1))
    ldec = libsvm_decision(lm, Xte, 784)
    lauc = roc_auc_score(np.where(yte == 0, 1, -1), ldec)
    nsv = re.search(r'support vectors (\d+)', nout).group(1)
    lsv = re.search(r'total_sv (\d+)', open(lm).read()).group(1)
    return [('one-class RBF, Fashion-MNIST T-shirts (6,000), nu 0.1, gamma 0.02',
             nt, nr, lt, lr, 'ROC AUC %.4f (LIBSVM %.4f, %+.4f); SVs %s (%s); gap %s' %
             (nauc, lauc, nauc - lauc, nsv, lsv, gap_of(nout)))]


def row_nusvc(nesvm, work, data, runs):
    data.ensure('fmnist-tshirt-shirt')
    tr, te = data.path('fmnist-tshirt-shirt', 'train'), data.path('fmnist-tshirt-shirt', 'test')
    prob = ['-s', '1', '-n', '0.3', '-t', '2', '-g', str(GAMMA)]
    nm, lm = os.path.join(work, 'nu.nesvm'), os.path.join(work, 'nu.libsvm')
    nt, nr, nout = median_run([nesvm, 'train', '--threads', '1'] + prob + [tr, nm], runs)
    lt, lr, _ = median_run(['svm-train', '-m', '1000'] + prob + [tr, lm], runs)
    nacc = re.search(r'Accuracy = (\S+)%', run([nesvm, 'predict', te, nm])).group(1)
    lacc = re.search(r'Accuracy = (\S+)%', run(['svm-predict', te, lm, os.path.join(work, 'nu.out')])).group(1)
    return [('nu-SVC RBF, T-shirt vs Shirt (12,000), nu 0.3, gamma 0.02', nt, nr, lt, lr,
             'test accuracy %s%% (LIBSVM %s%%); gap %s' % (nacc, lacc, gap_of(nout)))]


def row_precomputed(nesvm, work, data, runs):
    data.ensure('digits')
    Xtr, ytr = load_svmlight_file(data.path('digits', 'train'), n_features=64)
    Xte, yte = load_svmlight_file(data.path('digits', 'test'), n_features=64)
    Xtr, Xte = Xtr.toarray(), Xte.toarray()
    p = {k: os.path.join(work, 'dg_' + k) for k in ('tr4', 'te4', 'tr', 'te', 'm4', 'm2', 'l4', 'l2', 'o')}
    write_pc(p['tr4'], rbf(Xtr, Xtr, GAMMA), ytr, lambda i: i + 1)
    write_pc(p['te4'], rbf(Xte, Xtr, GAMMA), yte, lambda i: 0)
    write_rows(p['tr'], Xtr, ytr)
    write_rows(p['te'], Xte, yte)
    c = ['-c', '10']
    n4 = median_run([nesvm, 'train', '--threads', '1', '-t', '4'] + c + [p['tr4'], p['m4']], runs)
    n2 = median_run([nesvm, 'train', '--threads', '1', '-t', '2', '-g', str(GAMMA)] + c + [p['tr'], p['m2']], runs)
    l4 = median_run(['svm-train', '-m', '1000', '-t', '4'] + c + [p['tr4'], p['l4']], runs)
    l2 = median_run(['svm-train', '-m', '1000', '-t', '2', '-g', str(GAMMA)] + c + [p['tr'], p['l2']], runs)
    run([nesvm, 'predict', '-q', '--decision-values', p['te4'], p['m4'], p['o'] + '4'])
    run([nesvm, 'predict', '-q', '--decision-values', p['te'], p['m2'], p['o'] + '2'])
    d4, d2 = np.loadtxt(p['o'] + '4'), np.loadtxt(p['o'] + '2')
    acc = lambda d: 100.0 * np.mean(d[:, 0] == yte)  # noqa: E731
    la = [re.search(r'Accuracy = (\S+)%', run(['svm-predict', te, m, p['o']])).group(1)
          for te, m in ((p['te4'], p['l4']), (p['te'], p['l2']))]
    same = np.abs(d4[:, 1:] - d2[:, 1:]).max()
    return [('precomputed RBF (-t 4), digits (1,347, 10 classes), C 10, gamma 0.02, against LIBSVM -t 4',
             n4[0], n4[1], l4[0], l4[1], 'test accuracy %.2f%% (LIBSVM -t 4 %s%%); gap %s' %
             (acc(d4), la[0], gap_of(n4[2]))),
            ('the same with the kernel computed (-t 2), against LIBSVM -t 2', n2[0], n2[1], l2[0], l2[1],
             'test accuracy %.2f%% (LIBSVM %s%%); -t 4 and -t 2 decision values differ by at most %.1e' %
             (acc(d2), la[1], same))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('nesvm')
    ap.add_argument('work')
    ap.add_argument('--rows', default='oneclass,nusvc,precomputed')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--out', help='also write the table, with the run\'s context, to OUT/RESULTS.md '
                                  '(rows of an earlier RESULTS.md there that this run does not redo are kept)')
    a = ap.parse_args()
    start = subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()
    os.makedirs(a.work, exist_ok=True)
    data = Data(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data'))
    rows = []
    for name in a.rows.split(','):
        rows += {'oneclass': row_oneclass, 'nusvc': row_nusvc, 'precomputed': row_precomputed}[name](
            os.path.abspath(a.nesvm), a.work, data, a.runs)
    lines = ['| %s | %.2f | %.0f | %.2f | %.0f | %.2fx | %s |' % (case, nt, nr, lt, lr, nt / lt, note)
             for case, nt, nr, lt, lr, note in rows]
    head = ['| case | nesvm s | nesvm MB | LIBSVM s | LIBSVM MB | time ratio | notes |', '|---|---|---|---|---|---|---|']
    print('\n'.join(head + lines))
    if a.out:
        write_results(a, rows, lines, start)


def write_results(a, rows, lines, start):
    """OUT/RESULTS.md: the run's context and table; an earlier file's rows of other cases kept."""
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, 'RESULTS.md')
    old, runs = [], []
    if os.path.exists(path):
        done = {r[0] for r in rows}
        prev = open(path).read().splitlines()
        old = [l for l in prev if l.startswith('| ') and not l.startswith('| case') and l.split(' | ')[0][2:] not in done]
        runs = [l for l in prev if l.startswith('- run: ')] if old else []
    git = subprocess.run(['git', '-C', os.path.dirname(os.path.abspath(__file__)), 'rev-parse', '--short', 'HEAD'],
                         capture_output=True, text=True).stdout.strip()
    ver = subprocess.run(['dpkg-query', '-W', '-f', '${Package} ${Version}', 'libsvm-tools'], capture_output=True,
                         text=True).stdout.strip()
    end = subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()
    text = ['# Issue 33\'s rows: the one-class SVM, nu-SVC and precomputed kernels against LIBSVM', '',
            'Produced by `bench/nu_row.py` (method in its docstring; do not edit by hand). Runs:', ''] + runs + [
            '- run: rows %s, --runs %d, nesvm commit %s, %s. `uptime` at the start: `%s`; at the end: `%s`.' %
            (a.rows, a.runs, git, ver, start, end), '',
            'Times: process wall seconds, reading included, one thread, the median of the runs; memory: peak RSS.',
            '', '| case | nesvm s | nesvm MB | LIBSVM s | LIBSVM MB | time ratio | notes |',
            '|---|---|---|---|---|---|---|'] + old + lines
    with open(path + '.tmp', 'w') as f:
        f.write('\n'.join(text) + '\n')
    os.replace(path + '.tmp', path)


if __name__ == '__main__':
    main()
