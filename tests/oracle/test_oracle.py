#!/usr/bin/python3
"""Oracle test: nesvm's linear C-SVM (hinge + L2, free bias) against LIBSVM.

Both tools solve  min 1/2||w||^2 + sum_i C_i max(0, 1 - y_i (w.x_i + b)).
nesvm runs with Newton, Nesterov (adaptive restart, the default) and Nesterov
with --restart 0 (the paper's plain Algorithm 1 in each stage).
For each dataset and C, LIBSVM (svm-train -t 0 -e 1e-6) gives a near-optimal
model; this script rebuilds w, b from each model file and evaluates the primal
itself (libsvm_primal.py), then checks
  - nesvm's primal is within 1e-3 relative of LIBSVM's;
  - nesvm's certificate holds: its reported lower bound, primal*(1 - gap),
    is not above LIBSVM's primal (which is >= the optimum).

    test_oracle.py NESVM_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libsvm_primal as lp  # noqa: E402
import numpy as np  # noqa: E402


def primal(data, model, C, weights):
    y_raw, rows = lp.read_libsvm(data)
    d = max((max(r) for r in rows if r), default=0)
    X = lp.dense(rows, d)
    w, b, labels = lp.model_w_b(model, d)
    y = np.where(y_raw == labels[0], 1.0, -1.0)
    Ci = np.array([C * weights.get(l, 1.0) for l in y_raw])
    return 0.5 * w @ w + np.sum(Ci * np.maximum(0.0, 1.0 - y * (X @ w + b)))


def main():
    nesvm, src = sys.argv[1], sys.argv[2]
    datasets = ['/usr/share/doc/liblinear-tools/examples/heart_scale',
                os.path.join(src, 'tests/data/breast_cancer_scale')]
    passed = failed = 0
    tmp = tempfile.mkdtemp()
    cases = [(d, C, {}) for d in datasets for C in (0.1, 1.0, 10.0)]
    cases.append((datasets[0], 1.0, {1.0: 2.0}))  # per-class weight -w1 2
    cases.append((datasets[1], 0.5, {-1.0: 3.0}))
    for data, C, weights in cases:
        name = '%s C=%g w=%s' % (os.path.basename(data), C, weights)
        wopts = []
        for lab, wt in weights.items():
            wopts += ['-w%g' % lab, '%g' % wt]
        lmodel = os.path.join(tmp, 'l.model')
        nmodel = os.path.join(tmp, 'n.model')
        subprocess.run(['svm-train', '-q', '-t', '0', '-c', '%g' % C, '-e', '1e-6'] + wopts
                       + [data, lmodel], check=True)
        p_l = primal(data, lmodel, C, weights)
        for method in (['--method', 'newton'], ['--method', 'newton', '--threads', '2'],
                       ['--method', 'nesterov', '--max-iter', '1000000'],
                       ['--method', 'nesterov', '--restart', '0', '--max-iter', '1000000']):
            out = subprocess.run([nesvm, 'train', '-c', '%g' % C, '-e', '1e-4'] + method + wopts
                                 + [data, nmodel], check=True, capture_output=True,
                                 text=True).stdout
            gap = float(re.search(r'relative gap ([0-9.e+-]+)', out).group(1))
            p_n = primal(data, nmodel, C, weights)
            rel = abs(p_n - p_l) / p_l
            lower = p_n * (1 - gap)
            # certified gap 1e-4 plus LIBSVM's own inaccuracy at -e 1e-6
            ok = rel <= 2e-4 and lower <= p_l * (1 + 1e-9) and gap <= 1e-4
            print('%s - %s %s: nesvm %.10g libsvm %.10g rel %.2e gap %.2e'
                  % ('ok' if ok else 'not ok', name, ' '.join(method), p_n, p_l, rel, gap))
            passed += ok
            failed += not ok
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
