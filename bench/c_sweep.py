#!/usr/bin/python3
"""The C sweep of issue 31: nesvm's linear default against svmocas and
LIBLINEAR from C = 1e-3 to 1e3, to a relative gap of 1e-3.

Problem (the harness's `hinge_nobias`): P(w) = 1/2 ||w||^2 + C sum_i
max(0, 1 - y_i w.x_i), no bias.  Data (prepared once under bench/data/ by
lib/datasets.py; nothing is downloaded):

  a  fmnist-tshirt-shirt-2k  the first 2,000 rows of T-shirt vs Shirt (784 features)
  b  fmnist-tshirt-shirt     T-shirt vs Shirt, 12,000 rows
  c  fmnist-zero-rest        Fashion-MNIST 0 vs rest, 60,000 rows
  d  breast_cancer           scikit-learn's, 426 training rows, scaled to [-1, 1]
  e  synth-sparse-wide       5,000 x 100,000, about 500 non-zeros per row (text-like)

At every (data, C), one process at a time, each on one thread
(OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = 1 for every tool):

  nesvm      `nesvm train -B 0 -c C -e 1e-3 --threads 1 --time-limit T`: its own
             certified gap (the model file's `submodel ... gap`); its objective is
             also recomputed and compared with P_best.
  svmocas    `svmocas -b 0 -c C -r 1e-3 -t T` (the same C as nesvm: bench/README.md;
             it stops at 1 - Q_D/Q_P <= 1e-3, a certified gap like nesvm's).
  LIBLINEAR  `liblinear-train -s 3 -c C -e E` for E = 1e-1, 1e-2, ..., 1e-6 in turn
             until its model's recomputed gap (P - P_best) / P_best is at most
             1e-3; its time is that of the first run that reaches it, else "did
             not reach".  The sweep also stops at a run that fails or times out,
             and at a run that stopped at LIBLINEAR 2.3's cap of 1,000
             iterations without printing '*' (the only place -e enters its dual
             CD is the stopping test, which prints '*' when it fires with
             variables shrunk; a capped run where it never fired is repeated
             exactly by every tighter -e).

Times are process wall times (reading the file included, as a user sees
them), measured with peak memory by lib/proc.py; a run under 1 s is run three
times and its median kept (start-up noise).  T is --timeout (default
300 s): nesvm and svmocas get it as their own time limit and write the model
they have (the process gets T + 60 s), LIBLINEAR is stopped at T + 60 s; a run
that stops there is "> T s".  A run that fails is recorded and the sweep goes
on.

P_best per (data, C): the smallest objective, recomputed with numpy from the
model files (lib/objectives.py), over every run of the point and tight
reference runs, cached under bench/data/pbest/<data>/hinge_nobias-C<C>/ like
the harness's (lib/runner.py), run after nesvm's and svmocas's timed runs:
nesvm -B 0 -e 1e-6 with a time limit of 10x nesvm's 1e-3 time (at least 30 s,
at most --ref-timeout, default 600 s; not run when nesvm's 1e-3 run did not
converge), then, unless it converged, svmocas -r 1e-6 -t --ref-timeout.  A run
stopped at its limit still gives its model (an upper bound) and its dual value;
a cached one is redone when today's limit is over 1.5x its own.  D_best is the largest
lower bound any run printed (nesvm's `lower bound`, svmocas's last Q_D; not
LIBLINEAR's, whose printed dual value is not one at its iteration cap), and
(P_best - D_best) / P_best certifies P_best: when it is above 1e-4 the
LIBLINEAR column's judgement of 1e-3 may be off, which the report says.

Targets (issue 31), marked at every point: 1a nesvm <= 0.5x svmocas's time;
1b nesvm <= 1x LIBLINEAR's time to the same gap; 2 nesvm's iterations and time
grow at most 3x from C = 1 to C = 1000 (the largest over C = 1, 10, 100, 1000,
divided by C = 1's).  A run stopped at its limit makes its ratio a bound
("> r" for nesvm, "< r" for the peer), which decides the target when it can
and is "not measured" otherwise (likewise a failed run); 1b is met when nesvm
converged and LIBLINEAR could not reach the gap at any -e.

Results are kept in OUT/raw.json as runs finish (a rerun skips what is there,
so an interrupted run resumes; records of another training file are redone);
--redo TOOLS runs those again (nesvm, svmocas, liblinear, ref: e.g. `--redo
nesvm` after a solver change; P_best and LIBLINEAR's selection follow).
OUT/RESULTS.md and OUT/plots/<data>.png (time against C, log-log, one line per
tool) are written at the end (--report-only: from raw.json alone).

    bench/c_sweep.py [--data a,b,c,d,e] [--C 1e-3,...,1e3] [--timeout 300]
                     [--ref-timeout 600] [--quick] [--out DIR] [--nesvm-bin build/nesvm]
                     [--redo nesvm,...] [--report-only]
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from lib import machine, models, objectives, proc, runner  # noqa: E402
from lib import tools as T  # noqa: E402
from lib.cases import Problem  # noqa: E402
from lib.datasets import Data  # noqa: E402

SETS = {"a": ("fmnist-tshirt-shirt-2k", "Fashion-MNIST T-shirt vs Shirt, first 2,000 rows"),
        "b": ("fmnist-tshirt-shirt", "Fashion-MNIST T-shirt vs Shirt, 12,000 rows"),
        "c": ("fmnist-zero-rest", "Fashion-MNIST 0 vs rest, 60,000 rows"),
        "d": ("breast_cancer", "breast_cancer (scikit-learn), scaled"),
        "e": ("synth-sparse-wide", "sparse synthetic, 5,000 x 100,000, 0.5% density")}
QUICK = "d,a"
CS = [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0]
LL_EPS = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
GAP = 1e-3
FAMILY = "hinge_nobias"
GRACE = 60.0         # seconds a process gets beyond its own time limit
CERT_WARN = 1e-4     # P_best's certificate above this: the 1e-3 judgement may be off
TOOLS = ("nesvm", "svmocas", "liblinear", "ref")
TARGET_SVMOCAS, TARGET_LIBLINEAR, TARGET_GROWTH = 0.5, 1.0, 3.0
GROWTH_CS = (1.0, 10.0, 100.0, 1000.0)
REF_FACTOR, REF_MIN = 10.0, 30.0   # nesvm_ref_limit
SHORT, SHORT_RUNS = 1.0, 3   # a run under SHORT s is run SHORT_RUNS times, its median kept


def nesvm_tool():
    return T.Tool("nesvm -B 0", "nesvm", {"solver": "nesvm", "args": ["-B", "0"], "threads": 1})


def ocas_tool(limit):
    return T.Tool("svmocas -b 0", "ocas", {"b": 0, "time_limit": limit})


def liblinear_tool():
    return T.Tool("liblinear -s 3", "liblinear", {"s": 3})


def reference_list(limit):
    """Tight runs cached in bench/data/pbest, in the order they are tried
    (svmocas's has its own slug: the harness's svmocas -r 1e-6 has no time
    limit)."""
    return [dict(tool=T.Tool("nesvm -B 0 -e 1e-6", "nesvm", {"solver": "nesvm", "args": ["-B", "0"],
                                                              "threads": 1}),
                 tol=1e-6, max_rows=10 ** 9, time_limit=limit),
            dict(tool=T.Tool("svmocas -r 1e-6 -t", "ocas", {"b": 0, "time_limit": limit}), tol=1e-6,
                 max_rows=10 ** 9, time_limit=limit)]


# ---- pure functions (bench/tests/test_lib.py) ---------------------------------------------------

def rel_gap(p, p_best):
    return None if p is None or p_best is None else objectives.rel_gap(p, p_best)


def ll_stop(rec, p_best, gap=GAP):
    """Why LIBLINEAR's -e sweep stops after this run: 'reached', 'failed'
    (failed or timed out: a tighter -e takes longer), 'cap' (stopped at the
    iteration cap without an un-shrinking: every tighter -e repeats it), or
    None (go on)."""
    if rec["status"] != "ok" or rec.get("P") is None:
        return "failed"
    g = rel_gap(rec["P"], p_best)
    if g is not None and g <= gap:
        return "reached"
    info = rec.get("info", {})
    if info.get("exit") == "max-iter" and info.get("unshrinks", 1) == 0:
        return "cap"
    return None


def ll_select(sweep, p_best, gap=GAP):
    """LIBLINEAR's point from its sweep [(eps, rec)] in -e order: dict with
    reached (bool), eps and time of the first run within ``gap`` of p_best,
    or of the last run and why the sweep stopped there ('cap', 'failed',
    'end' = every -e run, 'open' = the sweep is not finished)."""
    for i, (eps, rec) in enumerate(sweep):
        why = ll_stop(rec, p_best, gap)
        if why == "reached":
            return dict(reached=True, eps=eps, time=rec["wall"], why=why, runs=i + 1)
        if why is not None:
            return dict(reached=False, eps=eps, time=rec["wall"], why=why, runs=i + 1)
    if not sweep:
        return dict(reached=False, eps=None, time=None, why="open", runs=0)
    return dict(reached=False, eps=sweep[-1][0], time=sweep[-1][1]["wall"],
                why="end" if len(sweep) == len(LL_EPS) else "open", runs=len(sweep))


def ratio_target(t_n, n_done, t_p, p_done, bound):
    """Target 'nesvm's time <= bound x the peer's'.  t_n, t_p: wall times;
    *_done: whether the run reached the gap (False: t is a lower bound, > T;
    None: no figure).  Returns (ratio text, 'met' | 'missed' | 'not measured')."""
    if n_done is None or p_done is None or t_n is None or t_p is None:
        return "—", "not measured"
    r = t_n / t_p
    if n_done and p_done:
        return f"{r:.3g}", "met" if r <= bound else "missed"
    if n_done:              # the peer did not get there in t_p: the ratio is below r
        return f"< {r:.3g}", "met" if r <= bound else "not measured"
    if p_done:              # nesvm did not get there in t_n
        return f"> {r:.3g}", "missed" if r > bound else "not measured"
    return "—", "not measured"


def growth(values, done):
    """Target 2 on {C: value} and {C: converged} for C = 1, 10, 100, 1000:
    (largest / C = 1's value, 'met' | 'missed' | 'not measured')."""
    if any(c not in values or values[c] is None for c in GROWTH_CS):
        return None, "not measured"
    if not done.get(1.0):
        return None, "not measured"
    r = max(values[c] for c in GROWTH_CS) / values[1.0]
    if not all(done[c] for c in GROWTH_CS):
        return r, "missed" if r > TARGET_GROWTH else "not measured"
    return r, "met" if r <= TARGET_GROWTH else "missed"


def nesvm_ref_limit(nesvm_rec, ref_timeout):
    """Time limit of the nesvm -e 1e-6 reference: none (skip it) when nesvm's
    own 1e-3 run did not converge; else REF_FACTOR x that run's time (at least
    REF_MIN s; from 1e-3 to 1e-6 Newton should need far less), at most
    ref_timeout."""
    if reached(nesvm_rec) is not True:
        return None
    return min(ref_timeout, max(REF_MIN, REF_FACTOR * nesvm_rec["wall"]))


def run_limit(argv):
    """The time limit in a nesvm (--time-limit) or svmocas (-t) command line; 0 if none."""
    opt = "-t" if argv and os.path.basename(argv[0]) == "svmocas" else "--time-limit"
    return float(argv[argv.index(opt) + 1]) if opt in argv[:-1] else 0.0


def p_best_of(cands):
    """(P_best, where from) over [(label, P)], ignoring missing P."""
    ok = [(p, lab) for lab, p in cands if p is not None]
    if not ok:
        return None, None
    p, lab = min(ok)
    return p, lab


# ---- runs ---------------------------------------------------------------------------------------

class RunStore:
    """A sweep's state kept across runs: OUT/raw.json (read at start, saved
    after every run), the work folder, the data sets and nesvm's description
    (c_sweep.py's Sweep, svr_row.py's Bench)."""

    def __init__(self, out, nesvm, timeout, ref_timeout, redo, log=print):
        self.out, self.nesvm, self.log = out, nesvm, log
        self.timeout, self.ref_timeout, self.redo = timeout, ref_timeout, set(redo)
        self.raw_path = os.path.join(out, "raw.json")
        self.raw = {}
        if os.path.exists(self.raw_path):
            with open(self.raw_path) as f:
                self.raw = json.load(f)
        self.work = os.path.join(out, "work")
        self.data = Data(os.path.join(HERE, "data"), log=lambda m: log(m))
        self.redone = set()
        self.nesvm_desc = machine.nesvm_description(nesvm, ROOT)

    def save(self):
        with open(self.raw_path + ".tmp", "w") as f:
            json.dump(self.raw, f, indent=1, sort_keys=True)
        os.replace(self.raw_path + ".tmp", self.raw_path)


class Sweep(RunStore):
    def ctx(self, name, C):
        return {"train": self.data.path(name, "train"), "test": None, "d": self.data.meta(name)["d"],
                "C": C, "gamma": None, "nesvm_bin": self.nesvm, "seed": 1, "trace": None}

    def objective(self, name, C, tool, rundir, rec):
        """Recompute P from the run's model (None without a model)."""
        if not rec.get("model"):
            return None, None
        model = T.load_model(tool, os.path.join(rundir, rec["model"]))
        X, y = self.data.load(name, "train")
        note = None
        if tool.adapter == "nesvm":
            if getattr(model, "problem", None) not in ("c_svm_hinge_l2",) or model.b != 0:
                note = f"nesvm model: problem {model.problem}, b {model.b}"
        return objectives.primal(FAMILY, X, y, model, C), note

    def run(self, key, name, C, tool, tol, group):
        """One cached run (``group``: its --redo name); returns its record."""
        sig = self.data.signature(name)
        rec = self.raw.get(key)
        fresh = group in self.redo and key not in self.redone
        if rec is not None and rec.get("signature") == sig and not fresh:
            return rec
        rundir = os.path.join(self.work, name, f"C{C:g}", tool.slug + ("" if tol is None else f"-e{tol:g}"))
        ctx = self.ctx(name, C)
        if tool.adapter == "nesvm":
            ctx["time_limit"] = self.timeout
        self.log(f"{key} ...")
        r = runner.execute(tool, ctx, rundir, "main", self.timeout + GRACE, tol=tol)
        walls = [r["wall"]]
        while r["status"] == "ok" and r["wall"] < SHORT and len(walls) < SHORT_RUNS:
            r = runner.execute(tool, ctx, rundir, "main", self.timeout + GRACE, tol=tol)
            walls.append(r["wall"])
        p, note = self.objective(name, C, tool, rundir, r) if r["status"] == "ok" else (None, None)
        rec = {k: r.get(k) for k in ("status", "wall", "maxrss_kb", "cpu", "argv", "started", "error",
                                     "info", "model", "tol")}
        rec.update(P=p, note=note, signature=sig, dir=os.path.relpath(rundir, self.out), walls=walls)
        if r["status"] == "ok":   # the median of the repeats of a short run
            rec["wall"] = sorted(walls)[len(walls) // 2]
        if tool.adapter == "nesvm":
            rec["nesvm"] = self.nesvm_desc
            subs = models.read_nesvm_info(os.path.join(rundir, r["model"])) if r.get("model") else []
            if subs:
                rec["cert_gap"] = subs[0]["gap"]
        self.raw[key] = rec
        self.redone.add(key)
        self.save()
        self.log(f"{key}: {rec['status']}, {rec['wall']:.2f} s, P {p}, info {rec['info']}")
        return rec

    def references(self, name, C, nesvm_rec):
        """The tight reference runs of (name, C), cached in bench/data/pbest:
        nesvm -e 1e-6 (limit: nesvm_ref_limit), then svmocas -r 1e-6 unless
        nesvm's converged (a certified 1e-6 already pins P_best down).  A
        cached run that stopped at a limit under 2/3 of today's is redone."""
        meta = self.data.meta(name)
        prob = Problem(FAMILY, C)
        todo = [(r, r["time_limit"]) for r in reference_list(self.ref_timeout)]
        todo[0] = (todo[0][0], nesvm_ref_limit(nesvm_rec, self.ref_timeout))
        for ref, limit in todo:
            if limit is None:
                continue
            ref = dict(ref, time_limit=limit)
            if ref["tool"].adapter == "ocas":
                ref["tool"] = T.Tool(ref["tool"].id, "ocas", dict(ref["tool"].opts, time_limit=limit))
            rjson = os.path.join(self.data.dir, "pbest", name, prob.key, ref["tool"].slug, "run.json")
            if os.path.exists(rjson):
                with open(rjson) as f:
                    old = json.load(f)
                converged = old.get("status") == "ok" and old.get("info", {}).get("exit") == "converged"
                if ("ref" in self.redo and rjson not in self.redone) or \
                        (not converged and run_limit(old.get("argv") or []) < limit * 2 / 3):
                    os.remove(rjson)
                    self.redone.add(rjson)
            env = runner.Env(self.out, self.data, self.nesvm, "c-sweep", self.log, timeout=limit + GRACE)
            rec = runner.ensure_references(env, argparse.Namespace(dataset=name), prob, meta, refs=[ref])[0]
            key = f"{name}|C={C:g}|ref {ref['tool'].id}"
            cached = self.raw.get(key)
            if cached is None or cached.get("started") != rec.get("started"):
                p = self.objective(name, C, ref["tool"], rec["dir"], rec)[0] if rec["status"] == "ok" else None
                cached = {k: rec.get(k) for k in ("status", "wall", "info", "started", "maxrss_kb", "argv")}
                cached.update(P=p, dir=rec["dir"], signature=rec.get("signature"))
                self.raw[key] = cached
                self.save()
            if cached["status"] == "ok" and cached.get("info", {}).get("exit") == "converged":
                break

    def point(self, name, C):
        """Every run of one (data, C); returns nothing (all in raw.json)."""
        pre = f"{name}|C={C:g}|"
        n = self.run(pre + "nesvm", name, C, nesvm_tool(), GAP, group="nesvm")
        self.run(pre + "svmocas", name, C, ocas_tool(self.timeout), GAP, group="svmocas")
        self.references(name, C, n)
        sweep = []
        for eps in LL_EPS:
            sweep.append((eps, self.run(pre + f"liblinear e={eps:g}", name, C, liblinear_tool(), eps,
                                        group="liblinear")))
            pb, _ = p_best_of(candidates(self.raw, name, C))
            if ll_stop(sweep[-1][1], pb) is not None:
                break


def candidates(raw, name, C):
    """[(label, P)] of every run of (name, C) in raw."""
    pre = f"{name}|C={C:g}|"
    return [(k[len(pre):], v.get("P")) for k, v in raw.items() if k.startswith(pre)]


def lower_bounds(raw, name, C):
    """[(label, lower bound)] printed by nesvm and svmocas runs of (name, C)."""
    pre = f"{name}|C={C:g}|"
    out = []
    for k, v in raw.items():
        lab = k[len(pre):]
        if k.startswith(pre) and not lab.startswith("liblinear") and v.get("status") == "ok":
            lo = v.get("info", {}).get("lower")
            if lo is not None:
                out.append((lab, lo))
    return out


# ---- analysis -----------------------------------------------------------------------------------

def reached(rec):
    """True: the run stopped at its certified 1e-3; False: it stopped short
    (its time limit or the process timeout: its time is a lower bound);
    None: no figure (not run, failed)."""
    if rec is None:
        return None
    if rec["status"] == "timeout":
        return False
    if rec["status"] != "ok":
        return None
    ex = rec.get("info", {}).get("exit")
    if ex == "converged":
        gap = rec.get("cert_gap")
        return gap is None or gap <= GAP * (1 + 1e-9)
    return False if ex in ("time-limit", "time") else None


def analyse_point(raw, name, C):
    pre = f"{name}|C={C:g}|"
    pb, pfrom = p_best_of(candidates(raw, name, C))
    lows = lower_bounds(raw, name, C)
    db = max(lo for _, lo in lows) if lows else None
    n, o = raw.get(pre + "nesvm"), raw.get(pre + "svmocas")
    sweep = []
    for e in LL_EPS:
        if pre + f"liblinear e={e:g}" not in raw:
            break
        sweep.append((e, raw[pre + f"liblinear e={e:g}"]))
    ll = ll_select(sweep, pb)
    n_done, o_done = reached(n), reached(o)
    t_n = n["wall"] if n else None
    r_o = ratio_target(t_n, n_done, o["wall"] if o else None, o_done, TARGET_SVMOCAS)
    if ll["why"] in ("cap", "end") and n_done:
        r_l = ("LIBLINEAR did not reach", "met")
    elif ll["why"] in ("cap", "end", "open"):
        r_l = ("—", "not measured")
    else:
        r_l = ratio_target(t_n, n_done, ll["time"], ll["reached"], TARGET_LIBLINEAR)
    return dict(C=C, p_best=pb, p_from=pfrom, d_best=db,
                cert=None if pb is None or db is None else (pb - db) / abs(pb),
                nesvm=n, svmocas=o, sweep=sweep, ll=ll, n_done=n_done, o_done=o_done,
                n_gap=rel_gap(n.get("P") if n else None, pb), o_gap=rel_gap(o.get("P") if o else None, pb),
                target_svmocas=r_o, target_liblinear=r_l)


def analyse(raw, name, Cs):
    pts = [analyse_point(raw, name, C) for C in Cs]
    by = {p["C"]: p for p in pts}
    its = {C: (p["nesvm"] or {}).get("info", {}).get("iterations") for C, p in by.items()}
    secs = {C: (p["nesvm"] or {}).get("wall") for C, p in by.items()}
    done = {C: p["n_done"] for C, p in by.items()}
    return dict(points=pts, growth_it=growth(its, done), growth_time=growth(secs, done))


# ---- report -------------------------------------------------------------------------------------

def fs(rec, done):
    """A time cell: seconds, '> T s' when the run stopped short, '—' without one."""
    if rec is None:
        return "—"
    if done is None:
        return f"{rec['status']}"
    t = rec["wall"]
    txt = f"{t:.3g}" if t < 100 else f"{t:.0f}"
    return txt if done else f"> {txt}"


def fg(x):
    return "—" if x is None else ("0" if x == 0 else f"{x:.1e}")


def mark(verdict):
    return {"met": "**met**", "missed": "**MISSED**"}.get(verdict, verdict)


def point_row(p):
    n, ll = p["nesvm"], p["ll"]
    it = (n or {}).get("info", {}).get("iterations")
    if ll["reached"]:
        llc = f"{ll['time']:.3g} (-e {ll['eps']:g})"
    elif ll["why"] == "open":
        llc = "—"
    else:
        llc = {"cap": "did not reach (1,000-iteration cap at -e %g)",
               "failed": "did not reach (run at -e %g failed or timed out)",
               "end": "did not reach (-e down to %g)"}[ll["why"]] % ll["eps"]
    ngap = "—" if n is None else f"{fg(n.get('cert_gap'))} / {fg(p['n_gap'])}"
    if p["n_done"] and p["n_gap"] is not None and p["n_gap"] > GAP * (1 + 1e-9):
        ngap += " (over 1e-3 though certified!)"
    return (f"| {p['C']:g} | {fs(n, p['n_done'])} | {it if it is not None else '—'} | {ngap} | "
            f"{fs(p['svmocas'], p['o_done'])} | {llc} | {p['target_svmocas'][0]} | "
            f"{mark(p['target_svmocas'][1])} | {p['target_liblinear'][0]} | {mark(p['target_liblinear'][1])} |")


def mb(rec):
    return "—" if not rec or not rec.get("maxrss_kb") else f"{rec['maxrss_kb'] / 1024:.0f}"


def detail_row(p):
    n, o = p["nesvm"] or {}, p["svmocas"] or {}
    cells = []
    for e, r in p["sweep"]:
        g = rel_gap(r.get("P"), p["p_best"])
        cap = ", cap" if r.get("info", {}).get("exit") == "max-iter" else ""
        cells.append(f"{e:g}: {r['wall']:.3g} s, {fg(g)}{cap}" if r["status"] == "ok" else f"{e:g}: {r['status']}")
    warn = " (!)" if p["cert"] is not None and p["cert"] > CERT_WARN else ""
    pb = "—" if p["p_best"] is None else f"{p['p_best']:.8g} ({p['p_from']})"
    return (f"| {p['C']:g} | {pb} | {fg(p['cert'])}{warn} | {mb(n)} | "
            f"{n.get('info', {}).get('solve_time', '—')} | {o.get('info', {}).get('iterations', '—')} | "
            f"{fg(p['o_gap'])} | {mb(o)} | {'; '.join(cells) or '—'} |")


def growth_text(g, what=""):
    r, v = g
    return (f"{what} " if what else "") + f"{'—' if r is None else f'{r:.2f}x'}, {mark(v)}"


def present(raw, names=None):
    """{data set: its C values} of the points in raw (SETS order, C ascending),
    restricted to ``names`` if given."""
    have = {}
    for k in raw:
        if "|C=" in k:
            name, c = k.split("|")[:2]
            have.setdefault(name, set()).add(float(c[2:]))
    order = [n for n, _ in SETS.values()] + sorted(set(have) - {n for n, _ in SETS.values()})
    return {n: sorted(have[n]) for n in order if n in have and (names is None or n in names)}


def sessions_text(meta):
    ss = meta.get("sessions", [])
    if not ss:
        return "Sessions: none recorded."
    lims = sorted({(x["timeout"], x["ref_timeout"]) for x in ss})
    return (f"{len(ss)} session(s) from {ss[0]['started']} to {ss[-1].get('finished', '?')} (load "
            + ", ".join(str(x.get("load_start", "?")) for x in ss) + " at their starts); time limits "
            + ", ".join(f"{t:g} s per run and {r:g} s per reference run" for t, r in lims) + ".")


def report(out, raw, names, meta):
    m = meta.get("machine", {})
    points = present(raw, names)
    descs = sorted({v["nesvm"] for v in raw.values() if isinstance(v, dict) and v.get("nesvm")})
    L = ["# C sweep (issue 31): nesvm's linear default against svmocas and LIBLINEAR", "",
         "Produced by `bench/c_sweep.py` (method in its docstring; do not edit by hand). "
         f"Machine: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('mem_gib', 0):.1f} GiB, "
         "liblinear-tools "
         f"{m.get('packages', {}).get('liblinear-tools', '?')}, libocas-tools "
         f"{m.get('packages', {}).get('libocas-tools', '?')}. nesvm: " + "; ".join(descs) + ".",
         sessions_text(meta), "",
         "Problem: P(w) = 1/2 ||w||^2 + C sum_i max(0, 1 - y_i w.x_i) (no bias), to a relative gap of "
         "1e-3. Times: process wall seconds (reading included), one thread, one process at a time; "
         f"a run under {SHORT:g} s is run {SHORT_RUNS} times and its median shown. "
         "`> T`: stopped short at T s. nesvm gap: its certified gap / its recomputed (P - P_best) / "
         "P_best. LIBLINEAR: the first `-s 3 -e E` run (E = 1e-1 ... 1e-6) whose recomputed gap to "
         "P_best is at most 1e-3.", "",
         "Targets: (1a) nesvm <= 0.5x svmocas; (1b) nesvm <= 1x LIBLINEAR to the same gap; (2) nesvm's "
         "iterations and time at C = 10, 100, 1000 at most 3x those at C = 1.", "",
         "## Summary", "", "| data | 1a met / missed / not measured | 1b | 2: iterations | 2: time |",
         "|---|---|---|---|---|"]
    res = {name: analyse(raw, name, Cs) for name, Cs in points.items()}
    for name in res:
        a = res[name]

        def cnt(k):
            v = [p[k][1] for p in a["points"]]
            return f"{v.count('met')} / {v.count('missed')} / {v.count('not measured')}"
        L.append(f"| {name} | {cnt('target_svmocas')} | {cnt('target_liblinear')} | "
                 f"{growth_text(a['growth_it'])} | {growth_text(a['growth_time'])} |")
    L.append("")
    for key, (name, title) in SETS.items():
        if name not in res:
            continue
        a, dm = res[name], meta.get("data", {}).get(name, {})
        L += [f"## ({key}) {title}: `{name}`", "",
              f"{dm.get('n_train', '?'):,} rows x {dm.get('d', '?'):,} features, "
              f"{dm.get('nnz_train', 0):,} non-zeros. ![time against C](plots/{name}.png)", "",
              "| C | nesvm (s) | iterations | nesvm gap | svmocas (s) | LIBLINEAR to 1e-3 (s) | "
              "nesvm / svmocas | 1a (<= 0.5) | nesvm / LIBLINEAR | 1b (<= 1) |",
              "|---" * 10 + "|"]
        L += [point_row(p) for p in a["points"]]
        L += ["", f"Growth from C = 1 to C = 1000 (largest / C = 1's): "
              f"{growth_text(a['growth_it'], 'iterations')}, {growth_text(a['growth_time'], 'time')}.", "",
              "| C | P_best (from) | its certificate | nesvm peak MB | nesvm solver s | svmocas iterations | "
              "svmocas gap to P_best | svmocas peak MB | LIBLINEAR -e: time, gap to P_best |",
              "|---" * 9 + "|"]
        L += [detail_row(p) for p in a["points"]]
        if any(p["cert"] is not None and p["cert"] > CERT_WARN for p in a["points"]):
            L += ["", f"(!) P_best is certified only to more than {CERT_WARN:g} (the reference runs stopped "
                  "at their limit): the LIBLINEAR column's 1e-3 judgement may be off there."]
        L.append("")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "RESULTS.md.tmp"), "w") as f:
        f.write("\n".join(L))
    os.replace(os.path.join(out, "RESULTS.md.tmp"), os.path.join(out, "RESULTS.md"))
    plots(out, res)
    return res


