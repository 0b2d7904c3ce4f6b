"""Runs a case: reference runs (cached), timed runs of every tool, read
probes and convergence sweeps.  Every run leaves a folder

    OUT/raw/<case>/<problem>/<tool>/<kind>-<i>/
        run.json     command, timings, exit status, parsed facts
        stdout.txt, stderr.txt, the model, nesvm's trace.csv, sklearn's sk.json

so the analysis and the report can be redone (``--report-only``) from the
files alone.  A failing or timed-out run is recorded, never fatal.
"""
import json
import os
import shutil
import time

from lib import cases as cfg
from lib import kernelcount, proc, tools


def _write_json(path, obj):
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1, default=str)
    os.replace(path + ".tmp", path)


def _read(path, limit=None):
    try:
        with open(path, "r", errors="replace") as f:
            return f.read() if limit is None else f.read(limit)
    except OSError:
        return ""


def _tail(text, n=3):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])


class Env:
    """Settings shared by all runs of one harness invocation."""

    def __init__(self, out_dir, data, nesvm_bin, mode, log, timeout=None, runs=None,
                 refresh_refs=False):
        self.out = out_dir
        self.data = data
        self.nesvm_bin = nesvm_bin
        self.mode = mode
        self.log = log
        self.timeout = timeout
        self.runs = runs
        self.refresh_refs = refresh_refs


