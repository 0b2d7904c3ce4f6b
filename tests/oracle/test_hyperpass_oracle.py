#!/usr/bin/python3
"""Oracle test: Hyperpass's certificate and Pegasos against LIBLINEAR -s 3.

Both solve  f(w) = lambda/2 ||w||^2 + 1/N sum_i max(0, 1 - y_i w.z_i),  i.e.
1/2 ||w||^2 + C sum_i hinge with C = 1/(lambda N)  (z_i = x_i; with -B 1,
z_i = [x_i, 1] and the bias weight regularized, LIBLINEAR's -B 1).
For each dataset and lambda, LIBLINEAR (-s 3 -c C -e 1e-6) gives two
independent bounds on the optimum P*: its printed dual objective is a lower
bound D_LL <= P*, and this script computes the primal P_LL >= P* of its model.
(When LIBLINEAR stops at its iteration limit its printed value is not a bound;
then D_LL is NESVM's certified lower bound: nesvm -B B -e 1e-10.)
Hyperpass's termination certificate  v <= P* <= P(w)  must then satisfy
  - v   <= P_LL   (its lower bound is below a primal value),
  - P_hp >= D_LL  (its primal is above a dual value),
  - P_hp - v <= eps P_hp, and P_hp <= P_LL (1 + 1e-6) (it is at least as good),
with P_hp recomputed here from nesvm's model file and equal to the reported one.
Pegasos must land within 1e-2 of P_LL with a valid lower bound.

    test_hyperpass_oracle.py NESVM_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libsvm_primal as lp  # noqa: E402
import numpy as np  # noqa: E402


def liblinear_w(path, d):
    with open(path) as f:
        lines = f.read().split('\n')
    header = {}
    i = 0
    while lines[i].strip() != 'w':
        t = lines[i].split()
        header[t[0]] = t[1:]
        i += 1
    labels = [float(x) for x in header['label']]
    nf = int(header['nr_feature'][0])
    bias = float(header['bias'][0])
    vals = [float(ln.split()[0]) for ln in lines[i + 1:] if ln.strip()]
    w = np.zeros(d)
    w[:min(d, nf)] = vals[:min(d, nf)]
    b = vals[nf] * bias if bias > 0 else 0.0
    return w, b, labels


def primal(X, y_raw, w, b, labels, C, B):
    y = np.where(y_raw == labels[0], 1.0, -1.0)
    reg = 0.5 * w @ w + (0.5 * (b / B) ** 2 if B > 0 else 0.0)
    return reg + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b)))


def main():
    nesvm, src = sys.argv[1], sys.argv[2]
    datasets = ['/usr/share/doc/liblinear-tools/examples/heart_scale',
                os.path.join(src, 'tests/data/breast_cancer_scale')]
    passed = failed = 0
    tmp = tempfile.mkdtemp()

    def check(cond, name, msg):
        nonlocal passed, failed
        if cond:
            passed += 1
            print('ok - %s' % name)
        else:
            failed += 1
            print('not ok - %s: %s' % (name, msg))

    cases = [(d, lam, -1) for d in datasets for lam in (1e-2, 1e-3, 1e-4)]
    cases.append((datasets[0], 1e-3, 1))   # LIBLINEAR's -B 1
    cases.append((datasets[1], 1e-3, 1))
    for data, lam, B in cases:
        y_raw, rows = lp.read_libsvm(data)
        N = len(y_raw)
        d = max((max(r) for r in rows if r), default=0)
        X = lp.dense(rows, d)
        C = 1.0 / (lam * N)
        base = '%s lambda=%g B=%g' % (os.path.basename(data), lam, B)
        lmodel = os.path.join(tmp, 'l.model')
        out = subprocess.run(['liblinear-train', '-s', '3', '-c', repr(C), '-e', '1e-6', '-B', '%g' % B,
                              data, lmodel], check=True, capture_output=True, text=True).stdout
        # printed with six decimals (%lf): the bound is the value less half a unit
        D_ll = -float(re.search(r'Objective value = ([0-9.e+-]+)', out).group(1)) - 5e-7
        if 'reaching max number of iterations' in out:
            # then the printed value is not a bound: on breast_cancer at
            # lambda 1e-3 it says 92.408561 while NESVM and Hyperpass both
            # certify P* = 92.4085586141 (gap 1e-12); take the lower side from
            # NESVM's own certificate instead (a different algorithm), without
            # a bias on the data with the constant feature B appended
            ref = data
            if B > 0:
                ref = os.path.join(tmp, 'aug.svm')
                with open(ref, 'w') as f:
                    for yi, ri in zip(y_raw, rows):
                        feats = ' '.join('%d:%r' % (j, v) for j, v in sorted(ri.items()))
                        f.write('%r %s %d:%r\n' % (float(yi), feats, d + 1, float(B)))
            r = subprocess.run([nesvm, 'train', '-B', '-1', '-c', repr(C), '-e', '1e-10', ref,
                                os.path.join(tmp, 'r.model')], check=True, capture_output=True, text=True)
            D_ll = float(re.search(r'lower bound ([0-9.e+-]+)', r.stdout).group(1))
        w, b, labels = liblinear_w(lmodel, d)
        P_ll = primal(X, y_raw, w, b, labels, C, B)
        check(D_ll <= P_ll * (1 + 1e-12), base + ' LIBLINEAR bounds', '%r > %r' % (D_ll, P_ll))
        variants = [('hyperpass', ['--solver', 'hyperpass', '--lambda', repr(lam), '-e', '1e-6'], 1e-6),
                    ('hyperpass no shrinking', ['--solver', 'hyperpass', '--shrinking', '0',
                                                '--lambda', repr(lam), '-e', '1e-6'], 1e-6),
                    ('hyperpass + pegasos:10', ['--solver', 'hyperpass', '--warm-start', 'pegasos:10',
                                                '-c', repr(C), '-e', '1e-6'], 1e-6),
                    ('pegasos', ['--solver', 'pegasos', '--lambda', repr(lam), '-e', '1e-2',
                                 '--batch', '100'], 1e-2)]
        for vname, opts, eps in variants:
            name = '%s %s' % (base, vname)
            nmodel = os.path.join(tmp, 'n.model')
            r = subprocess.run([nesvm, 'train', '-B', '%g' % B] + opts + [data, nmodel],
                               capture_output=True, text=True)
            if r.returncode != 0:
                check(False, name, 'exit %d: %s' % (r.returncode, r.stderr.strip()))
                continue
            P_rep = float(re.search(r'primal objective ([0-9.e+-]+)', r.stdout).group(1))
            v = float(re.search(r'lower bound ([0-9.e+-]+)', r.stdout).group(1))
            wn, bn, ln = lp.model_w_b(nmodel, d)
            P_n = primal(X, y_raw, wn, bn, ln, C, B)
            check(abs(P_n - P_rep) <= 1e-9 * P_n, name + ' reported primal', '%r vs model %r' % (P_rep, P_n))
            check(v <= P_ll * (1 + 1e-12), name + ' v <= P*', 'lower bound %r > LIBLINEAR primal %r' % (v, P_ll))
            check(P_n >= D_ll * (1 - 1e-12), name + ' P* <= P', 'primal %r < LIBLINEAR dual %r' % (P_n, D_ll))
            check(P_n - v <= eps * P_n * (1 + 1e-9), name + ' gap', 'P %r, v %r: gap %g > %g'
                  % (P_n, v, (P_n - v) / P_n, eps))
            check(P_n <= P_ll * (1 + eps), name + ' as good as LIBLINEAR', 'P %r vs LIBLINEAR %r' % (P_n, P_ll))
    print('%d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
