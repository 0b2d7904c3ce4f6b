#!/usr/bin/python3
"""Distributed training (issue 21): time per iteration and bytes communicated
per iteration for each distributed solver, with 1, 2 and 3 MPI ranks and 1 and
2 threads per rank, against a model of the time per iteration.

Data: Fashion-MNIST 0 vs rest, training split (60,000 rows, 784 features,
23.4 million stored entries; bench/lib/datasets.py), every rank reading its
byte range of the one file.

Each row is one `nesvm train` process (1 rank: no mpirun, no --distributed;
P ranks: `mpirun -np P nesvm train --distributed`) with a fixed --max-iter, so
that every configuration does the same iterations:
  - seconds per iteration: from rank 0's trace (--trace), the elapsed time
    from the first iteration's report to the last over the iterations between,
    so the setup (reading, kernel features) is left out;
  - bytes and collectives per iteration: the summary's "distributed over P
    processes: C collectives, B bytes reduced or broadcast per process"
    divided by the iterations (setup collectives included).

The allreduce cost on this machine comes from bench/comm_bench.c (compiled
with mpicc): the median MPI_Allreduce time for 1 to 2^20 doubles with 2 and 3
ranks, fitted as t(b) = alpha + b / beta (b bytes).

Model of the time per iteration with P ranks of T threads on this 2-core
machine:
    t(P, T) = t(1, 1) / min(P e_T, 2) + C alpha_P + B / beta_P
(C collectives and B bytes per iteration; e_T = t(1, 1) / t(1, T), the
speed-up of T threads in one process, measured): the computation divides
among the processes and the cores actually there, and every collective pays
its latency and bandwidth.  The 1-rank rows calibrate t(1, 1) and e_2; the
others check the model (measured / modelled in the table).

    bench/scaling_row.py [--out DIR] [--nesvm-bin PATH] [--quick]
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe"]

# (name, options): a fixed number of iterations each
SOLVERS = [
    ("nesvm Newton (C-SVM)", ["-c", "1", "--max-iter", "12"]),
    ("nesvm Nesterov (C-SVM)", ["-c", "1", "--method", "nesterov", "--max-iter", "150"]),
    ("hyperpass -B 1", ["--solver", "hyperpass", "-B", "1", "-c", "1", "--max-iter", "40"]),
    ("nssvm (linear)", ["--solver", "nssvm", "-c", "1", "--max-iter", "8"]),
    ("nssvm rbf, basis 400", ["--solver", "nssvm", "-t", "2", "--basis", "400", "-c", "1", "--max-iter", "8"]),
    ("gs rbf", ["--solver", "gs", "-t", "2", "--max-iter", "150"]),
]


def run(cmd, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {(r.stderr or r.stdout).strip()[-400:]}")
    return r.stdout, time.perf_counter() - t0


def per_iteration(trace):
    """Seconds per iteration between the first and last reports of the trace."""
    with open(trace) as f:
        rows = list(csv.DictReader(f))
    if len(rows) < 3:
        return float("nan"), len(rows)
    t = [float(r["seconds"]) for r in rows]
    return (t[-1] - t[0]) / (len(t) - 1), len(rows)


def comm_fit(binary, p):
    out, _ = run(MPIRUN + ["-np", str(p), binary])
    pts = [tuple(float(x) for x in line.split()) for line in out.strip().splitlines()]
    alpha = pts[0][1]
    big = pts[-1]
    beta = (big[0] * 8) / max(big[1] - alpha, 1e-12)
    return alpha, beta, pts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "scaling-run"))
    ap.add_argument("--nesvm-bin", default=os.path.join(ROOT, "build-mpi", "nesvm"))
    ap.add_argument("--quick", action="store_true", help="only nesvm Newton and hyperpass")
    args = ap.parse_args()
    from lib.datasets import Data
    data = Data(os.path.join(HERE, "data"))
    data.ensure("fmnist-zero-rest")
    path = data.path("fmnist-zero-rest", "train")
    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="nesvm-scaling-")
    try:
        cb = os.path.join(tmp, "comm_bench")
        subprocess.run(["mpicc", "-O2", os.path.join(HERE, "comm_bench.c"), "-o", cb], check=True)
        fits = {p: comm_fit(cb, p) for p in (2, 3)}
        rows = []
        solvers = SOLVERS[:1] + SOLVERS[2:3] if args.quick else SOLVERS
        for name, opts in solvers:
            base = None
            eff = {}
            for p in (1, 2, 3):
                for t in (1, 2):
                    trace = os.path.join(tmp, "trace.csv")
                    model = os.path.join(tmp, "m.model")
                    cmd = ([args.nesvm_bin, "train"] if p == 1 else
                           MPIRUN + ["-np", str(p), args.nesvm_bin, "train", "--distributed"])
                    cmd += opts + ["--threads", str(t), "--trace", trace, path, model]
                    env = dict(os.environ, OMP_NUM_THREADS=str(t), OPENBLAS_NUM_THREADS="1")
                    out, wall = run(cmd, env)
                    spi, reports = per_iteration(trace)
                    it = int(re.search(r"iterations (\d+), time ([\d.]+) s", out).group(1))
                    train_s = float(re.search(r"iterations \d+, time ([\d.]+) s", out).group(1))
                    m = re.search(r"distributed over \d+ processes: (\d+) collectives, (\d+) bytes", out)
                    coll, byt = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
                    if p == 1:
                        eff[t] = base / spi if t > 1 else 1.0
                        if t == 1:
                            base = spi
                            eff[1] = 1.0
                    model_s = float("nan")
                    if base is not None and t in eff:
                        model_s = base / min(p * eff[t], 2)
                        if p > 1:
                            alpha, beta, _ = fits[p]
                            model_s += coll / it * alpha + byt / it / beta
                    rows.append(dict(solver=name, ranks=p, threads=t, iterations=it, train_s=train_s,
                                     wall_s=wall, s_per_iter=spi, coll_per_iter=coll / it if it else 0,
                                     bytes_per_iter=byt / it if it else 0, model_s=model_s))
                    print(f"{name:26s} P={p} T={t}: {spi * 1e3:8.2f} ms/iter (model {model_s * 1e3:8.2f}), "
                          f"{byt / it if it else 0:10.0f} B/iter, {coll / it if it else 0:6.1f} coll/iter, "
                          f"train {train_s:.2f} s, wall {wall:.2f} s", flush=True)
        with open(os.path.join(args.out, "scaling.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        with open(os.path.join(args.out, "comm.csv"), "w") as f:
            f.write("ranks,doubles,seconds\n")
            for p, (alpha, beta, pts) in fits.items():
                for n, s in pts:
                    f.write(f"{p},{int(n)},{s:.9f}\n")
        print("allreduce fit: " + ", ".join(f"P={p}: alpha {a * 1e6:.2f} us, beta {b / 1e9:.2f} GB/s"
                                           for p, (a, b, _) in fits.items()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
