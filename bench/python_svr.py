#!/usr/bin/python3
"""The Python SVR row (issue 32): nesvm.SVR against sklearn.svm.SVR on
Friedman #1, fit and predict time from Python, test MSE, and the objective each
fit reached.

Problem: make_friedman1(n_samples=5000, n_features=10, noise=1.0,
random_state=0) to train, make_friedman1(5000, 10, noise=1.0, random_state=1)
to test; RBF kernel, C = 1, epsilon = 0.1, gamma = 0.1, tol = 1e-3 (nesvm: the
certified relative duality gap; scikit-learn/LIBSVM: its KKT tolerance), the
other parameters both estimators' defaults (scikit-learn's cache_size = 200 MB,
which holds LIBSVM's float kernel of 5,000 rows; nesvm's kernel_memory =
4096 MB).

Every fit is its own process on one thread (OMP_NUM_THREADS and
OPENBLAS_NUM_THREADS = 1; nesvm's n_jobs=None is one thread); the data are
generated before the clock starts.  Fit and predict are wall times around the
estimator's fit and predict calls (predict on the 5,000 test rows); the
figures are the medians of --runs runs, nesvm and scikit-learn alternating.
After the clock, the child computes the primal objective of its model with
numpy, the same formula for both,

    P = 1/2 beta' K_SV beta + C sum_i max(0, |y_i - f(x_i)| - epsilon),

beta = dual_coef_, K_SV the kernel of the support vectors and f the model's
predictions on the training rows, so that the times compare fits of known
quality.  A third row, nesvm.SVR at tol = 1e-5, shows the time nesvm takes to
come as close to the optimum as LIBSVM's default stop does.

    bench/python_svr.py [--runs R] [--out DIR] [--pythonpath DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

PARAMS = {"kernel": "rbf", "C": 1.0, "epsilon": 0.1, "gamma": 0.1, "tol": 1e-3}

CHILD = r"""
import json, sys, time, warnings
import numpy as np
from sklearn.datasets import make_friedman1
spec = json.loads(sys.argv[1])
X, y = make_friedman1(n_samples=5000, n_features=10, noise=1.0, random_state=0)
Xt, yt = make_friedman1(n_samples=5000, n_features=10, noise=1.0, random_state=1)
if spec["lib"] == "nesvm":
    import nesvm as mod
else:
    import sklearn.svm as mod
est = mod.SVR(**spec["params"])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    t0 = time.perf_counter(); est.fit(X, y); fit = time.perf_counter() - t0
t0 = time.perf_counter(); pred = est.predict(Xt); predict = time.perf_counter() - t0
mse = float(((pred - yt) ** 2).mean())
S, beta = est.support_vectors_, np.ravel(est.dual_coef_)
sq = (S * S).sum(1)
K = np.exp(-spec["params"]["gamma"] * np.maximum(sq[:, None] + sq[None, :] - 2.0 * S @ S.T, 0.0))
p = spec["params"]
primal = 0.5 * beta @ K @ beta + p["C"] * np.maximum(np.abs(y - est.predict(X)) - p["epsilon"], 0.0).sum()
print(json.dumps({"fit": fit, "predict": predict, "mse": mse, "n_sv": int(beta.size), "primal": float(primal),
                  "n_iter": int(np.ravel(est.n_iter_)[0]), "gap": getattr(est, "gap_", None),
                  "fit_status": int(est.fit_status_), "warnings": [str(w.message)[:200] for w in caught]}))
"""


ROWS = (("nesvm.SVR", "nesvm", PARAMS), ("sklearn.svm.SVR", "sklearn", PARAMS),
        ("nesvm.SVR tol=1e-5", "nesvm", dict(PARAMS, tol=1e-5)))


def run(lib, params, pythonpath):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", PYTHONPATH=pythonpath)
    spec = {"lib": lib, "params": params}
    r = subprocess.run(["/usr/bin/python3", "-c", CHILD, json.dumps(spec)], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit("%s run failed: %s" % (lib, r.stderr[-2000:]))
    return json.loads(r.stdout.strip().splitlines()[-1])


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(HERE, "python-svr-run"))
    ap.add_argument("--pythonpath", default=os.path.join(ROOT, "build", "python-lib"))
    a = ap.parse_args()
    sys.path.insert(0, HERE)
    from lib.machine import _cpu_model

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    uptime_start = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    t_start = time.time()
    runs = {label: [] for label, _, _ in ROWS}
    for _ in range(a.runs):
        for label, lib, params in ROWS:
            r = run(lib, params, a.pythonpath)
            print(label, json.dumps(r), flush=True)
            runs[label].append(r)
    uptime_end = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    rows = {}
    for lib, rs in runs.items():
        rows[lib] = dict(rs[0], fit=median([r["fit"] for r in rs]), predict=median([r["predict"] for r in rs]),
                         fits=[r["fit"] for r in rs], predicts=[r["predict"] for r in rs])
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "raw.json"), "w") as f:
        json.dump({"commit": commit, "params": PARAMS, "runs": runs, "uptime": [uptime_start, uptime_end]}, f,
                  indent=1)
    n, s, n5 = (rows[label] for label, _, _ in ROWS)
    L = ["# The Python SVR row (issue 32)", "",
         "Generated by `bench/python_svr.py --runs %d` at commit %s, %s UTC, %.0f s in all (%s). "
         "One thread for every run (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS = 1, nesvm's n_jobs=None); every fit "
         "is its own process; fit and predict are the medians of %d runs, the rows' runs alternating. "
         "See the script's docstring for what is timed." %
         (a.runs, commit, time.strftime("%Y-%m-%d %H:%M", time.gmtime(t_start)), time.time() - t_start,
          _cpu_model(), a.runs), "",
         "Load (`uptime`) at the start: `%s`; at the end: `%s`." % (uptime_start, uptime_end), "",
         "## Friedman #1, 5,000 training rows, 5,000 test rows, RBF C = 1, epsilon = 0.1, gamma = 0.1, tol = 1e-3",
         "",
         "| estimator | fit s | predict s | test MSE | support vectors | primal objective | iterations | "
         "certified gap | fit runs s |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for label, _, _ in ROWS:
        r = rows[label]
        gap = "%.2g" % r["gap"] if r["gap"] is not None else "—"
        L.append("| %s | %.3g | %.3g | %.6g | %d | %.7g | %d | %s | %s |" %
                 (label, r["fit"], r["predict"], r["mse"], r["n_sv"], r["primal"], r["n_iter"], gap,
                  ", ".join("%.3g" % t for t in r["fits"])))
    L += ["", "Ratios nesvm / scikit-learn: fit %.2fx, predict %.2fx, test MSE %.5f (%+.3f%%), primal objective "
          "%+.2e relative." % (n["fit"] / s["fit"], n["predict"] / s["predict"], n["mse"] / s["mse"],
                               100 * (n["mse"] / s["mse"] - 1), n["primal"] / s["primal"] - 1),
          "At tol = 1e-5: fit %.2fx, primal objective %+.2e relative." % (n5["fit"] / s["fit"],
                                                                         n5["primal"] / s["primal"] - 1), ""]
    for label, _, _ in ROWS:
        r = rows[label]
        if r["warnings"]:
            L.append("%s warned: %s" % (label, "; ".join(r["warnings"])))
    with open(os.path.join(a.out, "RESULTS.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("wrote %s" % os.path.join(a.out, "RESULTS.md"))


if __name__ == "__main__":
    main()
