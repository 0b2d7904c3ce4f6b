#!/usr/bin/python3
"""GS-SVM against LIBSVM, as in the GS-SVM paper's Section V (Tables II-III)
and its model-selection argument, on Fashion-MNIST.

Data: the benchmark's Fashion-MNIST sets (pixels / 255, official split):
T-shirt (+1) vs Shirt (-1), 12,000 / 2,000 rows; T-shirt vs the rest ("0 vs
rest"), 60,000 / 10,000; all ten classes.  A training size s means the first s
rows of the (shuffled) official training set; the test set is always the
official one.  Gaussian kernel exp(-gamma ||x - z||^2).

Every run is a separate process on one core: `svm-train -s 0 -t 2 -m 1000`
(the paper's 1 GB cache; LIBSVM's default tolerance 1e-3 and shrinking) and
`nesvm train --solver gs -t 2 -m 1000 --threads 1` (OPENBLAS_NUM_THREADS=1),
then `svm-predict` / `nesvm predict`.  Times are process wall times (reading
included, the way a user sees them); nesvm's own training time (without
reading) is reported too.  LIBSVM's kernel evaluations are counted by an
LD_PRELOAD wrapper around exp() (lib/expcount.c: its RBF kernel calls exp
once per value); nesvm reports its own.  K1 = kernel values computed with the
cache, K2 = values a run without a cache computes (GS reports it: every
value asked for; LIBSVM's would need a second training with -m 0, not run).

Parts (--parts, comma-separated, in this order by default):

  select   model selection at 2,000 rows, 5-fold stratified CV (seed 0) with
           the same fold files for both tools: GS over the gamma grid alone,
           LIBSVM over gamma x C.  Total time and best CV accuracy.
  sizes    Table II: growing training sizes (T-shirt/Shirt 2,000 / 6,000 /
           12,000; 0 vs rest 2,000 / 6,000 / 12,000 / 60,000).  Each method
           uses the gamma its own CV chose in `select`; LIBSVM's C is chosen
           by CV on each training set over C in {1, 10, 100} (5-fold at
           2,000, from `select`; 3-fold at 6,000 and 12,000); the 60,000-row
           run uses the C chosen at 12,000 (CV at 60,000 would cost several
           hours of LIBSVM training).
  multi    ten classes, one-vs-one for both, 12,000 and 60,000 rows: by
           3-fold CV at 12,000 rows, LIBSVM's C over {1, 10, 100} with the
           gamma of 0 vs rest's `select`, and GS-SVM's gamma over the grid
           (the ten-class problem is different enough for GS's gamma from
           0 vs rest to cost accuracy: 85.18% against 87.35% at 12,000
           rows with gamma 0.08); 60,000 rows use the same choices.

Results are kept in OUT/raw.json as they finish (a rerun skips what is
there, so an interrupted run resumes); OUT/RESULTS.md is rewritten at the
end of each part, with bench/notes/gs-svm.md (what the numbers say) appended
once every part is in.

    bench/gs_svm.py [--parts select,sizes,multi] [--out DIR] [--nesvm-bin PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from lib.datasets import Data  # noqa: E402
from lib import kernelcount, machine  # noqa: E402

GAMMAS = [0.005, 0.01, 0.02, 0.04, 0.08]
CS = [0.1, 1, 10, 100, 1000]
CS_SIZES = [1, 10, 100]
SETS = {"ts": ("fmnist-tshirt-shirt", "T-shirt vs Shirt", [2000, 6000, 12000]),
        "0vr": ("fmnist-zero-rest", "0 vs rest", [2000, 6000, 12000, 60000])}
MULTI = ("fmnist-all", "10 classes", [12000, 60000])
SEL_N, SEL_FOLDS, SIZE_FOLDS = 2000, 5, 3
CV_MAX_N = 12000  # LIBSVM's C by CV on training sets up to this size


class Bench:
    def __init__(self, out, nesvm):
        self.out = out
        self.nesvm = nesvm
        self.raw_path = os.path.join(out, "raw.json")
        self.raw = {}
        if os.path.exists(self.raw_path):
            with open(self.raw_path) as f:
                self.raw = json.load(f)
        self.work = os.path.join(out, "work")
        os.makedirs(self.work, exist_ok=True)
        self.data = Data(os.path.join(HERE, "data"), log=lambda m: print(m, flush=True))
        self.expcount = kernelcount.build(self.work)
        if self.expcount is None:
            sys.exit("gs_svm.py: cannot compile bench/lib/expcount.c (gcc)")

    def save(self):
        tmp = self.raw_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.raw, f, indent=1, sort_keys=True)
        os.replace(tmp, self.raw_path)

    def cached(self, key, fn):
        if key not in self.raw:
            t0 = time.time()
            self.raw[key] = fn()
            print(f"{key}: {self.raw[key]} ({time.time() - t0:.1f} s)", flush=True)
            self.save()
        return self.raw[key]

    # ---- files --------------------------------------------------------
    def lines(self, name, split):
        with open(self.data.path(name, split)) as f:
            return f.readlines()

    def subset(self, name, n):
        """The first n training rows as a file (the whole file at full size)."""
        self.data.ensure(name)
        full = self.data.path(name, "train")
        meta = self.data.meta(name)
        if n >= meta["n_train"]:
            return full
        path = os.path.join(self.work, f"{name}-{n}.svm")
        if not os.path.exists(path):
            rows = self.lines(name, "train")[:n]
            with open(path + ".tmp", "w") as f:
                f.writelines(rows)
            os.replace(path + ".tmp", path)
        return path

    def folds(self, name, n, k):
        """k stratified folds (seed 0) of the n-row subset: [(train, test)]."""
        rows = open(self.subset(name, n)).readlines()
        y = np.array([float(r.split(None, 1)[0]) for r in rows])
        rng = np.random.default_rng(0)
        fold = np.empty(len(rows), dtype=int)
        for c in np.unique(y):
            idx = np.flatnonzero(y == c)
            idx = idx[rng.permutation(len(idx))]
            fold[idx] = np.arange(len(idx)) % k
        out = []
        for f in range(k):
            tr = os.path.join(self.work, f"{name}-{n}-k{k}-f{f}.train")
            te = os.path.join(self.work, f"{name}-{n}-k{k}-f{f}.test")
            if not (os.path.exists(tr) and os.path.exists(te)):
                with open(tr, "w") as a, open(te, "w") as b:
                    for r, fi in zip(rows, fold):
                        (b if fi == f else a).write(r)
            out.append((tr, te))
        return out

    # ---- runs ---------------------------------------------------------
    def timed(self, argv, env=None):
        t0 = time.perf_counter()
        p = subprocess.run(argv, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr.strip()}")
        return p.stdout, wall

    def libsvm(self, train, test, gamma, C, cache_mb=1000):
        model = os.path.join(self.work, "l.model")
        cnt = os.path.join(self.work, "l.count")
        env = kernelcount.env(self.expcount, cnt)
        out, wall = self.timed(["svm-train", "-s", "0", "-t", "2", "-g", str(gamma), "-c", str(C),
                                "-m", str(cache_mb), train, model], env)
        evals = kernelcount.read(cnt)
        nsv = int(re.findall(r"Total nSV = (\d+)", out)[-1])
        pout, pwall = self.timed(["svm-predict", test, model, os.path.join(self.work, "l.out")])
        m = re.search(r"Accuracy = ([0-9.]+)% \((\d+)/(\d+)\)", pout)
        return dict(train_wall=wall, predict_wall=pwall, evals=evals, sv=nsv,
                    correct=int(m.group(2)), total=int(m.group(3)), acc=float(m.group(1)))

    def gs(self, train, test, gamma, threads=1):
        model = os.path.join(self.work, "g.model")
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads))
        out, wall = self.timed([self.nesvm, "train", "--solver", "gs", "-t", "2", "-g", str(gamma),
                                "-m", "1000", "--threads", str(threads), train, model], env)
        n = int(re.search(r"read (\d+) rows", out).group(1))
        t = float(re.search(r"iterations \d+, time ([0-9.e+-]+) s", out).group(1))
        sv_sum = int(re.search(r"support vectors (\d+)", out).group(1))
        basis = int(re.search(r"basis (\d+) vectors", out).group(1))
        m = re.search(r"kernel evaluations (\d+) \((\d+) without the cache\), kernel columns computed (\d+), "
                      r"cache hits (\d+)", out)
        evals, asked, cols, hits = (int(m.group(q)) for q in range(1, 5))
        pout, pwall = self.timed([self.nesvm, "predict", test, model, os.path.join(self.work, "g.out")])
        m = re.search(r"Accuracy = ([0-9.]+)% \((\d+)/(\d+)\)", pout)
        return dict(train_wall=wall, train_time=t, predict_wall=pwall, evals=evals,
                    evals_nocache=asked, columns=cols, hits=hits, rows=n, sv=basis, sv_sum=sv_sum,
                    correct=int(m.group(2)), total=int(m.group(3)), acc=float(m.group(1)))

    def cv(self, tag, name, n, k, method, gamma, C=None):
        """Per-fold runs of one grid point; returns the pooled CV accuracy and
        the summed train + predict wall time."""
        folds = self.folds(name, n, k)
        runs = []
        for f, (tr, te) in enumerate(folds):
            key = f"{tag}/{name}/{n}/k{k}/{method}/g{gamma}" + (f"/C{C}" if C is not None else "") + f"/f{f}"
            runs.append(self.cached(key, (lambda tr=tr, te=te: self.libsvm(tr, te, gamma, C))
                                    if method == "libsvm" else (lambda tr=tr, te=te: self.gs(tr, te, gamma))))
        correct = sum(r["correct"] for r in runs)
        total = sum(r["total"] for r in runs)
        return dict(acc=100.0 * correct / total,
                    seconds=sum(r["train_wall"] + r["predict_wall"] for r in runs),
                    trainings=len(runs))

    # ---- parts --------------------------------------------------------
    def select(self, key):
        name = SETS[key][0]
        gs = {g: self.cv("sel", name, SEL_N, SEL_FOLDS, "gs", g) for g in GAMMAS}
        ls = {(g, C): self.cv("sel", name, SEL_N, SEL_FOLDS, "libsvm", g, C) for g in GAMMAS for C in CS}
        gbest = max(GAMMAS, key=lambda g: (gs[g]["acc"], -g))
        lbest = max(ls, key=lambda gc: (ls[gc]["acc"], -gc[1], -gc[0]))
        return dict(gs=gs, libsvm=ls, gs_gamma=gbest, libsvm_gamma=lbest[0], libsvm_C=lbest[1])

    def choose_C(self, name, n, gamma, sel):
        """LIBSVM's C by CV on the training set (see the module text)."""
        if n == SEL_N:
            return max(CS_SIZES, key=lambda C: (sel["libsvm"][(gamma, C)]["acc"], -C)), SEL_FOLDS, None
        cvs = {C: self.cv("size", name, n, SIZE_FOLDS, "libsvm", gamma, C) for C in CS_SIZES}
        best = max(CS_SIZES, key=lambda C: (cvs[C]["acc"], -C))
        return best, SIZE_FOLDS, cvs

    def sizes(self, key, sel):
        name, _, sizes = SETS[key]
        self.data.ensure(name)
        test = self.data.path(name, "test")
        rows = []
        for n in sizes:
            if n <= CV_MAX_N:  # larger sets keep the C chosen at the largest CV size
                C, _, cvs = self.choose_C(name, n, sel["libsvm_gamma"], sel)
                cfrom = n
            tr = self.subset(name, n)
            g = self.cached(f"size/{name}/{n}/gs/g{sel['gs_gamma']}", lambda: self.gs(tr, test, sel["gs_gamma"]))
            ll = self.cached(f"size/{name}/{n}/libsvm/g{sel['libsvm_gamma']}/C{C}",
                             lambda: self.libsvm(tr, test, sel["libsvm_gamma"], C))
            rows.append(dict(n=n, C=C, C_from=cfrom, cv=cvs, gs=g, libsvm=ll))
        return rows

    def multi(self, sel):
        name, _, sizes = MULTI
        self.data.ensure(name)
        test = self.data.path(name, "test")
        rows = []
        gamma_l = sel["libsvm_gamma"]
        C = gamma_g = None
        for n in sizes:
            if C is None:
                cvs = {c: self.cv("multi", name, n, SIZE_FOLDS, "libsvm", gamma_l, c) for c in CS_SIZES}
                C = max(CS_SIZES, key=lambda c: (cvs[c]["acc"], -c))
                gcv = {g: self.cv("multi", name, n, SIZE_FOLDS, "gs", g) for g in GAMMAS}
                gamma_g = max(GAMMAS, key=lambda g: (gcv[g]["acc"], -g))
                self.multi_cv = dict(n=n, libsvm=cvs, gs=gcv)
                cfrom = n
            tr = self.subset(name, n)
            g = self.cached(f"multi/{name}/{n}/gs/g{gamma_g}", lambda: self.gs(tr, test, gamma_g))
            ll = self.cached(f"multi/{name}/{n}/libsvm/g{gamma_l}/C{C}",
                             lambda: self.libsvm(tr, test, gamma_l, C))
            rows.append(dict(n=n, C=C, C_from=cfrom, cv=cvs if cfrom == n else None, gs=g, libsvm=ll,
                             gs_gamma=gamma_g, libsvm_gamma=gamma_l))
        return rows


