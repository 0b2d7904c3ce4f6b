"""From the raw run folders to the numbers of the report.

For binary linear problems the objective of every model (main runs,
sweeps, references) is computed here from the model file on the training
set (objectives.py).  P_best is the smallest of them; the relative gap of a
run is (P - P_best) / |P_best|.  Dual values printed by the tools (and
nesvm's lower bound, printed and in its trace) give D_best, a certified
lower bound, used only to say how close P_best is to the optimum and to
catch convention errors (P_best < D_best would mean a wrong objective or C).
"""
import glob
import json
import os
import statistics

import numpy as np

from lib import models, objectives, tools
from lib.cases import HOMOTOPY_OF, LINEAR_BINARY
from lib.runner import tool_from_dict

GAPS = (1e-2, 1e-3, 1e-4)
# the `problem` lines a nesvm model of each family may carry (docs/format.md;
# hyperpass and pegasos: c_svm_hinge_l2_regularized_bias, with no bias unless
# -B > 0, which the no-bias family's b = 0 check catches)
NESVM_PROBLEM = {"hinge_nobias": ("c_svm_hinge_l2", "c_svm_hinge_l2_regularized_bias"),
                 "hinge_freebias": ("c_svm_hinge_l2",), "lp_hinge_l1": ("lp_svm_hinge_l1",),
                 "ls_squared_l2": ("ls_svm_squared_l2",), "homotopy": ("c_svm_hinge_l2",)}
DUAL_TOLERANCE = 1e-5   # a dual value further above P_best than this is an error


def _load_runs(pdir):
    runs = []
    for path in sorted(glob.glob(os.path.join(pdir, "*", "*", "run.json"))):
        with open(path) as f:
            rec = json.load(f)
        rec["dir"] = os.path.dirname(path)
        runs.append(rec)
    return runs


def read_trace(path):
    """nesvm trace -> dict of numpy columns (docs/cli.md)."""
    with open(path) as f:
        header = f.readline().strip().split(",")
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {h: a[:, i] for i, h in enumerate(header)}


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def analyze_case(out_dir, data, case_summary, log=print):
    name = case_summary["case"]
    cdir = os.path.join(out_dir, "raw", name)
    res = dict(case_summary)
    res["problems"] = []
    for p in case_summary["problems"]:
        pdir = os.path.join(cdir, p["key"])
        runs = _load_runs(pdir)
        refs = case_summary.get("references", {}).get(p["key"], [])
        if p["family"] in LINEAR_BINARY:
            res["problems"].append(_linear_binary(data, case_summary, p, runs, refs, log))
        elif p["family"] == "homotopy":
            res["problems"].append(_homotopy(data, case_summary, p, runs, res["problems"], log))
        else:
            res["problems"].append(_accuracy_only(p, runs))
    return res


def _objective(data, dataset, family, C, tool, path, Xy, log):
    X, y = Xy
    try:
        model = tools.load_model(tool, path)
    except Exception as e:  # a broken model file is reported, not fatal
        log(f"    cannot read model {path}: {e}")
        return None, None, None
    return objectives.primal(family, X, y, model, C), model, abs(model.b)


