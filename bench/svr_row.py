#!/usr/bin/python3
"""The epsilon-SVR rows of issue 32: nesvm against LIBLINEAR (linear) and
LIBSVM (kernel), same run, one thread, ratios.

Rows (data prepared once under bench/data/ by lib/datasets.py and
lib/synthetic.py; nothing is downloaded):

  linear  synth-sparse-reg: 200,000 + 20,000 rows x 100,000 features, text-like
          unit-norm tf-idf rows (synthetic.py sparse-reg, seed 4), targets
          y = x.w* + N(0, 0.2^2) with a sparse w* scaled to unit score deviation.
          C = 1, p = 0.1 (LIBLINEAR's default; the noise's deviation is 0.2), no
          bias.  Problems: the squared tube (sq) 1/2 ||w||^2 + C sum max(0,
          |y - w.x| - p)^2 = LIBLINEAR -s 11 (primal) and -s 12 (dual), and the
          tube (l1) 1/2 ||w||^2 + C sum max(0, |y - w.x| - p) = LIBLINEAR -s 13.
  csweep  synth-sparse-reg-20k (the same generator, 20,000 + 5,000 rows), C =
          1e-3, 1e-2, ..., 1e3, p = 0.1: sq against -s 11 and -s 12, l1 against
          -s 13.
  kernel  Friedman #1 (make_friedman1(n, 10 features, noise 1, random_state 0),
          test: 5,000 rows, random_state 1) at 20,000 rows (--big: and 100,000;
          --quick: 2,000): `nesvm train -s 3 -p 0.1 -t 2 -g 0.1 -c 1 -e 1e-3
          --threads 1` against `svm-train -s 3 -p 0.1 -t 2 -g 0.1 -c 1 -m 1000`
          (LIBSVM's default -e 1e-3), test MSE from `nesvm predict` and
          `svm-predict`'s prediction files.

Linear runs, one process at a time, OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = 1
for every tool:

  nesvm      `nesvm train --liblinear 11|13 -c C -p 0.1 -e 1e-3 --threads 1
             --time-limit T`: its certified relative gap (the model's `submodel
             ... gap`); its objective is also recomputed.
  P_best     the smallest objective recomputed with numpy from the model files
             (lib/objectives.py svr_primal) over every run of the point and a
             tight run `nesvm ... -e 1e-6` (limit: 10x nesvm's 1e-3 time, at least
             30 s, at most --ref-timeout; none when that run did not converge),
             cached in bench/data/pbest/<data>/svr_<loss>-C<C>-p0.1/.  D_best =
             the largest lower bound nesvm printed; (P_best - D_best) / P_best
             certifies P_best.
  LIBLINEAR  `liblinear-train -s S -c C -p 0.1 -e E` for E = 1e-1, ..., 1e-6 in
             turn until its recomputed (P - P_best) / P_best <= 1e-3; its time is
             that of the first run that gets there (c_sweep.py's rule, whose
             functions this script uses: the sweep also stops at a failed run and
             at a dual run capped at 1,000 iterations without a '*').

Times are process wall times (reading included), with the peak RSS from
lib/proc.py; a run under 1 s is run 3 times and its median kept.  Every
process gets --timeout + 60 s (nesvm gets --timeout as its --time-limit and
writes what it has); a run stopped there is "> T".  Iterations: nesvm's
`iterations N`, LIBLINEAR's `#iter` (dual) or its last `iter N` (-s 11's
Newton), LIBSVM's `#iter`.  Linear test MSE: numpy from the model's w on the
test rows.

Targets: linear, nesvm <= 0.5x LIBLINEAR -s 11 and <= 0.5x -s 12 to the same
objective (-s 13: reported, no target); csweep, nesvm <= 1x LIBLINEAR at every
C; kernel, nesvm <= 0.5x LIBSVM's time and nesvm's test MSE at most 1% above
LIBSVM's (a lower MSE is not a miss).

Results are kept in OUT/raw.json as runs finish (a rerun skips what is there;
--redo nesvm,liblinear,libsvm,ref runs those again).  OUT/RESULTS.md (with the
machine, commit, `uptime` at the start and end of each session and every
command line) and OUT/plots/ are written at the end (--report-only: from
raw.json alone).  --wait-quiet M polls `uptime` every 60 s for up to M minutes
until the 1-minute load is below 1.0 before the first timed run, and records
what it saw.

    bench/svr_row.py [--rows linear,csweep,kernel] [--quick] [--big] [--losses sq,l1]
                     [--C 1e-3,...] [--timeout 300] [--ref-timeout 600] [--wait-quiet 0]
                     [--out DIR] [--nesvm-bin build/nesvm] [--redo nesvm,...] [--report-only]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import c_sweep as cs  # noqa: E402
from lib import machine, models, objectives, proc  # noqa: E402
from lib import tools as T  # noqa: E402

ROWS = ("linear", "csweep", "kernel")
LOSSES = {"sq": dict(nesvm=11, linear=(11, 12), sweep=(11, 12), squared=True,
                     text="squared tube, 1/2 ||w||^2 + C sum max(0, |y - w.x| - p)^2"),
          "l1": dict(nesvm=13, linear=(13,), sweep=(13,), squared=False,
                     text="tube, 1/2 ||w||^2 + C sum max(0, |y - w.x| - p)")}
DATA = {"linear": "synth-sparse-reg", "csweep": "synth-sparse-reg-20k", "kernel": "friedman1-20k"}
QUICK = {"linear": "synth-sparse-reg-20k", "csweep": "synth-sparse-reg-20k", "kernel": "friedman1-2k"}
BIG = "friedman1-100k"
TARGET_DATA = ("friedman1-20k", BIG)       # the kernel sizes the targets are about
P_TUBE, C_LINEAR = 0.1, 1.0
CS = cs.CS
QUICK_CS = [1e-2, 1.0, 100.0]
LL_EPS, GAP, GRACE = cs.LL_EPS, cs.GAP, cs.GRACE
KERNEL = ["-s", "3", "-p", "0.1", "-t", "2", "-g", "0.1", "-c", "1"]
TARGET_LINEAR, TARGET_SWEEP, TARGET_KERNEL, MSE_TOL = 0.5, 1.0, 0.5, 0.01
SHORT, SHORT_RUNS = cs.SHORT, cs.SHORT_RUNS
GROUPS = ("nesvm", "liblinear", "libsvm", "ref")
QUIET_LOAD, POLL = 1.0, 60.0


# ---- pure functions (bench/tests/test_lib.py) ---------------------------------------------------

def fmt(x):
    return "%g" % x


def prefix(data, loss, C):
    return f"{data}|{loss}|C={C:g}|"


def nesvm_linear_argv(nesvm, loss, C, tol, limit, train, model):
    return [nesvm, "train", "--liblinear", str(LOSSES[loss]["nesvm"]), "-c", fmt(C), "-p", fmt(P_TUBE),
            "-e", fmt(tol), "--threads", "1", "--time-limit", fmt(limit), train, model]


def liblinear_argv(s, C, eps, train, model):
    return ["liblinear-train", "-s", str(s), "-c", fmt(C), "-p", fmt(P_TUBE), "-e", fmt(eps), train, model]


def kernel_argv(tool, nesvm, limit, train, model):
    if tool == "nesvm":
        return [nesvm, "train"] + KERNEL + ["-e", "1e-3", "--threads", "1", "--time-limit", fmt(limit),
                                            train, model]
    return ["svm-train"] + KERNEL + ["-m", "1000", train, model]


def ll_target(t_n, n_done, sel, bound):
    """nesvm's time against LIBLINEAR's selection (c_sweep.ll_select): met
    when nesvm converged and LIBLINEAR could not reach the gap at any -e
    ('cap', 'end'); else c_sweep.ratio_target."""
    if sel["why"] in ("cap", "end") and not sel["reached"]:
        return ("LIBLINEAR did not reach", "met") if n_done else ("—", "not measured")
    if sel["why"] == "open":
        return "—", "not measured"
    return cs.ratio_target(t_n, n_done, sel["time"], sel["reached"], bound)


def ll_cap_facts(s, stdout, info):
    """What c_sweep.ll_stop needs to stop LIBLINEAR's -e sweep at a capped run
    that every tighter -e repeats: the dual CD's (-s 12, 13) un-shrinkings
    ('*'); -s 11's trust-region Newton prints no warning at its cap of 1,000
    iterations, and -e enters it only in its stopping test (with one thread,
    -e 1e-5 and 1e-6 at C = 100 on synth-sparse-reg-20k gave byte-identical
    models), so a run at the cap is marked max-iter without un-shrinkings."""
    if s in (12, 13):
        info["unshrinks"] = stdout.count("*")
    elif s == 11 and info.get("iterations", 0) >= 1000:
        info.update(exit="max-iter", unshrinks=0)


def mse_target(mse_n, mse_l, tol=MSE_TOL):
    """(relative difference (nesvm - LIBSVM) / LIBSVM, verdict): met when
    nesvm's test MSE is at most (1 + tol) x LIBSVM's."""
    if mse_n is None or mse_l is None or mse_l <= 0:
        return None, "not measured"
    r = (mse_n - mse_l) / mse_l
    return r, "met" if r <= tol else "missed"


def all_points(verdicts):
    """Target 'at every point' from the points' verdicts: missed if any is,
    met if all are, else not measured."""
    if "missed" in verdicts:
        return "missed"
    return "met" if verdicts and all(v == "met" for v in verdicts) else "not measured"


def short_argv(argv, out):
    """A command line for the report: the repository's and OUT's paths shortened."""
    res = []
    for a in argv:
        a = str(a)
        for base, name in ((os.path.join(out, ""), "OUT/"), (os.path.join(ROOT, ""), "")):
            if a.startswith(base):
                a = name + a[len(base):]
        res.append(a)
    return " ".join(res)


def key_order(key):
    """Sort key of raw.json's keys: data, loss, C as a number, then the run's
    label in the order the runs are made (nesvm, its reference, LIBLINEAR by
    solver and decreasing -e)."""
    parts = key.split("|")
    if len(parts) < 4 or not parts[2].startswith("C="):
        return (parts[0], "", 0.0, 0, 0, 0.0, key)
    label = parts[3]
    rank = 0 if label == "nesvm" else 1 if label.startswith("ref") else 2
    s, e = 0, 0.0
    if label.startswith("liblinear -s "):
        s, e = int(label.split()[2]), -float(label.split("e=")[1])
    return (parts[0], parts[1], float(parts[2][2:]), rank, s, e, key)


def quiet_enough(load1, threshold=QUIET_LOAD):
    return load1 < threshold


# ---- runs ---------------------------------------------------------------------------------------

def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def wait_quiet(minutes, log):
    """Poll the load every POLL s for up to ``minutes`` until the 1-minute
    load is below QUIET_LOAD; returns what was seen."""
    t0, polls = time.time(), []
    while True:
        load = os.getloadavg()[0]
        polls.append(round(load, 2))
        if quiet_enough(load) or time.time() - t0 >= minutes * 60:
            break
        log(f"load {load:.2f}, waiting ({(time.time() - t0) / 60:.0f} of {minutes:g} min)")
        time.sleep(POLL)
    return {"minutes": round((time.time() - t0) / 60, 1), "quiet": quiet_enough(polls[-1]),
            "loads": polls, "uptime": uptime()}


class Bench(cs.RunStore):
    def execute(self, argv, rundir, timeout, adapter, s=None):
        """One process in a fresh ``rundir`` (model file 'model'); its record."""
        os.makedirs(rundir, exist_ok=True)
        for f in os.listdir(rundir):
            os.remove(os.path.join(rundir, f))
        out, err = os.path.join(rundir, "stdout.txt"), os.path.join(rundir, "stderr.txt")
        started, load = time.strftime("%Y-%m-%dT%H:%M:%S"), round(os.getloadavg()[0], 2)
        r = proc.run(argv, out, err, timeout=timeout,
                     env=dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1"))
        with open(out, errors="replace") as f:
            stdout = f.read()
        info = T.parse_output(T.Tool("x", adapter, {"s": s}), stdout, "")
        if adapter == "liblinear":
            ll_cap_facts(s, stdout, info)
        model = os.path.join(rundir, "model")
        status = ("error" if r["error"] else "timeout" if r["timed_out"] else
                  "failed" if r["returncode"] != 0 or not os.path.exists(model) else "ok")
        rec = {"status": status, "wall": r["wall"], "maxrss_kb": r["maxrss_kb"], "cpu": r.get("cpu"),
               "argv": r["argv"], "started": started, "load": load, "info": info,
               "error": None if status == "ok" else r["error"] or stdout[-300:],
               "model": "model" if os.path.exists(model) else None}
        if adapter == "nesvm" and rec["model"]:
            subs = models.read_nesvm_info(model)
            if subs:
                rec["cert_gap"] = subs[0]["gap"]
        return rec

    def timed(self, argv_of, rundir, timeout, adapter, s=None):
        """execute(), repeated while an ok run is under SHORT s (the median kept)."""
        walls = []
        while True:
            rec = self.execute(argv_of(os.path.join(rundir, "model")), rundir, timeout, adapter, s)
            walls.append(rec["wall"])
            if rec["status"] != "ok" or rec["wall"] >= SHORT or len(walls) >= SHORT_RUNS:
                break
        rec["walls"] = walls
        if rec["status"] == "ok":
            rec["wall"] = sorted(walls)[len(walls) // 2]
        return rec

    def fresh(self, key, group, data):
        rec = self.raw.get(key)
        redo = group in self.redo and key not in self.redone
        return rec is None or rec.get("signature") != self.data.signature(data) or redo

    def linear_facts(self, data, loss, C, rundir, rec):
        """P (training objective) and test MSE of a linear run's model."""
        if rec["status"] != "ok" or not rec.get("model"):
            return
        m = models.read_linear_svr(os.path.join(rundir, rec["model"]))
        X, y = self.data.load(data, "train")
        rec["P"] = objectives.svr_primal(X, y, m, C, P_TUBE, LOSSES[loss]["squared"])
        if m.b != 0:
            rec["note"] = f"model has b = {m.b:g} (expected none)"
        Xt, yt = self.data.load(data, "test")
        rec["test_mse"] = objectives.mse(Xt, yt, m)

    def linear_run(self, data, loss, C, label, group, argv_of, adapter, s=None):
        key = prefix(data, loss, C) + label
        if not self.fresh(key, group, data):
            return self.raw[key]
        rundir = os.path.join(self.work, data, loss, f"C{C:g}", label.replace(" ", "_").replace("=", ""))
        self.log(f"{key} ...")
        rec = self.timed(argv_of, rundir, self.timeout + GRACE, adapter, s)
        self.linear_facts(data, loss, C, rundir, rec)
        rec.update(signature=self.data.signature(data), dir=os.path.relpath(rundir, self.out))
        if adapter == "nesvm":
            rec["nesvm"] = self.nesvm_desc
        self.raw[key] = rec
        self.redone.add(key)
        self.save()
        self.log(f"{key}: {rec['status']}, {rec['wall']:.2f} s, P {rec.get('P')}, info {rec['info']}")
        return rec

    def reference(self, data, loss, C, nesvm_rec):
        """nesvm -e 1e-6, cached in bench/data/pbest (redone when today's
        limit is over 1.5x a cached unconverged run's, or --redo ref)."""
        limit = cs.nesvm_ref_limit(nesvm_rec, self.ref_timeout)
        if limit is None:
            return
        rundir = os.path.join(self.data.dir, "pbest", data, f"svr_{loss}-C{C:g}-p{P_TUBE:g}", "nesvm-e1e-6")
        rjson = os.path.join(rundir, "run.json")
        rec = None
        if os.path.exists(rjson):
            with open(rjson) as f:
                rec = json.load(f)
            conv = rec["status"] == "ok" and rec["info"].get("exit") == "converged"
            if rec.get("signature") != self.data.signature(data) or ("ref" in self.redo and
                                                                    rjson not in self.redone) \
                    or (not conv and cs.run_limit(rec["argv"]) < limit * 2 / 3):
                rec = None
        if rec is None:
            self.log(f"{prefix(data, loss, C)}ref nesvm -e 1e-6 (limit {limit:g} s) ...")
            train = self.data.path(data, "train")
            rec = self.execute(nesvm_linear_argv(self.nesvm, loss, C, 1e-6, limit, train,
                                                 os.path.join(rundir, "model")),
                               rundir, limit + GRACE, "nesvm")
            self.linear_facts(data, loss, C, rundir, rec)
            rec.update(signature=self.data.signature(data), nesvm=self.nesvm_desc)
            with open(rjson, "w") as f:
                json.dump(rec, f, indent=1)
            self.redone.add(rjson)
            self.log(f"  {rec['status']}, {rec['wall']:.2f} s, P {rec.get('P')}, info {rec['info']}")
        self.raw[prefix(data, loss, C) + "ref nesvm -e 1e-6"] = dict(rec, dir=os.path.relpath(rundir, self.out))
        self.save()

    def linear_point(self, data, loss, C, solvers):
        """nesvm, its reference, then LIBLINEAR's -e sweep for each of ``solvers``."""
        train = self.data.path(data, "train")
        n = self.linear_run(data, loss, C, "nesvm", "nesvm", lambda m: nesvm_linear_argv(
            self.nesvm, loss, C, GAP, self.timeout, train, m), "nesvm")
        self.reference(data, loss, C, n)
        for s in solvers:
            for eps in LL_EPS:
                rec = self.linear_run(data, loss, C, f"liblinear -s {s} e={eps:g}", "liblinear",
                                      lambda m: liblinear_argv(s, C, eps, train, m), "liblinear", s)
                pb, _ = cs.p_best_of(candidates(self.raw, data, loss, C))
                if cs.ll_stop(rec, pb) is not None:
                    break

    def kernel(self, data):
        train, test = self.data.path(data, "train"), self.data.path(data, "test")
        for tool, group, adapter in (("nesvm", "nesvm", "nesvm"), ("libsvm", "libsvm", "libsvm")):
            key = f"{data}|kernel|{tool}"
            if not self.fresh(key, group, data):
                continue
            rundir = os.path.join(self.work, data, "kernel", tool)
            self.log(f"{key} ...")
            rec = self.timed(lambda m: kernel_argv(tool, self.nesvm, self.timeout, train, m), rundir,
                             self.timeout + GRACE, adapter)
            if rec["status"] == "ok":
                pred = os.path.join(rundir, "predictions")
                pargv = ([self.nesvm, "predict"] if tool == "nesvm" else ["svm-predict"]) + \
                    [test, os.path.join(rundir, "model"), pred]
                pr = proc.run(pargv, pred + ".stdout", pred + ".stderr", timeout=self.timeout + GRACE,
                              env=dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1"))
                rec["predict"] = {"argv": pr["argv"], "wall": pr["wall"], "returncode": pr["returncode"]}
                if pr["returncode"] == 0:
                    import numpy as np
                    yt = self.data.load(data, "test")[1]
                    rec["test_mse"] = float(np.mean((np.loadtxt(pred) - yt) ** 2))
            rec.update(signature=self.data.signature(data), dir=os.path.relpath(rundir, self.out))
            if tool == "nesvm":
                rec["nesvm"] = self.nesvm_desc
            self.raw[key] = rec
            self.redone.add(key)
            self.save()
            self.log(f"{key}: {rec['status']}, {rec['wall']:.2f} s, MSE {rec.get('test_mse')}, "
                     f"info {rec['info']}")


def candidates(raw, data, loss, C):
    pre = prefix(data, loss, C)
    return [(k[len(pre):], v.get("P")) for k, v in raw.items() if k.startswith(pre)]


# ---- analysis -----------------------------------------------------------------------------------

def analyse_point(raw, data, loss, C, solvers, bound):
    pre = prefix(data, loss, C)
    pb, pfrom = cs.p_best_of(candidates(raw, data, loss, C))
    lows = [v["info"]["lower"] for k, v in raw.items() if k.startswith(pre) and "nesvm" in k
            and v.get("status") == "ok" and v.get("info", {}).get("lower") is not None]
    db = max(lows) if lows else None
    n = raw.get(pre + "nesvm")
    n_done = cs.reached(n)
    ll = {}
    for s in solvers:
        sweep = []
        for e in LL_EPS:
            if pre + f"liblinear -s {s} e={e:g}" not in raw:
                break
            sweep.append((e, raw[pre + f"liblinear -s {s} e={e:g}"]))
        sel = cs.ll_select(sweep, pb)
        rec = dict(sweep)[sel["eps"]] if sel["eps"] is not None else None
        ll[s] = dict(sel=sel, sweep=sweep, rec=rec,
                     target=ll_target(n["wall"] if n else None, n_done, sel, bound))
    return dict(C=C, p_best=pb, p_from=pfrom, d_best=db,
                cert=None if pb is None or db is None else (pb - db) / abs(pb),
                nesvm=n, n_done=n_done, n_gap=cs.rel_gap(n.get("P") if n else None, pb), ll=ll)


def kernel_point(raw, data):
    n, lb = raw.get(f"{data}|kernel|nesvm"), raw.get(f"{data}|kernel|libsvm")
    if n is None and lb is None:
        return None
    n_done = cs.reached(n)
    l_done = None if lb is None else (False if lb["status"] == "timeout" else
                                      True if lb["status"] == "ok" else None)
    t = cs.ratio_target(n["wall"] if n else None, n_done, lb["wall"] if lb else None, l_done, TARGET_KERNEL)
    m = mse_target((n or {}).get("test_mse"), (lb or {}).get("test_mse"))
    return dict(nesvm=n, libsvm=lb, n_done=n_done, time=t, mse=m)


# ---- report -------------------------------------------------------------------------------------

fg, mark, mb = cs.fg, cs.mark, cs.mb


def ft(rec, done=True):
    return cs.fs(rec, done)


def it(rec):
    v = (rec or {}).get("info", {}).get("iterations")
    return "—" if v is None else str(v)


def fmse(rec):
    v = (rec or {}).get("test_mse")
    return "—" if v is None else f"{v:.5g}"


def sweep_cells(p, s):
    cells = []
    for e, r in p["ll"][s]["sweep"]:
        g = cs.rel_gap(r.get("P"), p["p_best"])
        cap = ", cap" if r.get("info", {}).get("exit") == "max-iter" else ""
        cells.append(f"{e:g}: {r['wall']:.3g} s, {fg(g)}{cap}" if r["status"] == "ok" else f"{e:g}: {r['status']}")
    return "; ".join(cells) or "—"


def ll_cell(ll):
    sel = ll["sel"]
    if sel["reached"]:
        return f"{sel['time']:.3g} (-e {sel['eps']:g})"
    if sel["why"] == "open":
        return "—"
    return {"cap": "did not reach (1,000-iteration cap at -e %g)", "failed": "did not reach (-e %g failed)",
            "end": "did not reach (-e down to %g)"}[sel["why"]] % sel["eps"]


def split_text(pts):
    """Where the time goes: nesvm's printed reading and solver seconds, and
    LIBLINEAR's fastest run of the points (its start-up, reading and a few
    iterations: an upper bound on what it spends before solving)."""
    rt = [p["nesvm"]["info"].get("read_time") for p in pts if p["nesvm"]]
    st = [p["nesvm"]["info"].get("solve_time") for p in pts if p["nesvm"]]
    ll = [(r["wall"], r["argv"][2], r["info"].get("iterations")) for p in pts for x in p["ll"].values()
          for _, r in x["sweep"] if r["status"] == "ok"]
    if None in rt or None in st or not rt or not ll:
        return ""
    rng = lambda v: f"{min(v):.3g}" if min(v) == max(v) else f"{min(v):.3g}-{max(v):.3g}"  # noqa: E731
    w, s, its = min(ll)
    return (f"nesvm's printed reading time: {rng(rt)} s, solver time: {rng(st)} s; LIBLINEAR's fastest run: "
            f"{w:.3g} s (-s {s}, {its} iteration(s); start-up, reading and those iterations).")


def pbest_text(p):
    pb = "—" if p["p_best"] is None else f"{p['p_best']:.10g} ({p['p_from']})"
    return f"P_best {pb}, certified to {fg(p['cert'])} by nesvm's lower bound"


def linear_section(raw, data, out, meta):
    dm = meta.get("data", {}).get(data, {})
    L = [f"## Row 1: linear epsilon-SVR, `{data}`", "",
         f"{dm.get('n_train', 0):,} training rows x {dm.get('d', 0):,} features, {dm.get('nnz_train', 0):,} "
         f"non-zeros; {dm.get('n_test', 0):,} test rows (target deviation {dm.get('target_std', 0):.3g}). "
         f"C = {C_LINEAR:g}, p = {P_TUBE:g}, no bias.", ""]
    summary = []
    for loss, lo in LOSSES.items():
        if prefix(data, loss, C_LINEAR) + "nesvm" not in raw:
            continue
        p = analyse_point(raw, data, loss, C_LINEAR, lo["linear"], TARGET_LINEAR)
        n = p["nesvm"]
        L += [f"### {loss}: {lo['text']}", "", pbest_text(p) + ".", "",
              "| tool | time (s) | peak MB | iterations | gap to P_best | test MSE | nesvm / tool | target |",
              "|---|---|---|---|---|---|---|---|",
              f"| nesvm --liblinear {lo['nesvm']} -e 1e-3 | {ft(n, p['n_done'])} | {mb(n)} | {it(n)} | "
              f"{fg(p['n_gap'])} (certified {fg((n or {}).get('cert_gap'))}) | {fmse(n)} | | |"]
        for s, ll in p["ll"].items():
            r = ll["rec"]
            goal = f"<= {TARGET_LINEAR:g}: {mark(ll['target'][1])}" if s in (11, 12) else "(no target)"
            L.append(f"| LIBLINEAR -s {s} to 1e-3 | {ll_cell(ll)} | {mb(r)} | {it(r)} | "
                     f"{fg(cs.rel_gap((r or {}).get('P'), p['p_best']))} | {fmse(r)} | {ll['target'][0]} | {goal} |")
            if s in (11, 12):
                summary.append((f"linear {loss}: nesvm <= 0.5x LIBLINEAR -s {s} to 1e-3", data,
                                ll["target"][0], ll["target"][1]))
        L += ["", "LIBLINEAR's -e sweeps (time, recomputed gap to P_best): "
              + " | ".join(f"-s {s}: {sweep_cells(p, s)}" for s in p["ll"]) + ". " + split_text([p]), ""]
    return L, summary


def sweep_section(raw, data, Cs, meta):
    L = [f"## Row 2: C sweep, `{data}`", "",
         f"{meta.get('data', {}).get(data, {}).get('n_train', 0):,} training rows, p = {P_TUBE:g}, no bias. "
         "Target: nesvm <= 1x LIBLINEAR's time to the same 1e-3 at every C.", ""]
    summary, series = [], {}
    for loss, lo in LOSSES.items():
        pts = [analyse_point(raw, data, loss, C, lo["sweep"], TARGET_SWEEP) for C in Cs
               if prefix(data, loss, C) + "nesvm" in raw]
        if not pts:
            continue
        for s in lo["sweep"]:
            spts = [p for p in pts if s in p["ll"]]
            if not spts:
                continue
            L += [f"### {loss} against LIBLINEAR -s {s} ({lo['text']}) "
                  f"![time against C](plots/csweep-{data}-{loss}-s{s}.png)",
                  "", "| C | nesvm (s) | iterations | nesvm gap: certified / to P_best | peak MB | LIBLINEAR to 1e-3 (s) "
                  "| its iterations | nesvm / LIBLINEAR | <= 1 | P_best's certificate | LIBLINEAR -e sweep |",
                  "|---" * 11 + "|"]
            for p in spts:
                n, ll = p["nesvm"], p["ll"][s]
                L.append(f"| {p['C']:g} | {ft(n, p['n_done'])} | {it(n)} | {fg((n or {}).get('cert_gap'))} / "
                         f"{fg(p['n_gap'])} | {mb(n)} | {ll_cell(ll)} | {it(ll['rec'])} | {ll['target'][0]} | "
                         f"{mark(ll['target'][1])} | {fg(p['cert'])} | {sweep_cells(p, s)} |")
            v = [p["ll"][s]["target"][1] for p in spts]
            verdict = all_points(v) if len(spts) == len(Cs) else ("missed" if "missed" in v else "not measured")
            L += ["", f"{v.count('met')} of {len(Cs)} C met, {v.count('missed')} missed, "
                  f"{len(Cs) - v.count('met') - v.count('missed')} not measured: {mark(verdict)}. "
                  + split_text(spts), ""]
            summary.append((f"C sweep {loss}: no C where nesvm is slower than LIBLINEAR -s {s}", data,
                            f"{v.count('met')} of {len(Cs)} C met", verdict))
        series[loss] = pts
    return L, summary, series


def kernel_section(raw, names):
    L = ["## Row 3: kernel epsilon-SVR, Friedman #1", "",
         "`nesvm train " + " ".join(KERNEL) + " -e 1e-3 --threads 1` against `svm-train " + " ".join(KERNEL)
         + " -m 1000`; test MSE on 5,000 rows from each tool's predict program; targets: time <= 0.5x LIBSVM's, "
         "test MSE at most 1% above LIBSVM's. (P - D) / P: nesvm's printed primal P against the dual value "
         "LIBSVM prints (-obj), a lower bound of the same problem up to LIBSVM's single-precision kernel "
         "values.", ""]
    summary = []
    if not any(kernel_point(raw, d) for d in TARGET_DATA):
        L += ["**Kernel rows: pending the working-set change** (nesvm's kernel SVR solver was being changed "
              "when this run was made; the 20,000- and 100,000-row measurements are left for after it).", ""]
        summary.append(("kernel: time <= 0.5x LIBSVM, test MSE within 1%", "friedman1-20k, -100k",
                        "pending the working-set change", "not measured"))
    else:
        summary += [("kernel: time <= 0.5x LIBSVM, test MSE within 1%", d, "not run" + (" (--big)" if d == BIG
                                                                                      else ""), "not measured")
                    for d in TARGET_DATA if not kernel_point(raw, d)]
    points = [(d, kernel_point(raw, d)) for d in names if kernel_point(raw, d)]
    if points:
        L += ["| data | nesvm (s) | its certified gap | nesvm peak MB | iterations | LIBSVM (s) | LIBSVM peak MB | "
              "LIBSVM #iter | (P - D) / P | nesvm / LIBSVM | time <= 0.5 | test MSE nesvm / LIBSVM | MSE |",
              "|---" * 13 + "|"]
    for d, k in points:
        n, lb = k["nesvm"] or {}, k["libsvm"] or {}
        r, v = k["mse"]
        pn, dl = n.get("info", {}).get("tool_primal"), lb.get("info", {}).get("lower")
        target = d in TARGET_DATA
        L.append(f"| {d}{'' if target else ' (validation size, no target)'} | {ft(k['nesvm'], k['n_done'])} | "
                 f"{fg(n.get('cert_gap'))} | {mb(n)} | {it(n)} | {ft(k['libsvm'])} | {mb(lb)} | {it(lb)} | "
                 f"{'—' if pn is None or dl is None else fg((pn - dl) / abs(pn))} | {k['time'][0]} | "
                 f"{mark(k['time'][1]) if target else '—'} | {fmse(n)} / {fmse(lb)} "
                 f"({'—' if r is None else f'{100 * r:+.2f}%'}) | {mark(v) if target else '—'} |")
        if target:
            summary += [("kernel: time <= 0.5x LIBSVM", d, k["time"][0], k["time"][1]),
                        ("kernel: test MSE at most 1% above LIBSVM's", d, "—" if r is None else f"{100 * r:+.2f}%",
                         v)]
    return L + [""], summary


def commands(raw, out):
    L = ["## Command lines", "", "Every timed run (OUT = the output folder; references in bench/data/pbest), "
         "in the order of the keys:", "", "```"]
    for k in sorted(raw, key=key_order):
        v = raw[k]
        if isinstance(v, dict) and v.get("argv"):
            L.append(f"{k}: {short_argv(v['argv'], out)}")
            if v.get("predict"):
                L.append(f"{k} predict: {short_argv(v['predict']['argv'], out)}")
    return L + ["```", ""]


def session_loads(raw, session):
    """(min, median, max) of the 1-minute load at the start of the session's
    processes (records started within its minutes), or None."""
    lo, hi = session["started"].replace(" ", "T"), session.get("finished", "9999").replace(" ", "T") + ":59"
    v = sorted(r["load"] for k, r in raw.items() if k != "__meta__" and r.get("load") is not None
               and lo <= r.get("started", "") <= hi)
    return (v[0], v[len(v) // 2], v[-1]) if v else None


def load_text(loads):
    if not loads:
        return ""
    return (f" **1-minute load at the start of its processes: {loads[0]:g} to {loads[2]:g} (median "
            f"{loads[1]:g}; the run's own process counts about 1 of it, on 2 cores shared with other "
            "agents).**")


def sessions_text(meta, raw):
    L = []
    for x in meta.get("sessions", []):
        w = x.get("wait")
        wt = "" if not w else (f"; waited {w['minutes']:g} min for a 1-minute load below {QUIET_LOAD:g}: "
                               + ("reached" if w["quiet"] else "**never reached: the run went on under load "
                                  f"{w['loads'][-1]:g}**") + f" (loads polled: {', '.join(map(str, w['loads']))})")
        L.append(f"- {x['started']} to {x.get('finished', '? (interrupted)')}: rows {', '.join(x['rows'])}"
                 f"{' (--quick)' if x.get('quick') else ''}{' (--big)' if x.get('big') else ''}, "
                 f"--timeout {x['timeout']:g}{wt}. `uptime` at the start: `{x.get('uptime_start', '?')}`; "
                 f"at the end: `{x.get('uptime_end', '?')}`." + load_text(session_loads(raw, x)))
    return L or ["- none recorded"]


def report(out, raw, meta):
    m = meta.get("machine", {})
    descs = sorted({v["nesvm"] for k, v in raw.items() if isinstance(v, dict) and v.get("nesvm")
                    and "|ref " not in k})
    L = ["# epsilon-SVR rows (issue 32): nesvm against LIBLINEAR and LIBSVM", "",
         "Produced by `bench/svr_row.py` (method in its docstring; do not edit by hand). "
         f"Machine: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('mem_gib', 0):.1f} GiB, "
         f"{m.get('system', '?')}; liblinear-tools {m.get('packages', {}).get('liblinear-tools', '?')}, "
         f"libsvm-tools {m.get('packages', {}).get('libsvm-tools', '?')}. nesvm (timed runs): " + "; ".join(descs)
         + " (the -e 1e-6 references may come from an earlier session's cache in bench/data/pbest: their "
         "command lines are below).", "",
         "Sessions:", ""] + sessions_text(meta, raw) + [
         "", "Times: process wall seconds, reading included, one thread (OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = "
         "1, nesvm --threads 1), one process at a time; a run under 1 s is run 3 times and the median shown; "
         "`> T`: stopped short at T s. Gaps: (P - P_best) / P_best with P recomputed by numpy from the model file. "
         "LIBLINEAR: the first `-e E` (E = 1e-1 ... 1e-6) whose model is within 1e-3 of P_best.", ""]
    body, summary, series = [], [], {}
    for d in meta.get("linear_data", []):
        b, s = linear_section(raw, d, out, meta)
        body += b
        summary += s
    for d, Cs in meta.get("sweep_data", {}).items():
        b, s, series[d] = sweep_section(raw, d, Cs, meta)
        body += b
        summary += s
    b, s = kernel_section(raw, meta.get("kernel_data", []))
    body += b
    summary += s
    L += ["## Targets", "", "| target | data | measured | verdict |", "|---|---|---|---|"]
    L += [f"| {t} | {d} | {r} | {mark(v)} |" for t, d, r, v in summary]
    L += [""] + body + commands(raw, out)
    with open(os.path.join(out, "RESULTS.md.tmp"), "w") as f:
        f.write("\n".join(L))
    os.replace(os.path.join(out, "RESULTS.md.tmp"), os.path.join(out, "RESULTS.md"))
    plots(out, series)


def plots(out, series):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    for data, by_loss in series.items():
        for loss, pts in by_loss.items():
            for s in LOSSES[loss]["sweep"]:
                sweep_plot(plt, out, data, loss, s, [p for p in pts if s in p["ll"]])


def sweep_plot(plt, out, data, loss, s, pts):
    """Time against C, nesvm and LIBLINEAR -s s, into OUT/plots."""
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for label, color, get in (
            (f"nesvm --liblinear {LOSSES[loss]['nesvm']}", "C0",
             lambda p: (p["nesvm"]["wall"] if p["nesvm"] else None, p["n_done"])),
            (f"LIBLINEAR -s {s} to 1e-3", "C2",
             lambda p: (p["ll"][s]["sel"]["time"], p["ll"][s]["sel"]["reached"]))):
        xs, ys, hx, hy = [], [], [], []
        for p in pts:
            t, done = get(p)
            if t is not None and done is not None:
                (xs if done else hx).append(p["C"])
                (ys if done else hy).append(t)
        ax.plot(xs, ys, color=color, marker="o", label=label)
        if hx:
            ax.plot(hx, hy, color=color, marker="o", linestyle="none", markerfacecolor="none",
                    label=f"{label}: did not reach 1e-3")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("C")
    ax.set_ylabel("wall time (s), reading included")
    ax.set_title(f"{data}, {loss} (p = {P_TUBE:g}) against -s {s}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "plots", f"csweep-{data}-{loss}-s{s}.png"), dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", default=",".join(ROWS), help="rows to run: linear, csweep, kernel")
    ap.add_argument("--quick", action="store_true", help="small sizes: 20,000-row sparse set, 2,000-row Friedman")
    ap.add_argument("--big", action="store_true", help="kernel row: also 100,000 rows")
    ap.add_argument("--losses", default="sq,l1", help="linear losses: sq (-s 11/12), l1 (-s 13)")
    ap.add_argument("--C", help="C values of the sweep (default 1e-3,...,1e3; --quick 1e-2,1,100)")
    ap.add_argument("--timeout", type=float, default=300.0, help="per-run time limit, s (default 300)")
    ap.add_argument("--ref-timeout", type=float, default=600.0, help="reference runs' limit, s (default 600)")
    ap.add_argument("--wait-quiet", type=float, default=0.0, metavar="MIN",
                    help="wait up to MIN minutes for a 1-minute load below 1.0 before running")
    ap.add_argument("--out", default=os.path.join(HERE, "svr-run"))
    ap.add_argument("--nesvm-bin", default=os.path.join(ROOT, "build", "nesvm"))
    ap.add_argument("--redo", default="", help=f"run these again: {','.join(GROUPS)}")
    ap.add_argument("--report-only", action="store_true", help="write the report from OUT/raw.json")
    a = ap.parse_args(argv)
    rows, losses = [r for r in a.rows.split(",") if r], [x for x in a.losses.split(",") if x]
    redo = [t for t in a.redo.split(",") if t]
    if any(r not in ROWS for r in rows) or any(x not in LOSSES for x in losses) or \
            any(t not in GROUPS for t in redo):
        ap.error(f"--rows: {','.join(ROWS)}; --losses: {','.join(LOSSES)}; --redo: {','.join(GROUPS)}")
    Cs = [float(c) for c in a.C.split(",")] if a.C else (QUICK_CS if a.quick else CS)
    out, nesvm = os.path.abspath(a.out), os.path.abspath(a.nesvm_bin)
    os.makedirs(out, exist_ok=True)
    if a.report_only:
        with open(os.path.join(out, "raw.json")) as f:
            raw = json.load(f)
        report(out, raw, raw.get("__meta__", {}))
        return 0
    if not os.path.exists(nesvm):
        ap.error(f"--nesvm-bin: {nesvm} does not exist (build it: cmake --build build)")
    proc.setup_spawner(os.path.join(out, "work", "bin"))
    log = lambda m: print(m, flush=True)  # noqa: E731
    b = Bench(out, nesvm, a.timeout, a.ref_timeout, redo, log=log)
    sets = dict(QUICK if a.quick else DATA)
    kdata = [sets["kernel"]] + ([BIG] if a.big else [])
    meta = dict(b.raw.get("__meta__", {}), machine=machine.describe(nesvm, ROOT))
    meta.setdefault("data", {})
    session = dict(started=time.strftime("%Y-%m-%d %H:%M"), rows=rows, quick=a.quick, big=a.big,
                   timeout=a.timeout, uptime_start=uptime())
    meta.setdefault("sessions", []).append(session)
    b.raw["__meta__"] = meta
    for name in [sets[r] for r in rows if r != "kernel"] + (kdata if "kernel" in rows else []):
        meta["data"][name] = {k: v for k, v in b.data.ensure(name).items()
                              if k in ("n_train", "n_test", "d", "nnz_train", "target_std")}
    if a.wait_quiet > 0:
        session["wait"] = wait_quiet(a.wait_quiet, log)
        session["uptime_start"] = session["wait"]["uptime"]
    if "linear" in rows:
        meta["linear_data"] = sorted(set(meta.get("linear_data", [])) | {sets["linear"]})
        for loss in losses:
            b.linear_point(sets["linear"], loss, C_LINEAR, LOSSES[loss]["linear"])
    if "csweep" in rows:
        old = meta.setdefault("sweep_data", {}).get(sets["csweep"], [])
        meta["sweep_data"][sets["csweep"]] = sorted(set(old) | set(Cs))
        for loss in losses:
            for C in Cs:
                b.linear_point(sets["csweep"], loss, C, LOSSES[loss]["sweep"])
    if "kernel" in rows:
        meta["kernel_data"] = sorted(set(meta.get("kernel_data", [])) | set(kdata))
        for d in kdata:
            b.kernel(d)
    session.update(finished=time.strftime("%Y-%m-%d %H:%M"), uptime_end=uptime())
    b.save()
    report(out, b.raw, meta)
    log(f"wrote {os.path.join(out, 'RESULTS.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
