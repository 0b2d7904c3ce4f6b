#!/usr/bin/python3
"""Regenerate tests/data/breast_cancer_scale from scikit-learn's bundled copy
of the Wisconsin Diagnostic Breast Cancer data set (569 rows, 30 features).

Run with Debian's /usr/bin/python3 (needs python3-numpy, python3-sklearn):

    tools/make_breast_cancer.py [OUTPUT]    # default tests/data/breast_cancer_scale

Scaling matches LIBSVM's `svm-scale` defaults: each feature is min-max scaled
to [-1, 1] over the whole data set, x' = -1 + 2 (x - min) / (max - min);
constant features (none here) would be dropped.  Labels: malignant
(target 0) -> -1, benign (target 1) -> +1.  Rows keep scikit-learn's order.
Features whose scaled value is exactly 0 are omitted; values use %.10g.
"""

import os
import sys

import numpy as np
from sklearn.datasets import load_breast_cancer

LOWER, UPPER = -1.0, 1.0


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(
        here, "..", "tests", "data", "breast_cancer_scale")

    data = load_breast_cancer()
    x = np.asarray(data.data, dtype=np.float64)
    y = np.asarray(data.target)
    assert set(np.unique(y)) == {0, 1} and list(data.target_names) == ["malignant", "benign"]

    lo, hi = x.min(axis=0), x.max(axis=0)
    lines = []
    for row, t in zip(x, y):
        feats = []
        for j in range(x.shape[1]):
            if hi[j] == lo[j]:
                continue  # svm-scale drops constant features
            v = LOWER + (UPPER - LOWER) * (row[j] - lo[j]) / (hi[j] - lo[j])
            if v != 0.0:
                feats.append(f"{j + 1}:{v:.10g}")
        label = "+1" if t == 1 else "-1"
        lines.append(" ".join([label] + feats) + "\n")

    with open(out, "w", encoding="ascii") as f:
        f.writelines(lines)
    print(f"wrote {out}: {len(lines)} rows, {x.shape[1]} features", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
