#!/usr/bin/python3
"""Primal objective of a linear C-SVM model file, independent of nesvm's code.

    libsvm_primal.py DATA MODEL C [--w-label L W ...]

MODEL is either a LIBSVM model (svm-train -t 0) or a nesvm model.  The script
rebuilds w and b from the file (for LIBSVM: w = sum_i coef_i x_i, b = -rho),
then evaluates on DATA

    P(w, b) = 1/2 ||w||^2 + sum_i C_i max(0, 1 - y_i (w.x_i + b))

with y_i = +1 for the model's first label and C_i = C times the weight given
for the sample's label (default 1).  Prints P with 17 significant digits.
"""
import sys
import numpy as np


def read_libsvm(path):
    labels, rows = [], []
    with open(path) as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line:
                continue
            parts = line.split()
            labels.append(float(parts[0]))
            rows.append({int(t.split(':')[0]): float(t.split(':')[1]) for t in parts[1:]})
    return np.array(labels), rows


def dense(rows, d):
    X = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for j, v in r.items():
            if j <= d:
                X[i, j - 1] = v
    return X


def model_w_b(path, d):
    with open(path) as f:
        lines = f.read().split('\n')
    if lines[0].startswith('nesvm_model'):
        it = iter(lines)
        labels = None
        for ln in it:
            t = ln.split()
            if not t:
                continue
            if t[0] == 'labels':
                labels = [float(x) for x in t[1:]]
            if t[0] == 'nr_feature':
                md = int(t[1])
            if t[0] == 'b':
                b = float(t[1])
            if t[0] == 'w':
                w = np.array([float(next(it)) for _ in range(md)])
                break
        wf = np.zeros(d)
        wf[:min(d, md)] = w[:min(d, md)]
        return wf, b, labels
    header = {}
    i = 0
    while lines[i].strip() != 'SV':
        t = lines[i].split()
        header[t[0]] = t[1:]
        i += 1
    labels = [float(x) for x in header['label']]
    rho = float(header['rho'][0])
    w = np.zeros(d)
    for ln in lines[i + 1:]:
        t = ln.split()
        if not t:
            continue
        coef = float(t[0])
        for tok in t[1:]:
            j, v = tok.split(':')
            if int(j) <= d:
                w[int(j) - 1] += coef * float(v)
    return w, -rho, labels


def main():
    data, model, C = sys.argv[1], sys.argv[2], float(sys.argv[3])
    weights = {}
    rest = sys.argv[4:]
    while rest:
        if rest[0] == '--w-label':
            weights[float(rest[1])] = float(rest[2])
            rest = rest[3:]
        else:
            sys.exit('bad argument ' + rest[0])
    y_raw, rows = read_libsvm(data)
    d = max((max(r) for r in rows if r), default=0)
    X = dense(rows, d)
    w, b, labels = model_w_b(model, d)
    y = np.where(y_raw == labels[0], 1.0, -1.0)
    Ci = np.array([C * weights.get(l, 1.0) for l in y_raw])
    P = 0.5 * w @ w + np.sum(Ci * np.maximum(0.0, 1.0 - y * (X @ w + b)))
    print('%.17g' % P)


if __name__ == '__main__':
    main()
