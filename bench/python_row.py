#!/usr/bin/python3
"""The Python row (issue 19): nesvm's estimators against scikit-learn's on the
Fashion-MNIST cases, fit and predict time from Python, and the binding's
overhead against the command-line tool training the same problem.

Problems (the benchmark's data sets, bench/lib/datasets.py):

  linear  Fashion-MNIST 0 vs rest, 60,000 / 10,000 rows, C = 1:
          nesvm.LinearSVC (squared hinge: SSVM; hinge: Hyperpass) against
          sklearn.svm.LinearSVC with the same loss (both: a regularized
          intercept of 1, LIBLINEAR's -B 1; scikit-learn's defaults tol = 1e-4
          and max_iter = 1000, which nesvm.LinearSVC passes on); CLI:
          `nesvm train --solver nssvm -c 2 -B 1 -e 1e-4 --max-iter 1000` and
          `--solver hyperpass -c 1 -B 1 -e 1e-4 --max-iter 1000`.
  rbf     Fashion-MNIST T-shirt vs Shirt, 12,000 / 2,000 rows, RBF C = 10,
          gamma = 0.02: nesvm.SVC against sklearn.svm.SVC; CLI: `nesvm train
          -t rbf -g 0.02 -c 10`.
  rbf10   Fashion-MNIST ten classes, the first 10,000 training rows, the
          10,000 test rows, RBF C = 10, gamma = 0.02 (one-vs-one both).

Every fit is its own process on one thread (OMP_NUM_THREADS and
OPENBLAS_NUM_THREADS = 1, n_jobs=None); data are loaded with scikit-learn's
load_svmlight_file before the clock starts.  Fit and predict are wall times
around the estimator's fit and predict calls.  The CLI's figure is nesvm's own
printed training time (`classes ..., time T s`: no reading, no model writing),
the same quantity the estimator's fit wraps.  Overhead = Python fit / CLI train
- 1 (the binding's validation, the class mapping and the attributes).

    bench/python_row.py [--problems linear,rbf,rbf10] [--out DIR] [--runs R]
        [--nesvm-bin PATH] [--pythonpath DIR]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

PROBLEMS = {
    "linear": dict(data="fmnist-zero-rest", desc="Fashion-MNIST 0 vs rest, 60,000 rows, linear, C = 1",
                   rows=[("nesvm.LinearSVC squared hinge", "nesvm", "LinearSVC", {"C": 1.0, "loss": "squared_hinge"},
                          ["--solver", "nssvm", "-c", "2", "-B", "1", "-e", "1e-4", "--max-iter", "1000"]),
                         ("sklearn LinearSVC squared hinge", "sklearn", "LinearSVC",
                          {"C": 1.0, "loss": "squared_hinge", "dual": True}, None),
                         ("nesvm.LinearSVC hinge", "nesvm", "LinearSVC", {"C": 1.0, "loss": "hinge"},
                          ["--solver", "hyperpass", "-c", "1", "-B", "1", "-e", "1e-4", "--max-iter", "1000"]),
                         ("sklearn LinearSVC hinge", "sklearn", "LinearSVC", {"C": 1.0, "loss": "hinge", "dual": True},
                          None)]),
    "rbf": dict(data="fmnist-tshirt-shirt", desc="Fashion-MNIST T-shirt vs Shirt, 12,000 rows, RBF C = 10, gamma = 0.02",
                rows=[("nesvm.SVC", "nesvm", "SVC", {"C": 10.0, "gamma": 0.02},
                       ["-t", "rbf", "-g", "0.02", "-c", "10"]),
                      ("sklearn SVC", "sklearn", "SVC", {"C": 10.0, "gamma": 0.02, "cache_size": 1000}, None)]),
    "rbf10": dict(data="fmnist-all-10k",
                  desc="Fashion-MNIST ten classes, 10,000 rows, RBF C = 10, gamma = 0.02 (one-vs-one)",
                  rows=[("nesvm.SVC", "nesvm", "SVC", {"C": 10.0, "gamma": 0.02},
                         ["-t", "rbf", "-g", "0.02", "-c", "10"]),
                        ("sklearn SVC", "sklearn", "SVC", {"C": 10.0, "gamma": 0.02, "cache_size": 1000}, None)]),
}

CHILD = r"""
import json, sys, time, warnings
from sklearn.datasets import load_svmlight_file
spec = json.loads(sys.argv[1])
X, y = load_svmlight_file(spec["train"], n_features=spec["d"])
Xt, yt = load_svmlight_file(spec["test"], n_features=spec["d"])
if spec["lib"] == "nesvm":
    import nesvm as mod
