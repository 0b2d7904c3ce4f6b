#!/usr/bin/python3
"""Kernel epsilon-SVR on Friedman #1 (issue 32's kernel benchmark): nesvm
against LIBSVM's svm-train -s 3 on the same problem, one thread.

    svr_kernel.py NESVM_BINARY WORKDIR [ROWS ...]   (default rows: 5000 20000)

Data: scikit-learn's make_friedman1(n, n_features=10, noise=1.0,
random_state=0) for training, 5,000 test rows with random_state=1, written
in LIBSVM's format with repr() of each double.  Problem: RBF, gamma 0.1,
C 1, p 0.1 (LIBSVM's -g 0.1 -c 1 -p 0.1).  Runs, one at a time, each three
times (the median time and its RSS reported):

  nesvm train -s 3 -p 0.1 -t 2 -g 0.1 -c 1 --threads 1 (its default, -e 1e-3:
      the certified relative duality gap; the working set);
  nesvm ... --method newton (the operator path, for reference; once);
  svm-train -s 3 -p 0.1 -t 2 -g 0.1 -c 1 -m 1000 (LIBSVM's -e 1e-3 on its
      own stopping rule, a 1,000 MB kernel cache);

with OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1, timed by /usr/bin/time (the
whole process: reading included) with its peak RSS (%M).  Test MSE from
`nesvm predict` and svm-predict on the test rows.  Prints a markdown table.
"""
import os
import re
import statistics
import subprocess
import sys

from sklearn.datasets import make_friedman1


def write(path, X, y):
    with open(path, 'w') as f:
        for row, t in zip(X, y):
            f.write(repr(float(t)) + ' ' + ' '.join('%d:%r' % (j + 1, float(v)) for j, v in enumerate(row)) + '\n')


def timed(args, env):
    r = subprocess.run(['/usr/bin/time', '-f', 'TIME %e %M'] + args, capture_output=True, text=True, env=env,
                       check=True)
    m = re.search(r'TIME (\S+) (\d+)', r.stderr)
    return float(m.group(1)), int(m.group(2)) / 1024.0, r.stdout


def mse(out):
    return float(re.search(r'Mean squared error = (\S+)', out).group(1))


def main():
    nesvm, work = sys.argv[1], sys.argv[2]
    sizes = [int(a) for a in sys.argv[3:]] or [5000, 20000]
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
    test = os.path.join(work, 'fr_test.txt')
    X, y = make_friedman1(5000, n_features=10, noise=1.0, random_state=1)
    write(test, X, y)
    prob = ['-s', '3', '-p', '0.1', '-t', '2', '-g', '0.1', '-c', '1']
    rows = []
    for n in sizes:
        train = os.path.join(work, 'fr%d.txt' % n)
        X, y = make_friedman1(n, n_features=10, noise=1.0, random_state=0)
        write(train, X, y)
        nm, lm, pred = (os.path.join(work, s) for s in ('n.model', 'l.model', 'pred.txt'))
        runs = {}
        for name, args in (('nesvm', [nesvm, 'train'] + prob + ['--threads', '1', train, nm]),
                           ('libsvm', ['svm-train'] + prob + ['-m', '1000', train, lm])):
            ts = [timed(args, env) for _ in range(3)]
            k = sorted(range(3), key=lambda i: ts[i][0])[1]
            runs[name] = ts[k]
        t_n, m_n, out = runs["nesvm"]  # (every run writes the same model: deterministic)
        t_l, m_l, out_l = runs['libsvm']
        gap = re.search(r'relative gap (\S+),', out).group(1)
        rounds = re.search(r'working set \((\d+) rounds?\)', out).group(1)
        evals = int(re.search(r'kernel evaluations (\d+)', out).group(1))
        mse_n = mse(subprocess.run([nesvm, 'predict', test, nm, pred], capture_output=True, text=True,
                                   check=True).stdout)
        mse_l = mse(subprocess.run(['svm-predict', test, lm, pred], capture_output=True, text=True,
                                   check=True).stdout)
        obj = re.search(r'obj = (\S+),', out_l).group(1)
        old = os.path.join(work, 'old.model')
        t_old, m_old, _ = timed([nesvm, 'train'] + prob + ['--threads', '1', '--method', 'newton', train, old], env)
        rows.append((n, t_n, m_n, t_l, m_l, t_n / t_l, mse_n, mse_l, mse_n / mse_l, gap, rounds, evals, obj,
                     t_old, m_old))
    print('| rows | nesvm s | nesvm MB | LIBSVM s | LIBSVM MB | time ratio | test MSE nesvm | LIBSVM | MSE ratio | '
          'nesvm gap | rounds | kernel values | LIBSVM obj | --method newton s | MB |')
    print('|' + '---|' * 15)
    for r in rows:
        print('| %d | %.2f | %.0f | %.2f | %.0f | %.2f | %.4f | %.4f | %.4f | %s | %s | %.3g | %s | %.2f | %.0f |' % r)


if __name__ == '__main__':
    main()