def _linear_binary(data, cs, p, runs, refs, log):
    dataset, family, C = cs["dataset"], p["family"], p["C"]
    Xtr = data.load(dataset, "train")
    Xte = data.load(dataset, "test") if cs["meta"]["has_test"] else None
    points = []          # every evaluated model: (tool id, kind, time, P)
    warnings = []
    for rec in runs + refs:
        rec["P"] = None
        if rec["status"] != "ok" or not rec.get("model"):
            continue
        tool = tool_from_dict(rec["tool"])
        path = os.path.join(rec["dir"], rec["model"])
        P, model, babs = _objective(data, dataset, family, C, tool, path, Xtr, log)
        rec["P"] = P
        if P is None:
            continue
        if family == "hinge_nobias" and babs and babs > 0:
            warnings.append(f"{tool.id}: model has b = {model.b:g} in the no-bias family (ignored)")
        want = NESVM_PROBLEM.get(family)
        if tool.adapter == "nesvm" and want and getattr(model, "problem", want[0]) not in want:
            warnings.append(f"{tool.id}: the model's problem is {model.problem}, expected "
                            + " or ".join(want))
        if tool.adapter == "glpk":
            rec["tool_objective"] = model.lp_objective
            if model.status != "OPTIMAL":
                warnings.append(f"{tool.id} ({rec['kind']}): glpsol's status is {model.status}")
        if rec["kind"] == "main":
            X, y = Xte if Xte is not None else Xtr
            rec["accuracy"] = objectives.accuracy(X, y, model)
            rec["accuracy_on"] = "test" if Xte is not None else "train"
    # P_best and where it came from
    cands = [(r["P"], r) for r in runs + refs if r.get("P") is not None]
    if cands:
        P_best, best = min(cands, key=lambda t: t[0])
        best_src = f"{best['tool']['id']} ({best['kind']}" + (
            f", tol {best['tol']:g})" if best.get("tol") is not None else ")")
    else:
        P_best, best_src = None, None
    # lower bounds: printed duals, nesvm's `lower bound` line and trace (the
    # larger: hyperpass's exact finish is not in the trace), and for LIBSVM
    # the dual of its alpha recomputed here (its printed obj uses
    # single-precision kernel values, so it is kept for the consistency
    # check only).
    lowers = []
    for r in runs + refs:
        if r["status"] != "ok":
            continue
        low = r["info"].get("lower")
        if r["tool"]["adapter"] == "liblinear" and r["info"].get("exit") == "max-iter":
            low = None    # no bound at the iteration limit (run.json files parsed before this rule)
        if r["tool"]["adapter"] == "nesvm" and r.get("trace"):
            tr = read_trace(os.path.join(r["dir"], r["trace"]))
            lb = tr["lower_bound"][np.isfinite(tr["lower_bound"])]
            if lb.size:
                low = float(np.max(lb)) if low is None else max(low, float(np.max(lb)))
        if r["tool"]["adapter"] == "libsvm" and r.get("model") and family == "hinge_freebias":
            if low is not None:
                lowers.append((low, r["tool"]["id"] + " (printed obj)", False))
            low = models.libsvm_dual(models.read_libsvm(os.path.join(r["dir"], r["model"])), C)
        if low is not None:
            lowers.append((low, r["tool"]["id"], True))
    trusted = [(v, src) for v, src, ok in lowers if ok]
    D_best, D_src = (max(trusted) if trusted else (None, None))
    out = {"family": family, "C": C, "gamma": p.get("gamma"), "key": p["key"],
           "P_best": P_best, "P_best_source": best_src, "D_best": D_best, "D_best_source": D_src,
           "warnings": warnings, "notes": [], "tools": [],
           "lower_bounds": [{"source": src, "value": v, "trusted": ok} for v, src, ok in lowers]}
    if P_best is not None and D_best is not None:
        out["certified_gap"] = (P_best - D_best) / abs(P_best)
    if P_best is not None:
        for v, src, ok in lowers:
            excess = (v - P_best) / abs(P_best)
            if excess > DUAL_TOLERANCE:
                out["warnings"].append(
                    f"inconsistent: the dual value {v:.10g} from {src} exceeds P_best {P_best:.10g} by "
                    f"{excess:.1e} relative: an objective or C convention is wrong")
            elif excess > 0:
                out["notes"].append(
                    f"the dual value of {src}, {v:.10g}, exceeds P_best by {excess:.1e} relative"
                    + (" (LIBSVM computes it from single-precision kernel values; the dual value of "
                       "its alpha recomputed in double precision is used as the bound)"
                       if not ok else " (rounding)"))
    for r in runs + refs:
        if r.get("tool_objective") is not None and r.get("P") is not None:
            rel = (r["P"] - r["tool_objective"]) / abs(r["tool_objective"])
            msg = (f"{r['tool']['id']} ({r['kind']}): the harness's P from its solution, {r['P']:.10g}, "
                   f"and glpsol's printed optimum, {r['tool_objective']:.10g}, differ by {rel:.1e} relative")
            (out["warnings"] if abs(rel) > 1e-6 else out["notes"]).append(msg)
            break
    out["references"] = [{"tool": r["tool"]["id"], "status": r["status"], "wall": r["wall"],
                          "P": r.get("P"), "argv": r["argv"]} for r in refs]
    for tid in p["tools"]:
        out["tools"].append(_tool_summary(tid, [r for r in runs if r["tool"]["id"] == tid],
                                          P_best, convergence=True))
    return out