# ---- report -----------------------------------------------------------
def fmt_s(x):
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def report(b, sels, sizes, multi, parts_done):
    L = ["# GS-SVM against LIBSVM on Fashion-MNIST", "",
         "Produced by `bench/gs_svm.py` (method in its docstring). Machine: "
         f"{b.machine['cpu']}, {b.machine['cores']} cores, {b.machine['mem_gib']:.1f} GiB; "
         f"libsvm-tools {b.machine['packages'].get('libsvm-tools', '?')}; {b.machine['nesvm']}.",
         "Every run is one process on one core; times are wall seconds of the process "
         "(reading included). Test error on the official test set.", ""]
    if "select" in parts_done:
        L += ["## Model selection (2,000 training rows, 5-fold CV, the same folds for both)", "",
              f"GS-SVM searches gamma in {GAMMAS} ({len(GAMMAS)} points); LIBSVM searches "
              f"gamma x C with C in {CS} ({len(GAMMAS) * len(CS)} points). "
              "Time = all trainings and predictions of the search.", "",
              "| data | method | grid points | trainings | total time (s) | best CV accuracy | chosen |",
              "|---|---|---|---|---|---|---|"]
        for key, sel in sels.items():
            title = SETS[key][1]
            gt = sum(v["seconds"] for v in sel["gs"].values())
            lt = sum(v["seconds"] for v in sel["libsvm"].values())
            gb = sel["gs"][sel["gs_gamma"]]["acc"]
            lb = sel["libsvm"][(sel["libsvm_gamma"], sel["libsvm_C"])]["acc"]
            L.append(f"| {title} | GS-SVM | {len(sel['gs'])} | {len(sel['gs']) * SEL_FOLDS} | {fmt_s(gt)} | "
                     f"{gb:.2f}% | gamma {sel['gs_gamma']} |")
            L.append(f"| {title} | LIBSVM | {len(sel['libsvm'])} | {len(sel['libsvm']) * SEL_FOLDS} | "
                     f"{fmt_s(lt)} | {lb:.2f}% | gamma {sel['libsvm_gamma']}, C {sel['libsvm_C']} |")
            L.append(f"| {title} | ratio LIBSVM / GS | | | {lt / gt:.1f}x | {lb - gb:+.2f} points | |")
        L.append("")
        for key, sel in sels.items():
            L += [f"CV accuracy (%) on {SETS[key][1]}, rows gamma:", "",
                  "| gamma | GS-SVM | " + " | ".join(f"LIBSVM C={C}" for C in CS) + " |",
                  "|---" * (2 + len(CS)) + "|"]
            for g in GAMMAS:
                L.append(f"| {g} | {sel['gs'][g]['acc']:.2f} | " +
                         " | ".join(f"{sel['libsvm'][(g, C)]['acc']:.2f}" for C in CS) + " |")
            L.append("")
    hdr = ("| data | rows | GS SV | GS error % | GS K1 (1e6) | GS K2 (1e6) | GS time (s) | GS train (s) | "
           "GS predict (s) | LIBSVM C | LIBSVM SV | LIBSVM error % | LIBSVM K1 (1e6) | LIBSVM time (s) | "
           "LIBSVM predict (s) | time ratio |")
    sep = "|---" * 16 + "|"

    def row(title, r):
        g, ll = r["gs"], r["libsvm"]
        cnote = "" if r["C_from"] == r["n"] else f" (CV at {r['C_from']:,})"
        return (f"| {title} | {r['n']:,} | {g['sv']:,} | {100 - g['acc']:.2f} | {g['evals'] / 1e6:.1f} | "
                f"{g['evals_nocache'] / 1e6:.1f} | {fmt_s(g['train_wall'])} | {fmt_s(g['train_time'])} | "
                f"{fmt_s(g['predict_wall'])} | {r['C']}{cnote} | {ll['sv']:,} | {100 - ll['acc']:.2f} | "
                f"{ll['evals'] / 1e6:.1f} | {fmt_s(ll['train_wall'])} | {fmt_s(ll['predict_wall'])} | "
                f"{ll['train_wall'] / g['train_wall']:.1f}x |")
    if "sizes" in parts_done:
        L += ["## Growing training sets (the paper's Table II)", "",
              "gamma: each method's own CV choice above. LIBSVM's C: CV on the training set over "
              f"{CS_SIZES} (5-fold at 2,000 from the search above, {SIZE_FOLDS}-fold at 6,000 and 12,000; "
              "60,000 rows use the C chosen at 12,000). K1: kernel values computed (with the 1 GB "
              "cache); K2: values without a cache (every value GS asked for). GS time: process wall; "
              "GS train: nesvm's training time without reading. Predict: the test set's process wall. "
              "Time ratio: LIBSVM / GS training wall.", "", hdr, sep]
        for key, rows in sizes.items():
            for r in rows:
                L.append(row(SETS[key][1], r))
        L.append("")
    if "multi" in parts_done:
        mc = b.multi_cv
        L += ["## Ten classes (one-vs-one for both)", "",
              f"3-fold CV at {mc['n']:,} rows: LIBSVM (gamma {multi[0]['libsvm_gamma']}) C = " +
              ", ".join(f"{c}: {v['acc']:.2f}% ({fmt_s(v['seconds'])} s)" for c, v in mc["libsvm"].items()) +
              "; GS-SVM gamma = " +
              ", ".join(f"{g}: {v['acc']:.2f}% ({fmt_s(v['seconds'])} s)" for g, v in mc["gs"].items()) +
              f". Chosen: LIBSVM gamma {multi[0]['libsvm_gamma']}, C {multi[0]['C']}; GS-SVM gamma "
              f"{multi[0]['gs_gamma']}.", "",
              "GS SV: distinct support vectors (the basis); GS K1/K2 as above, with the cache's "
              "column segments per class shared by the 45 pairs.", "", hdr, sep]
        for r in multi:
            L.append(row(MULTI[1], r))
        L.append("")
    notes = os.path.join(HERE, "notes", "gs-svm.md")  # the human reading of the numbers
    if os.path.exists(notes) and "multi" in parts_done:
        with open(notes) as f:
            L += [f.read()]
    with open(os.path.join(b.out, "RESULTS.md.tmp"), "w") as f:
        f.write("\n".join(L))
    os.replace(os.path.join(b.out, "RESULTS.md.tmp"), os.path.join(b.out, "RESULTS.md"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parts", default="select,sizes,multi")
    ap.add_argument("--out", default=os.path.join(HERE, "gs-run"))
    ap.add_argument("--nesvm-bin", default=os.path.join(ROOT, "build-bench", "nesvm"))
    a = ap.parse_args()
    parts = a.parts.split(",")
    b = Bench(os.path.abspath(a.out), os.path.abspath(a.nesvm_bin))
    b.machine = machine.describe(b.nesvm, ROOT)
    sels = {key: b.select(key) for key in SETS}  # cached after the first run
    sizes, multi = {}, []
    done = ["select"]
    report(b, sels, sizes, multi, done)
    if "sizes" in parts:
        sizes = {key: b.sizes(key, sels[key]) for key in SETS}
        done.append("sizes")
        report(b, sels, sizes, multi, done)
    if "multi" in parts:
        multi = b.multi(sels["0vr"])
        done.append("multi")
    report(b, sels, sizes, multi, done)


if __name__ == "__main__":
    main()
