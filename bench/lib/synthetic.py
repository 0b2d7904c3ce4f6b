#!/usr/bin/python3
"""Seeded synthetic data sets for the benchmark, written in LIBSVM format.

sparse (text-like):  each row draws a Poisson number (mean ``tokens``) of
    feature tokens from a Zipf law over ``d`` features (probability of the
    feature of rank r proportional to 1/r^s, ranks shuffled over the feature
    ids); 70 tokens give about 50 distinct features per row.  A
    feature drawn k times in a row has term frequency k; values are tf-idf,
    (1 + ln tf) * (ln((1 + N) / (1 + df)) + 1) with df from the training
    rows, and every row is scaled to unit Euclidean norm.  Labels: the sign
    of x.w* - t for a sparse ground truth w* (``k_true`` distinct features drawn
    with probability proportional to the square root of their Zipf
    probability, N(0,1) weights, t = median score on the training rows), then a
    fraction ``flip`` of labels is flipped.
sparse-wide (text-like, more features than rows):  the same generator with
    SPARSE_WIDE's parameters: 5,000 + 1,000 rows, 100,000 features, 1,050
    tokens per row (about 500 distinct features, 0.5% density), seed 3
    (bench/c_sweep.py's data set (e)).
dense (clustered Gaussian):  ``d`` features in ``clusters`` groups; within
    a group features share a latent N(0,1) factor with correlation ``rho``
    (x_j = sqrt(rho) z_g + sqrt(1 - rho) e_j).  Labels: sign(x.w* + noise),
    w* ~ N(0,1), noise N(0, (``noise`` * std(x.w*))^2).

sparse-reg (text-like regression, bench/svr_row.py):  the sparse kind's rows
    (SPARSE_REG: 200,000 + 20,000 rows, 100,000 features, 70 tokens, seed 4)
    with real targets y = x.w* + e: w* drawn as the sparse kind's (2,000
    features), scaled so that x.w* has standard deviation 1 on the training
    rows, e ~ N(0, 0.2^2).  sparse-reg-20k: the same with 20,000 + 5,000 rows
    (idf and the scaling of w* then come from those 20,000 rows).
friedman1 (kernel regression, bench/svr_row.py):  scikit-learn's
    make_friedman1(n, n_features=10, noise=1.0, random_state=0) for training
    and make_friedman1(5,000, the same, random_state=1) for testing.

The classification kinds write TRAIN and TEST files with labels +1/-1, the
regression kinds real targets with 6 decimals; values are in fixed point with
6 decimals (libsvm_write.py).

    synthetic.py sparse --out DIR [--seed S] [--train N] [--test N] [--d D] [--tokens T]
    synthetic.py sparse-wide --out DIR [the same options]
    synthetic.py sparse-reg --out DIR [the same options]
    synthetic.py dense  --out DIR [--seed S] [--train N] [--test N]
    synthetic.py friedman1 --out DIR [--train N] [--test N]
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lib.libsvm_write import write_dense, write_libsvm  # noqa: E402

SPARSE_DEFAULTS = dict(train=200_000, test=20_000, d=100_000, tokens=70, zipf_s=1.1,
                       k_true=2_000, flip=0.05, seed=1)
# more features than rows, about 500 non-zeros per row (c_sweep.py's (e))
SPARSE_WIDE = dict(train=5_000, test=1_000, d=100_000, tokens=1_050, seed=3)
# real targets (bench/svr_row.py's linear rows)
SPARSE_REG = dict(train=200_000, test=20_000, d=100_000, tokens=70, zipf_s=1.1, k_true=2_000, noise=0.2,
                  seed=4)
SPARSE_REG_20K = dict(train=20_000, test=5_000)
FRIEDMAN1 = dict(train=20_000, test=5_000)
DENSE_DEFAULTS = dict(train=50_000, test=10_000, d=500, clusters=25, rho=0.8,
                      noise=0.5, seed=2)


def _text_rows(rng, train, test, d, tokens, zipf_s):
    """The text-like rows of the sparse kinds (module docstring): unit-norm
    tf-idf CSR matrix of train + test rows (idf from the training rows), the
    Zipf probabilities by rank and the rank -> feature id permutation."""
    n = train + test
    p = 1.0 / np.arange(1, d + 1, dtype=np.float64) ** zipf_s
    p /= p.sum()
    feat_of_rank = rng.permutation(d)             # rank r -> feature id
    counts = np.maximum(rng.poisson(tokens, size=n), 1)
    rows = np.repeat(np.arange(n, dtype=np.int64), counts)
    ranks = np.searchsorted(np.cumsum(p), rng.random(rows.shape[0]), side="right")
    ranks = np.minimum(ranks, d - 1)
    cols = feat_of_rank[ranks].astype(np.int64)
    keys, tf = np.unique(rows * d + cols, return_counts=True)
    r, c = keys // d, keys % d
    df = np.bincount(c[r < train], minlength=d)
    idf = np.log((1.0 + train) / (1.0 + df)) + 1.0
    v = (1.0 + np.log(tf)) * idf[c]
    X = sp.csr_matrix((v, (r, c)), shape=(n, d))
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.diags(1.0 / np.maximum(norms, 1e-300)) @ X
    return X.tocsr(), p, feat_of_rank


def _sparse_truth(rng, d, k_true, p, feat_of_rank):
    """w*: N(0, 1) weights on k_true features drawn (without replacement)
    with probability proportional to the square root of their Zipf
    probability."""
    true_feats = feat_of_rank[rng.choice(d, size=k_true, replace=False, p=np.sqrt(p) / np.sqrt(p).sum())]
    wstar = np.zeros(d)
    wstar[true_feats] = rng.normal(size=k_true)
    return wstar


def sparse_text(train, test, d, tokens, zipf_s, k_true, flip, seed):
    rng = np.random.default_rng(seed)
    n = train + test
    X, p, feat_of_rank = _text_rows(rng, train, test, d, tokens, zipf_s)
    wstar = _sparse_truth(rng, d, k_true, p, feat_of_rank)
    score = X @ wstar
    t = np.median(score[:train])
    y = np.where(score > t, 1, -1)
    y = np.where(rng.random(n) < flip, -y, y)
    return (y[:train], X[:train]), (y[train:], X[train:])


def sparse_regression(train, test, d, tokens, zipf_s, k_true, noise, seed):
    """The sparse kind's rows with real targets y = x.w* + e: w* as
    sparse_text's, scaled so that the training rows' x.w* have standard
    deviation 1, and e ~ N(0, noise^2) (module docstring, sparse-reg)."""
    rng = np.random.default_rng(seed)
    X, p, feat_of_rank = _text_rows(rng, train, test, d, tokens, zipf_s)
    wstar = _sparse_truth(rng, d, k_true, p, feat_of_rank)
    score = X @ wstar
    wstar /= score[:train].std()
    y = score / score[:train].std() + noise * rng.normal(size=train + test)
    return (y[:train], X[:train]), (y[train:], X[train:]), wstar


def friedman1(train, test):
    """scikit-learn's Friedman #1 (10 features, noise 1): ``train`` rows
    with random_state 0, ``test`` rows with random_state 1."""
    from sklearn.datasets import make_friedman1
    Xtr, ytr = make_friedman1(train, n_features=10, noise=1.0, random_state=0)
    Xte, yte = make_friedman1(test, n_features=10, noise=1.0, random_state=1)
    return (ytr, Xtr), (yte, Xte)


def dense_clusters(train, test, d, clusters, rho, noise, seed):
    rng = np.random.default_rng(seed)
    n = train + test
    group = np.arange(d) % clusters
    z = rng.normal(size=(n, clusters))
    X = np.sqrt(rho) * z[:, group] + np.sqrt(1.0 - rho) * rng.normal(size=(n, d))
    wstar = rng.normal(size=d)
    score = X @ wstar
    score += noise * score.std() * rng.normal(size=n)
    y = np.where(score > 0, 1, -1)
    return (y[:train], X[:train]), (y[train:], X[train:])


def checkerboard():
    """The NSSVM paper's checkerboard (Section 7.1): the 40,000 integer points
    of [0, 199]^2, labelled +1 where ((x // 50) + (y // 50)) is even (4 x 4
    squares of 50 x 50), else -1.  Used by bench/checkerboard.py and the
    checkerboard-* data sets."""
    g = np.arange(200, dtype=float)
    X = np.array([(a, b) for a in g for b in g])
    y = np.where(((X[:, 0] // 50) + (X[:, 1] // 50)) % 2 == 0, 1, -1)
    return X, y


def write_points(path, X, y):
    """Checkerboard points as LIBSVM text, integer coordinates, zeros kept."""
    with open(path, "w") as f:
        for (a, b), t in zip(X, y):
            f.write("%d 1:%d 2:%d\n" % (t, a, b))


CHECKER_SEED = 0
CHECKER_TEST = 10_000


def checkerboard_split(m, seed=CHECKER_SEED, test=CHECKER_TEST):
    """One seeded permutation of the 40,000 points: training = its first m
    points, test = its last ``test`` points (the same for every m up to
    40,000 - test, and disjoint from the training points); None when m leaves
    fewer than ``test`` points."""
    X, y = checkerboard()
    perm = np.random.default_rng(seed).permutation(len(y))
    tr = perm[:m]
    te = perm[len(y) - test:] if m <= len(y) - test else None
    return (X[tr], y[tr]), (None if te is None else (X[te], y[te]))


def generate(kind, out, **kw):
    """Generate and write OUT/train.svm and OUT/test.svm; returns the
    parameters used (also written to OUT/params.json)."""
    os.makedirs(out, exist_ok=True)
    t0 = time.time()
    if kind in ("sparse", "sparse-wide"):
        base = dict(SPARSE_DEFAULTS, **(SPARSE_WIDE if kind == "sparse-wide" else {}))
        params = dict(base, **{k: v for k, v in kw.items() if v is not None})
        (ytr, Xtr), (yte, Xte) = sparse_text(**params)
        write_libsvm(os.path.join(out, "train.svm"), ytr, Xtr)
        write_libsvm(os.path.join(out, "test.svm"), yte, Xte)
    elif kind in ("sparse-reg", "sparse-reg-20k"):
        base = dict(SPARSE_REG, **(SPARSE_REG_20K if kind == "sparse-reg-20k" else {}))
        params = dict(base, **{k: v for k, v in kw.items() if v is not None})
        (ytr, Xtr), (yte, Xte), _ = sparse_regression(**params)
        write_libsvm(os.path.join(out, "train.svm"), ytr, Xtr, label_decimals=6)
        write_libsvm(os.path.join(out, "test.svm"), yte, Xte, label_decimals=6)
    elif kind == "friedman1":
        params = dict(FRIEDMAN1, **{k: v for k, v in kw.items() if v is not None})
        (ytr, Xtr), (yte, Xte) = friedman1(**params)
        write_dense(os.path.join(out, "train.svm"), ytr, Xtr, label_decimals=6)
        write_dense(os.path.join(out, "test.svm"), yte, Xte, label_decimals=6)
    elif kind == "dense":
        params = dict(DENSE_DEFAULTS, **{k: v for k, v in kw.items() if v is not None})
        (ytr, Xtr), (yte, Xte) = dense_clusters(**params)
        write_dense(os.path.join(out, "train.svm"), ytr, Xtr)
        write_dense(os.path.join(out, "test.svm"), yte, Xte)
    else:
        raise ValueError(kind)
    params["kind"] = kind
    params["seconds"] = round(time.time() - t0, 2)
    with open(os.path.join(out, "params.json"), "w") as f:
        json.dump(params, f, indent=1)
    return params


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=("sparse", "sparse-wide", "sparse-reg", "sparse-reg-20k", "dense", "friedman1"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--train", type=int)
    ap.add_argument("--test", type=int)
    ap.add_argument("--d", type=int, help="features (sparse kinds)")
    ap.add_argument("--tokens", type=int, help="mean feature tokens per row (sparse kinds)")
    a = ap.parse_args(argv)
    extra = dict(d=a.d, tokens=a.tokens) if a.kind.startswith("sparse") else {}
    if a.kind != "friedman1":
        extra["seed"] = a.seed
    p = generate(a.kind, a.out, train=a.train, test=a.test, **extra)
    print(json.dumps(p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