def _gap(P, P_best):
    if P is None or P_best is None:
        return None
    return objectives.rel_gap(P, P_best)


def _tool_summary(tid, recs, P_best, convergence=False):
    main = [r for r in recs if r["kind"] == "main"]
    ok = [r for r in main if r["status"] == "ok"]
    reads = [r for r in recs if r["kind"] == "read" and r["status"] == "ok"]
    s = {"id": tid, "runs": len(main), "ok": len(ok),
         "statuses": sorted({r["status"] for r in main}),
         "approx": main[0]["tool"].get("approx", "") if main else "",
         "note": main[0]["tool"].get("note", "") if main else "",
         "adapter": main[0]["tool"]["adapter"] if main else None}
    if main and not ok:
        s["error"] = main[0].get("error")
        s["timeout"] = main[0].get("timeout")
    if ok:
        times = [r["time"] for r in ok]
        s["time_median"], s["time_min"], s["time_max"] = _median(times), min(times), max(times)
        s["wall_median"] = _median([r["wall"] for r in ok])
        s["rss_mb"] = _median([r["maxrss_kb"] / 1024 for r in ok if r["maxrss_kb"]])
        s["rss_source"] = ok[0].get("rss_source")
        s["read_time"] = _median([r["info"].get("read_time") for r in ok])
        s["read_source"] = "printed" if s["read_time"] is not None else None
        if s["read_time"] is None and reads:
            s["read_time"] = _median([r["wall"] for r in reads])
            s["read_source"] = "probe"
            s["read_rss_mb"] = _median([r["maxrss_kb"] / 1024 for r in reads if r["maxrss_kb"]])
        first = ok[0]
        s["exit"] = first["info"].get("exit")
        s["iterations"] = first["info"].get("iterations")
        s["P"] = first.get("P")
        s["gap"] = _gap(s["P"], P_best)
        s["lower"] = first["info"].get("lower")
        s["row_products_per_row"] = first["info"].get("row_products_per_row")
        # kernel models: kernel values computed (nesvm prints it; LIBSVM's counted),
        # distinct training rows in the model, nesvm's printed relative gap and
        # solver time (training without reading); the first timed run's
        s["kernel_evals"] = first["info"].get("kernel_evals")
        s["basis"] = first["info"].get("basis")
        s["tool_gap"] = first["info"].get("tool_gap")
        s["solve_median"] = _median([r["info"].get("solve_time") for r in ok])
        if first.get("accuracy") is not None:
            s["accuracy"], s["accuracy_on"] = first["accuracy"], first["accuracy_on"]
        elif first.get("predict", {}).get("accuracy") is not None:
            s["accuracy"], s["accuracy_on"] = first["predict"]["accuracy"], first["predict"]["on"]
        elif first["info"].get("accuracy") is not None:
            s["accuracy"], s["accuracy_on"] = first["info"]["accuracy"], first["info"]["accuracy_on"]
        s["argv"] = first["argv"]
    if not convergence:
        return s
    # convergence: nesvm from its trace, the others from main runs + sweeps
    pts = []
    if ok and s.get("P") is not None:
        pts.append({"time": s["time_median"], "P": s["P"], "gap": s["gap"], "kind": "default",
                    "tol": None})
    for r in recs:
        if r["kind"] == "sweep" and r["status"] == "ok" and r.get("P") is not None:
            pts.append({"time": r["time"], "P": r["P"], "gap": _gap(r["P"], P_best),
                        "kind": "tol %g" % r["tol"], "tol": r["tol"]})
    s["points"] = sorted(pts, key=lambda q: q["time"])
    s["max_time_tried"] = max([r["time"] for r in recs if r["kind"] in ("main", "sweep")
                               and r.get("time") is not None], default=None)
    if ok and ok[0]["tool"]["adapter"] == "nesvm" and ok[0].get("trace"):
        # the run with the median wall time provides the curve
        r = sorted(ok, key=lambda q: q["wall"])[(len(ok) - 1) // 2]
        tr = read_trace(os.path.join(r["dir"], r["trace"]))
        t = tr["seconds"] + (r["info"].get("read_time") or 0.0)
        bp = tr["best_primal"]
        s["curve"] = _decimate(t, bp)
        s["curve_run"] = os.path.basename(r["dir"])
        s["time_to"] = {}
        for g in GAPS:
            hit = np.nonzero((bp - P_best) / abs(P_best) <= g)[0] if P_best else []
            s["time_to"][str(g)] = float(t[hit[0]]) if len(hit) else None
        s["time_to_basis"] = "trace"
        s["curve_end"] = float(t[-1]) if t.size else None
    else:
        s["time_to"] = {}
        for g in GAPS:
            hits = [q["time"] for q in pts if q["gap"] is not None and q["gap"] <= g]
            s["time_to"][str(g)] = min(hits) if hits else None
        s["time_to_basis"] = "runs"
    return s


def _decimate(t, y, keep=400):
    """At most ``keep`` points, log-spaced in time, plus the last one."""
    if t.size <= keep:
        return {"t": t.tolist(), "P": y.tolist()}
    idx = np.unique(np.concatenate([
        np.searchsorted(t, np.geomspace(max(t[0], 1e-6), t[-1], keep)).clip(0, t.size - 1),
        [t.size - 1]]))
    return {"t": t[idx].tolist(), "P": y[idx].tolist()}


def _homotopy(data, cs, p, runs, done, log):
    """Homotopy vs plain NESVM: per run iterations (the model's submodel
    line), nesvm's solver time, wall time, P with the hinge_freebias formula
    and its gap to that family's P_best in the same case (if it ran)."""
    Xtr = data.load(cs["dataset"], "train")
    base = next((q for q in done if q["family"] == HOMOTOPY_OF and q["C"] == p["C"]), None)
    P_best = base.get("P_best") if base else None
    out = {"family": p["family"], "C": p["C"], "gamma": None, "key": p["key"], "tools": [],
           "warnings": [], "P_best": P_best,
           "P_best_source": (f"{HOMOTOPY_OF}: {base['P_best_source']}" if base and P_best is not None
                             else None)}
    for rec in runs:
        rec["P"] = None
        if rec["status"] != "ok" or not rec.get("model"):
            continue
        path = os.path.join(rec["dir"], rec["model"])
        P, model, _ = _objective(data, cs["dataset"], HOMOTOPY_OF, p["C"], tool_from_dict(rec["tool"]),
                                 path, Xtr, log)
        rec["P"] = P
        try:
            sub = models.read_nesvm_info(path)[0]
            rec["info"]["iterations"], rec["info"]["exit"] = sub["iterations"], sub["exit"]
            rec["cert_gap"] = sub["gap"]
        except (OSError, IndexError, KeyError, ValueError) as e:
            log(f"    cannot read the submodel line of {path}: {e}")
    for tid in p["tools"]:
        trecs = [r for r in runs if r["tool"]["id"] == tid]
        s = _tool_summary(tid, trecs, P_best)
        ok = [r for r in trecs if r["kind"] == "main" and r["status"] == "ok"]
        if ok:
            s["solve_median"] = _median([r["info"].get("solve_time") for r in ok])
            s["cert_gap"] = ok[0].get("cert_gap")
            s["gap"] = _gap(s.get("P"), P_best)
        out["tools"].append(s)
    return out


def _accuracy_only(p, runs):
    out = {"family": p["family"], "C": p["C"], "gamma": p.get("gamma"), "key": p["key"],
           "tools": [], "warnings": []}
    for tid in p["tools"]:
        out["tools"].append(_tool_summary(tid, [r for r in runs if r["tool"]["id"] == tid], None))
    return out