def plots(out, res):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    titles = {name: f"({k}) {t}" for k, (name, t) in SETS.items()}
    for name, a in res.items():
        fig, ax = plt.subplots(figsize=(6, 4.2))
        short = "stopped at the time limit"
        series = [("nesvm -B 0", "C0", "o", short, lambda p: (p["nesvm"], p["n_done"])),
                  ("svmocas -b 0 -r 1e-3", "C1", "s", short, lambda p: (p["svmocas"], p["o_done"])),
                  ("LIBLINEAR -s 3 to 1e-3", "C2", "^", "did not reach (its last run)", lambda p: (
                      {"wall": p["ll"]["time"]} if p["ll"]["time"] is not None else None,
                      p["ll"]["reached"] if p["ll"]["why"] != "open" else None))]
        for label, color, mk, hollow, get in series:
            xs, ys, hx, hy = [], [], [], []
            for p in a["points"]:
                rec, done = get(p)
                if rec is None or done is None or not rec.get("wall"):
                    continue
                (xs if done else hx).append(p["C"])
                (ys if done else hy).append(rec["wall"])
            ax.plot(xs, ys, color=color, marker=mk, label=label)
            if hx:
                ax.plot(hx, hy, color=color, marker=mk, linestyle="none", markerfacecolor="none",
                        label=f"{label}: {hollow}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("C")
        ax.set_ylabel("wall time (s), reading included")
        ax.set_title(titles.get(name, name), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(pdir, f"{name}.png"), dpi=110)
        plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", help="data sets: keys a-e or names, comma-separated (default: all)")
    ap.add_argument("--C", help="C values, comma-separated (default 1e-3,...,1e3)")
    ap.add_argument("--quick", action="store_true", help=f"the small sets only ({QUICK})")
    ap.add_argument("--timeout", type=float, default=300.0, help="per-run time limit, s (default 300)")
    ap.add_argument("--ref-timeout", type=float, default=600.0, help="reference runs' limit, s (default 600)")
    ap.add_argument("--out", default=os.path.join(HERE, "csweep-run"))
    ap.add_argument("--nesvm-bin", default=os.path.join(ROOT, "build", "nesvm"))
    ap.add_argument("--redo", default="", help=f"run these again: {','.join(TOOLS)}")
    ap.add_argument("--report-only", action="store_true", help="write the report from OUT/raw.json")
    a = ap.parse_args(argv)
    keys = (a.data or (QUICK if a.quick else ",".join(SETS))).split(",")
    byname = {v[0]: k for k, v in SETS.items()}
    if any(k not in SETS and k not in byname for k in keys):
        ap.error(f"--data: unknown data set in {a.data} (keys {','.join(SETS)} or their names)")
    names = [SETS[k][0] if k in SETS else k for k in keys]
    Cs = [float(c) for c in a.C.split(",")] if a.C else CS
    redo = [t for t in a.redo.split(",") if t]
    if any(t not in TOOLS for t in redo):
        ap.error(f"--redo: one of {','.join(TOOLS)}")
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    nesvm = os.path.abspath(a.nesvm_bin)
    if a.report_only:
        with open(os.path.join(out, "raw.json")) as f:
            raw = json.load(f)
        report(out, raw, names if a.data or a.quick else None, raw.get("__meta__", {}))
        return 0
    if not os.path.exists(nesvm):
        ap.error(f"--nesvm-bin: {nesvm} does not exist (build it: cmake --build build --target nesvm_cli)")
    proc.setup_spawner(os.path.join(out, "work", "bin"))
    s = Sweep(out, nesvm, a.timeout, a.ref_timeout, redo, log=lambda m: print(m, flush=True))
    meta = dict(s.raw.get("__meta__", {}), machine=machine.describe(nesvm, ROOT))
    meta.setdefault("data", {})
    meta.setdefault("sessions", []).append(dict(started=time.strftime("%Y-%m-%d %H:%M"), timeout=a.timeout,
                                                ref_timeout=a.ref_timeout, load_start=machine.load1(),
                                                data=names, C=Cs))
    s.raw["__meta__"] = meta
    for name in names:
        meta["data"][name] = {k: v for k, v in s.data.ensure(name).items() if k in ("n_train", "d", "nnz_train")}
        for C in Cs:
            s.point(name, C)
    meta["sessions"][-1]["finished"] = time.strftime("%Y-%m-%d %H:%M")
    s.save()
    report(out, s.raw, None, meta)
    print(f"wrote {os.path.join(out, 'RESULTS.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