def execute(tool, ctx, rundir, kind, timeout, tol=None, predict=False, extra=None):
    """One run of ``tool`` in ``rundir``; returns and writes its record."""
    if os.path.isdir(rundir):
        shutil.rmtree(rundir)
    os.makedirs(rundir)
    ctx = dict(ctx)
    ctx["model"] = os.path.join(rundir, "model" + tools.model_suffix(tool))
    ctx["json"] = os.path.join(rundir, "sk.json")
    if tool.adapter != "nesvm" or not ctx.get("trace"):
        ctx["trace"] = None
    else:
        ctx["trace"] = os.path.join(rundir, "trace.csv")
    try:
        ctx = tools.prepare(tool, ctx, rundir)      # glpsol's LP file (not timed)
    except Exception as e:  # recorded like a failed run
        rec = {"kind": kind, "tol": tol, "tool": _tool_dict(tool), "argv": [], "status": "error",
               "wall": 0.0, "maxrss_kb": None, "cpu": None, "rss_source": None, "returncode": None,
               "timeout": timeout, "error": f"preparing the input failed: {type(e).__name__}: {e}",
               "info": {}, "time": 0.0, "model": None, "trace": None}
        rec.update(extra or {})
        _write_json(os.path.join(rundir, "run.json"), rec)
        return rec
    argv = tools.train_argv(tool, ctx, tol=tol, read_probe=(kind == "read"))
    out, err = os.path.join(rundir, "stdout.txt"), os.path.join(rundir, "stderr.txt")
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    # Threads: nesvm gets its run's thread count for OpenMP and for OpenBLAS
    # (its dense algebra: kernel blocks, ssvm/nssvm's Newton systems), as
    # --threads does the rest; every other tool one thread (scikit-learn's
    # BLAS and OpenMP included; LIBSVM, LIBLINEAR, svmocas and glpsol are
    # single-threaded anyway)
    threads = str(tool.opts.get("threads", 1)) if tool.adapter == "nesvm" else "1"
    env = dict(os.environ, OMP_NUM_THREADS=threads, OPENBLAS_NUM_THREADS=threads)
    count_file = None
    if tool.adapter == "libsvm" and tool.count_kernel and kind != "read" and kernelcount.library():
        # LIBSVM's RBF kernel values: exp() calls counted by LD_PRELOAD (in the timed run)
        count_file = os.path.join(rundir, "expcount.txt")
        env = kernelcount.env(kernelcount.library(), count_file, env)
    r = proc.run(argv, out, err, timeout=timeout, env=env)
    stdout, stderr = _read(out), _read(err)
    sk = None
    if os.path.exists(ctx["json"]):
        with open(ctx["json"]) as f:
            sk = json.load(f)
    info = tools.parse_output(tool, stdout, stderr, sk)
    if count_file and r["returncode"] == 0:
        n = kernelcount.read(count_file)
        if n is not None:
            info["kernel_evals"] = n
    has_model = os.path.exists(ctx["model"])
    if r["error"]:
        status = "error"
    elif r["timed_out"]:
        status = "timeout"
    elif r["returncode"] != 0:
        status = "failed"
    elif tool.adapter == "sklearn" and sk is None:
        status = "failed"
    elif tool.adapter != "sklearn" and not has_model:
        status = "failed"
    else:
        status = "ok"
    rec = {
        "kind": kind, "tol": tol, "tool": _tool_dict(tool), "argv": argv, "started": started,
        "status": status, "wall": r["wall"], "maxrss_kb": r["maxrss_kb"], "cpu": r.get("cpu"),
        "rss_source": r["rss_source"], "returncode": r["returncode"], "timeout": timeout,
        "error": r["error"] or (None if status == "ok" else f"timed out after {timeout:g} s"
                                if status == "timeout" else _tail(stderr) or _tail(stdout)),
        "info": info,
        "time": info.get("time", r["wall"]) if status == "ok" else r["wall"],
        "model": os.path.basename(ctx["model"]) if has_model else None,
        "trace": "trace.csv" if ctx["trace"] and os.path.exists(ctx["trace"]) else None,
    }
    rec.update(extra or {})
    if predict and status == "ok":
        pargv = tools.predict_argv(tool, ctx, os.path.join(rundir, "predictions.txt"))
        if pargv:
            pr = proc.run(pargv, os.path.join(rundir, "predict.stdout.txt"),
                          os.path.join(rundir, "predict.stderr.txt"), timeout=timeout,
                          env=dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1"))
            acc = tools.parse_accuracy(_read(os.path.join(rundir, "predict.stdout.txt")))
            rec["predict"] = {"argv": pargv, "wall": pr["wall"], "accuracy": acc,
                              "on": "test" if ctx.get("test") else "train"}
    _write_json(os.path.join(rundir, "run.json"), rec)
    return rec


def _tool_dict(tool):
    return {"id": tool.id, "adapter": tool.adapter, "opts": tool.opts, "approx": tool.approx,
            "note": tool.note, "count_kernel": tool.count_kernel}


def tool_from_dict(d):
    return tools.Tool(d["id"], d["adapter"], d["opts"], approx=d.get("approx", ""),
                      note=d.get("note", ""))


def _base_ctx(env, meta, problem, name):
    return {"train": env.data.path(name, "train"),
            "test": env.data.path(name, "test") if meta["has_test"] else None,
            "d": meta["d"], "C": problem.C, "gamma": problem.gamma,
            "nesvm_bin": env.nesvm_bin, "seed": 1}


def ensure_references(env, case, problem, meta, refs=None):
    """Run (or reuse from the cache in DATA_DIR/pbest/) the tight reference
    runs of a binary linear problem (``refs``: a list like
    cases.REFERENCES[family], which is the default).  Returns their records
    (with 'dir')."""
    recs = []
    n = meta["n_train"]
    sig = env.data.signature(case.dataset)
    for ref in cfg.REFERENCES.get(problem.family, []) if refs is None else refs:
        if n > ref["max_rows"] or meta["d"] > ref.get("max_features", meta["d"]):
            continue
        tool = ref["tool"]
        rdir = os.path.join(env.data.dir, "pbest", case.dataset, problem.key, tool.slug)
        rjson = os.path.join(rdir, "run.json")
        rec = None
        if os.path.exists(rjson) and not env.refresh_refs:
            with open(rjson) as f:
                rec = json.load(f)
            if rec.get("signature") != sig:
                rec = None
        if rec is None:
            env.log(f"  reference {problem.key}: {tool.id} (cached for later runs)")
            ctx = _base_ctx(env, meta, problem, case.dataset)
            ctx["trace"] = True              # nesvm only: its lower bound certifies P_best
            ctx["time_limit"] = ref.get("time_limit")
            rec = execute(tool, ctx, rdir, "reference", env.timeout or cfg.REFERENCE_TIMEOUT,
                          tol=ref["tol"], extra={"signature": sig})
        rec["dir"] = rdir
        recs.append(rec)
    return recs


def run_case(env, case):
    """Run every configured tool of ``case`` (already adjusted to the mode)."""
    data = env.data
    meta = data.ensure(case.dataset)
    binary = len(meta["classes"]) == 2
    cdir = os.path.join(env.out, "raw", case.name)
    if os.path.isdir(cdir):
        shutil.rmtree(cdir)
    os.makedirs(cdir)
    runs = env.runs or case.runs
    t_case = time.time()
    problems = [p for p in case.problems
                if (p.family in cfg.LINEAR_BINARY + ("homotopy",) and binary) or p.family == "rbf"
                or (p.family == "multiclass" and not binary)]
    summary = {"case": case.name, "dataset": case.dataset, "description": case.description,
               "mode": env.mode, "runs": runs, "meta": meta, "started": time.strftime("%Y-%m-%d %H:%M:%S"),
               "nesvm_time_limit": case.nesvm_time_limit, "key": case.key,
               "kernel_targets": case.kernel_targets,
               "problems": [], "references": {}}
    for problem in problems:
        pdir = os.path.join(cdir, problem.key)
        os.makedirs(pdir)
        linear_binary = problem.family in cfg.LINEAR_BINARY
        if linear_binary:
            summary["references"][problem.key] = ensure_references(env, case, problem, meta)
        ptools = cfg.tools_for(case, problem, meta["n_train"])
        summary["problems"].append({"family": problem.family, "C": problem.C, "gamma": problem.gamma,
                                    "key": problem.key, "tools": [t.id for t in ptools]})
        ctx = _base_ctx(env, meta, problem, case.dataset)
        ctx["time_limit"] = case.nesvm_time_limit
        ctx["trace"] = linear_binary
        dead, times = set(), {}
        for r in range(runs):                 # rounds: every tool once per round
            for tool in ptools:
                if tool.id in dead:
                    continue
                env.log(f"  {case.name} {problem.key} {tool.id} run {r + 1}/{runs}")
                rec = execute(tool, ctx, os.path.join(pdir, tool.slug, f"main-{r + 1}"), "main",
                              _timeout(env, case, tool, meta),
                              predict=(r == 0 and problem.family in ("rbf", "multiclass")))
                _report_status(env, rec)
                if rec["status"] in ("timeout", "error"):
                    dead.add(tool.id)      # no more runs of a tool that timed out
                elif rec["status"] == "ok":
                    times.setdefault(tool.id, []).append(rec["time"])
        main_time = {t: sorted(v)[len(v) // 2] for t, v in times.items()}
        if case.read_probe:
            for r in range(runs):
                for tool in ptools:
                    if tools.has_read_probe(tool):
                        env.log(f"  {case.name} {problem.key} {tool.id} read probe {r + 1}/{runs}")
                        rec = execute(tool, ctx, os.path.join(pdir, tool.slug, f"read-{r + 1}"),
                                      "read", _timeout(env, case, tool, meta))
                        _report_status(env, rec)
        if linear_binary:
            for tool in ptools:
                if tool.id in dead or main_time.get(tool.id, 0) > case.sweep_max_time:
                    continue
                for tol in cfg.sweep_values(case, tool):
                    env.log(f"  {case.name} {problem.key} {tool.id} sweep tol {tol:g}")
                    rec = execute(tool, ctx, os.path.join(pdir, tool.slug, f"sweep-{tol:g}"), "sweep",
                                  _timeout(env, case, tool, meta), tol=tol)
                    _report_status(env, rec)
                    if rec["status"] != "ok":
                        break                 # tighter tolerances would take longer still
    summary["seconds"] = round(time.time() - t_case, 1)
    _write_json(os.path.join(cdir, "case.json"), summary)
    return summary


def _timeout(env, case, tool, meta):
    if env.timeout:
        return env.timeout
    t = cfg.timeout_for(case, tool)
    if tool.adapter == "nesvm" and case.nesvm_time_limit:
        # the time limit applies per binary problem; leave room for reading
        k = len(meta["classes"])
        nsub = 1 if k == 2 else (k if "ovr" in tool.id else k * (k - 1) // 2)
        t = max(t, case.nesvm_time_limit * nsub + 120)
    return t


def _report_status(env, rec):
    if rec["status"] != "ok":
        env.log(f"    -> {rec['status']}: {rec.get('error') or ''}"[:300])
