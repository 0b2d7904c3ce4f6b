#!/usr/bin/python3
"""scikit-learn runner for the benchmark harness (one fit per process).

Loads the LIBSVM training file with load_svmlight_file (timed), fits one
estimator (timed), saves a linear model's coef_, intercept_ and classes_ to
an .npz (so the harness computes objectives itself), then scores the test
file (or the training file when there is none) and writes a JSON summary.

ridge is RidgeClassifier(alpha = 1/(2C)): it maps the labels to -1/+1 and
minimizes ||y - Xw - b||^2 + alpha ||w||^2 (b unpenalized), which is the
LS-SVM objective 1/2 ||w||^2 + C sum (1 - y f(x))^2 divided by C.

    sk_runner.py --estimator linearsvc|sgd|ridge|svc|nystroem --train F [--test F]
        --n-features D --C C [--loss hinge|squared_hinge] [--fit-intercept 0|1]
        [--intercept-scaling S] [--tol T] [--max-iter N] [--gamma G]
        [--n-components M] [--seed S] [--model OUT.npz] --json OUT.json
"""
import argparse
import json
import sys
import time
import warnings


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--estimator", required=True, choices=("linearsvc", "sgd", "ridge", "svc", "nystroem"))
    ap.add_argument("--train", required=True)
    ap.add_argument("--test")
    ap.add_argument("--n-features", type=int, required=True)
    ap.add_argument("--C", type=float, required=True)
    ap.add_argument("--loss", default="hinge")
    ap.add_argument("--fit-intercept", type=int, default=1)
    ap.add_argument("--intercept-scaling", type=float, default=1.0)
    ap.add_argument("--tol", type=float)
    ap.add_argument("--max-iter", type=int)
    ap.add_argument("--gamma", type=float)
    ap.add_argument("--n-components", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--model")
    ap.add_argument("--json", required=True)
    a = ap.parse_args(argv)

    import numpy as np
    from sklearn.datasets import load_svmlight_file

    t0 = time.perf_counter()
    X, y = load_svmlight_file(a.train, n_features=a.n_features)
    t_load = time.perf_counter() - t0
    n = X.shape[0]
    kw = {}
    if a.tol is not None:
        kw["tol"] = a.tol
    if a.max_iter is not None:
        kw["max_iter"] = a.max_iter

    if a.estimator == "linearsvc":
        from sklearn.svm import LinearSVC
        est = LinearSVC(C=a.C, loss=a.loss, dual=True, fit_intercept=bool(a.fit_intercept),
                        intercept_scaling=a.intercept_scaling, random_state=a.seed, **kw)
    elif a.estimator == "sgd":
        from sklearn.linear_model import SGDClassifier
        # sklearn minimizes alpha/2 ||w||^2 + (1/n) sum hinge; times C n this is
        # 1/2 ||w||^2 + C sum hinge when alpha = 1 / (C n)
        est = SGDClassifier(loss="hinge", alpha=1.0 / (a.C * n), fit_intercept=bool(a.fit_intercept),
                            random_state=a.seed, **kw)
    elif a.estimator == "ridge":
        from sklearn.linear_model import RidgeClassifier
        # (1 - y f)^2 = (y - f)^2 for y = +-1: C times Ridge's objective at
        # alpha = 1/(2C) is 1/2 ||w||^2 + C sum (1 - y (w.x + b))^2.  On sparse X
        # with an intercept, solver 'auto' is conjugate gradients (sparse_cg,
        # stopping at residual tol) on the implicitly centred data.
        est = RidgeClassifier(alpha=1.0 / (2.0 * a.C), fit_intercept=bool(a.fit_intercept), **kw)
    elif a.estimator == "svc":
        from sklearn.svm import SVC
        est = SVC(C=a.C, kernel="rbf", gamma=a.gamma, **kw)
    else:
        from sklearn.kernel_approximation import Nystroem
        from sklearn.pipeline import make_pipeline
        from sklearn.svm import LinearSVC
        est = make_pipeline(
            Nystroem(kernel="rbf", gamma=a.gamma, n_components=min(a.n_components, n),
                     random_state=a.seed),
            LinearSVC(C=a.C, loss="hinge", dual=True, random_state=a.seed, **kw))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t1 = time.perf_counter()
        est.fit(X, y)
        t_fit = time.perf_counter() - t1
    out = {"load_seconds": t_load, "fit_seconds": t_fit, "n_train": n,
           "warnings": sorted({str(w.message).split("\n")[0] for w in caught})}
    last = est[-1] if a.estimator == "nystroem" else est
    if getattr(last, "n_iter_", None) is not None:
        out["n_iter"] = np.asarray(last.n_iter_).max().item()
    if a.model and a.estimator in ("linearsvc", "sgd", "ridge"):
        np.savez(a.model, coef=est.coef_, intercept=np.atleast_1d(est.intercept_),
                 classes=est.classes_)
    if a.test:
        Xt, yt = load_svmlight_file(a.test, n_features=a.n_features)
        out["accuracy"], out["accuracy_on"] = float(est.score(Xt, yt)), "test"
    else:
        out["accuracy"], out["accuracy_on"] = float(est.score(X, y)), "train"
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
