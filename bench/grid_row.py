#!/usr/bin/python3
"""Model selection (issue 20): `nesvm grid` against LIBSVM's grid.py (Debian's
svm-grid) with the same grid and number of folds, and the warm-start saving.

Problems (the benchmark's data sets, bench/lib/datasets.py):

  tshirt  Fashion-MNIST T-shirt vs Shirt: the first 2,000 training rows, the
          2,000 test rows, pixels / 255; -log2c -1,9,2 -log2g -9,-3,2
          (24 points), 5 folds.
  digits  scikit-learn's digits, 10 classes, 1,347 / 450 rows, pixels / 16;
          -log2c -1,9,2 -log2g -9,-1,2 (30 points), 5 folds.

Rows:
  svm-grid                  grid.py with svm-train -m 1000 (one worker)
  nesvm full, warm          nesvm grid -t rbf (NESVM's full-kernel C-SVM), warm
                            starts along C, --threads 1
  nesvm full, cold          the same with --cold (grid.py's cold starts)
  nesvm full, warm, 2 thr.  --threads 2: two folds at once
  nesvm reduced, warm       --solver nssvm -t rbf (RKHS norm, automatic basis)
  nesvm GS-SVM              --solver gs -t rbf: gamma x the number of basis
                            functions (-log2n default), no C

Each row is one process timed by wall clock (OMP_NUM_THREADS and
OPENBLAS_NUM_THREADS = 1, nesvm's --threads as the row says).  The folds are
each tool's own (LIBSVM's are random, nesvm's stratified by --seed), so CV
accuracies of different tools are not comparable point by point: the test
column trains each tool at its own best point on all training rows and scores
the test rows, which is what a search is for.

    bench/grid_row.py [--problems tshirt,digits] [--out DIR] [--nesvm-bin PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

PROBLEMS = {
    "tshirt": dict(data="fmnist-tshirt-shirt", rows=2000, log2c="-1,9,2", log2g="-9,-3,2",
                   desc="Fashion-MNIST T-shirt vs Shirt, the first 2,000 training rows, 2,000 test rows"),
    "digits": dict(data="digits", rows=None, log2c="-1,9,2", log2g="-9,-1,2",
                   desc="digits, 10 classes, 1,347 training rows, 450 test rows"),
}
ROWS = [
    ("svm-grid (LIBSVM)", "libsvm", [], 1),
    ("nesvm full kernel, warm", "nesvm", ["-t", "rbf"], 1),
    ("nesvm full kernel, cold", "nesvm", ["-t", "rbf", "--cold"], 1),
    ("nesvm full kernel, warm, 2 threads", "nesvm", ["-t", "rbf"], 2),
    ("nesvm reduced kernel (nssvm), warm", "nesvm", ["--solver", "nssvm", "-t", "rbf"], 1),
    ("nesvm GS-SVM (gamma x basis functions)", "nesvm", ["--solver", "gs", "-t", "rbf"], 1),
]


def env1():
    e = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", LC_ALL="C")
    return e


def run(cmd, cwd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, env=env1(), capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    return r.stdout, dt


def accuracy(out):
    m = re.search(r"Accuracy = ([0-9.]+)%", out)
    return float(m.group(1))


def one_row(name, tool, extra, threads, prob, train, test, work, nesvm_bin):
    res = {"row": name}
    if tool == "libsvm":
        out, dt = run(["svm-grid", "-svmtrain", "/usr/bin/svm-train", "-gnuplot", "null", "-out", "grid.out",
                       "-log2c", prob["log2c"], "-log2g", prob["log2g"], "-v", "5", "-m", "1000", train], work)
        c, g, rate = out.strip().splitlines()[-1].split()
        res.update(time=dt, best=f"C {float(c):g}, gamma {float(g):g}", cv=float(rate), points=None, iterations=None)
        run(["svm-train", "-q", "-m", "1000", "-c", c, "-g", g, train, "best.model"], work)
        out, _ = run(["svm-predict", test, "best.model", "pred"], work)
    else:
        out, dt = run([nesvm_bin, "grid", "--threads", str(threads), "-log2c", prob["log2c"], "-log2g", prob["log2g"],
                       "-v", "5", "--out", "grid.csv"] + extra + [train], work)
        lines = out.strip().splitlines()
        a, g, rate = lines[-1].split()
        m = re.match(r"(\d+) points scored, (\d+) iterations", lines[-2])
        gs = "gs" in extra
        res.update(time=dt, best=(f"max_iter {float(a):g}" if gs else f"C {float(a):g}") + f", gamma {float(g):g}",
                   cv=float(rate), points=int(m.group(1)), iterations=int(m.group(2)))
        base = [x for x in extra if x != "--cold"]
        run([nesvm_bin, "train", "-q", "--threads", "1"] + base + (["--max-iter", a] if gs else ["-c", a]) +
            ["-g", g, train, "best.model"], work)
        out, _ = run([nesvm_bin, "predict", test, "best.model", "pred"], work)
    res["test"] = accuracy(out)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problems", default="tshirt,digits")
    ap.add_argument("--out", default=os.path.join(HERE, "grid-run"))
    ap.add_argument("--nesvm-bin", default=os.path.join(ROOT, "build", "nesvm"))
    args = ap.parse_args()
    from lib.datasets import Data
    data = Data(os.path.join(HERE, "data"))
    os.makedirs(args.out, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    results = {}
    t_all = time.perf_counter()
    for p in args.problems.split(","):
        prob = PROBLEMS[p]
        data.ensure(prob["data"])
        work = tempfile.mkdtemp(prefix=f"nesvm-grid-{p}-")
        train = os.path.join(work, "train")
        with open(data.path(prob["data"], "train")) as f, open(train, "w") as g:
            for k, line in enumerate(f):
                if prob["rows"] is not None and k >= prob["rows"]:
                    break
                g.write(line)
        test = data.path(prob["data"], "test")
        results[p] = []
        for name, tool, extra, threads in ROWS:
            print(f"{p}: {name} ...", flush=True)
            results[p].append(one_row(name, tool, extra, threads, prob, train, test, work, args.nesvm_bin))
            print(f"  {results[p][-1]}", flush=True)
    total = time.perf_counter() - t_all
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"commit": commit, "results": results}, f, indent=1)
    lines = ["# Model selection: nesvm grid against LIBSVM's grid.py", "",
             f"`bench/grid_row.py` at commit {commit}, {total / 60:.0f} min on this machine (2 cores; every row "
             "one process, OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = 1). The docstring of the script says what "
             "each row runs. CV accuracies come from each tool's own folds; the test column is the accuracy on "
             "the test rows of a model trained at the tool's best point.", ""]
    for p, rows in results.items():
        prob = PROBLEMS[p]
        ref = rows[0]["time"]
        lines += [f"## {prob['desc']}", "",
                  f"Grid `-log2c {prob['log2c']} -log2g {prob['log2g']}`, 5 folds (GS-SVM: gamma x `-log2n`).", "",
                  "| row | time (s) | time / svm-grid | best point | best CV % | test % at it | iterations |",
                  "|---|---|---|---|---|---|---|"]
        for r in rows:
            it = "" if r["iterations"] is None else f"{r['iterations']:,}"
            lines.append(f"| {r['row']} | {r['time']:.2f} | {r['time'] / ref:.2f} | {r['best']} | {r['cv']:.2f} | "
                         f"{r['test']:.2f} | {it} |")
        warm = next(r for r in rows if r["row"] == "nesvm full kernel, warm")
        cold = next(r for r in rows if r["row"] == "nesvm full kernel, cold")
        lines += ["", f"Warm starts along C against cold: {warm['iterations'] / cold['iterations']:.2f}x the "
                      f"iterations, {warm['time'] / cold['time']:.2f}x the time.", ""]
    with open(os.path.join(args.out, "RESULTS.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