else:
    import sklearn.svm as mod
est = getattr(mod, spec["cls"])(**spec["params"])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    t0 = time.perf_counter(); est.fit(X, y); fit = time.perf_counter() - t0
t0 = time.perf_counter(); pred = est.predict(Xt); predict = time.perf_counter() - t0
print(json.dumps({"fit": fit, "predict": predict, "accuracy": float((pred == yt).mean())}))
"""


def env1(pythonpath):
    e = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    if pythonpath:
        e["PYTHONPATH"] = pythonpath
    return e


def run_python(spec, pythonpath):
    r = subprocess.run(["/usr/bin/python3", "-c", CHILD, json.dumps(spec)], capture_output=True, text=True,
                       env=env1(pythonpath))
    if r.returncode != 0:
        raise SystemExit("python run failed: %s" % r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def run_cli(nesvm_bin, args, train, tmp):
    r = subprocess.run([nesvm_bin, "train", "--threads", "1"] + args + [train, os.path.join(tmp, "cli.model")],
                       capture_output=True, text=True, env=env1(None))
    if r.returncode != 0:
        raise SystemExit("nesvm train failed: %s" % r.stderr)
    m = re.search(r"time ([0-9.e+-]+) s", r.stdout)
    return float(m.group(1))


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--problems", default="linear,rbf,rbf10")
    ap.add_argument("--out", default=os.path.join(HERE, "python-run"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--nesvm-bin", default=os.path.join(ROOT, "build", "nesvm"))
    ap.add_argument("--pythonpath", default=os.path.join(ROOT, "build", "python-lib"))
    ap.add_argument("--data-dir", default=os.path.join(HERE, "data"))
    a = ap.parse_args()
    from lib.datasets import Data
    from lib.machine import _cpu_model

    data = Data(a.data_dir)
    os.makedirs(a.out, exist_ok=True)
    tmp = os.path.join(a.out, "tmp")
    os.makedirs(tmp, exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    results = []
    t_start = time.time()
    for name in a.problems.split(","):
        p = PROBLEMS[name]
        data.ensure(p["data"])
        meta = data.meta(p["data"])
        train, test = data.path(p["data"], "train"), data.path(p["data"], "test")
        for label, lib_, cls, params, cli_args in p["rows"]:
            spec = {"train": train, "test": test, "d": meta["d"], "lib": lib_, "cls": cls, "params": params}
            runs = [run_python(spec, a.pythonpath) for _ in range(a.runs)]
            row = {"problem": name, "desc": p["desc"], "tool": label, "fit": median([r["fit"] for r in runs]),
                   "predict": median([r["predict"] for r in runs]), "accuracy": runs[0]["accuracy"]}
            if cli_args:
                row["cli_train"] = median([run_cli(a.nesvm_bin, cli_args, train, tmp) for _ in range(a.runs)])
                row["cli_args"] = " ".join(cli_args)
            print(json.dumps(row), flush=True)
            results.append(row)
    with open(os.path.join(a.out, "raw.json"), "w") as f:
        json.dump(results, f, indent=1)
    L = ["# The Python row (issue 19)", "",
         "Generated by `bench/python_row.py --problems %s --runs %d` at commit %s, %s UTC, %.0f s in all "
         "(%s; load average at the end %s). One thread for every run (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS = 1); "
         "every fit is its own process. See the script's docstring for what is timed." %
         (a.problems, a.runs, commit, time.strftime("%Y-%m-%d %H:%M", time.gmtime(t_start)),
          time.time() - t_start, _cpu_model(), os.getloadavg()[0]), ""]
    for name in a.problems.split(","):
        rows = [r for r in results if r["problem"] == name]
        L += ["## %s" % rows[0]["desc"], "",
              "| estimator | fit s | predict s | test accuracy | CLI train s (`nesvm train ...`) | binding overhead |",
              "|---|---:|---:|---:|---|---:|"]
        for r in rows:
            cli = "%.3g (`%s`)" % (r["cli_train"], r["cli_args"]) if "cli_train" in r else "—"
            over = "%+.1f%%" % (100 * (r["fit"] / r["cli_train"] - 1)) if "cli_train" in r else "—"
            L.append("| %s | %.3g | %.3g | %.2f%% | %s | %s |" % (r["tool"], r["fit"], r["predict"],
                                                                  100 * r["accuracy"], cli, over))
        L.append("")
    with open(os.path.join(a.out, "RESULTS.md"), "w") as f:
        f.write("\n".join(L))
    print("wrote %s" % os.path.join(a.out, "RESULTS.md"))


if __name__ == "__main__":
    main()
