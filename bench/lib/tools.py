"""Tool adapters: how to call each program, what to read from its output,
and how to load its model.

A ``Tool`` is one configured program (``id`` is what the tables show).  Its
adapter knows the command line (train, read probe, predict), the option that
sets the stopping tolerance (for the convergence sweeps), how to parse the
output (reading time, dual value, exit reason) and how to turn the model
file into (w, b) for binary linear problems (models.py).
"""
import os
import re
import shlex
from dataclasses import dataclass, field

from lib import glpk, models

HERE = os.path.dirname(os.path.abspath(__file__))
SK_RUNNER = os.path.join(os.path.dirname(HERE), "sk_runner.py")
LS_NORMAL = os.path.join(os.path.dirname(HERE), "ls_normal.py")
PYTHON = "/usr/bin/python3"


@dataclass
class Tool:
    id: str                      # name in the tables, unique within a problem
    adapter: str                 # nesvm | liblinear | libsvm | ocas | sklearn | glpk | direct
    opts: dict = field(default_factory=dict)
    sweep: list = field(default_factory=list)   # tolerances for convergence runs
    read_probe: bool = False     # time a run that only reads the data
    approx: str = ""             # set when the tool solves a nearby problem
    note: str = ""
    max_rows: int = None         # run only on training sets with at most this many rows
    count_kernel: bool = False   # LIBSVM: count its RBF kernel values (LD_PRELOAD of expcount.c)

    @property
    def slug(self):
        return re.sub(r"[^A-Za-z0-9.=+-]+", "_", self.id).strip("_")


def fmt(x):
    return "%.10g" % x


# ---------------------------------------------------------------- commands

def train_argv(tool, ctx, tol=None, read_probe=False):
    """Command line of one training run.  ctx: dict with train, test, d, C,
    gamma, model, trace, json, nesvm_bin, time_limit, threads, seed."""
    a, o = tool.adapter, tool.opts
    C = fmt(ctx["C"])
    if a == "nesvm":
        # ssvm/nssvm's C is the paper's, on 1/2 sum of squared hinges: twice the family's
        if o.get("solver") in ("ssvm", "nssvm"):
            C = fmt(2 * ctx["C"])
        argv = [ctx["nesvm_bin"], "train", "--solver", o.get("solver", "nesvm"), "-c", C]
        argv += [s.format(gamma=ctx.get("gamma")) for s in o.get("args", [])]
        argv += ["--threads", str(o.get("threads", 1))]
        if ctx.get("trace"):
            argv += ["--trace", ctx["trace"]]
        if tol is not None:
            argv += ["-e", fmt(tol)]
        if ctx.get("time_limit"):
            argv += ["--time-limit", fmt(ctx["time_limit"])]
        return argv + [ctx["train"], ctx["model"]]
    if a == "liblinear":
        if read_probe:  # -s 3 -e 1e9 stops after one pass over the data
            return ["liblinear-train", "-s", "3", "-c", C, "-e", "1e9", ctx["train"], ctx["model"]]
        argv = ["liblinear-train", "-s", str(o["s"]), "-c", C]
        if "B" in o:
            argv += ["-B", fmt(o["B"])]
        if tol is not None:
            argv += ["-e", fmt(tol)]
        return argv + [ctx["train"], ctx["model"]]
    if a == "libsvm":
        argv = ["svm-train", "-s", "0", "-t", str(o["t"]), "-c", C]
        if o["t"] == 2:
            argv += ["-g", fmt(ctx["gamma"])]
        if "m" in o:
            argv += ["-m", str(o["m"])]
        if read_probe:  # with a huge -e, SMO stops before its first step
            argv += ["-e", "1e9"]
        elif tol is not None:
            argv += ["-e", fmt(tol)]
        return argv + [ctx["train"], ctx["model"]]
    if a == "ocas":
        argv = ["svmocas", "-c", C, "-b", fmt(o.get("b", 0)), "-v", "1"]
        if o.get("time_limit"):   # its solver time (reading not counted); the model is written
            argv += ["-t", fmt(o["time_limit"])]
        if tol is not None:
            argv += ["-r", fmt(tol)]
        return argv + [ctx["train"], ctx["model"]]
    if a == "glpk":   # the LP file is written by prepare() before the run
        return ["glpsol", "--lp", ctx["lp"], "-w", ctx["model"],
                "-o", os.path.join(os.path.dirname(ctx["model"]), glpk.PRINTED)]
    if a == "direct":
        return [PYTHON, LS_NORMAL, "--train", ctx["train"], "--n-features", str(ctx["d"]),
                "--C", C, "--model", ctx["model"], "--json", ctx["json"]]
    if a == "sklearn":
        argv = [PYTHON, SK_RUNNER, "--estimator", o["est"], "--train", ctx["train"],
                "--n-features", str(ctx["d"]), "--C", C, "--seed", str(ctx.get("seed", 1)),
                "--json", ctx["json"]]
        if ctx.get("test"):
            argv += ["--test", ctx["test"]]
        for k in ("loss", "fit_intercept", "intercept_scaling", "n_components", "max_iter"):
            if k in o:
                argv += ["--" + k.replace("_", "-"), str(o[k])]
        if o["est"] in ("svc", "nystroem"):
            argv += ["--gamma", fmt(ctx["gamma"])]
        if tol is not None:
            argv += ["--tol", fmt(tol)]
        if o["est"] in ("linearsvc", "sgd", "ridge"):
            argv += ["--model", ctx["model"]]
        return argv
    raise ValueError(f"unknown adapter {a}")


def prepare(tool, ctx, rundir):
    """Input files a run needs besides the data file: glpsol's LP (written
    here from the training set, not timed).  Returns the updated ctx."""
    if tool.adapter != "glpk":
        return ctx
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(ctx["train"], n_features=ctx["d"])
    ctx = dict(ctx, lp=os.path.join(rundir, "problem.lp"))
    glpk.write_lp(ctx["lp"], X, y, ctx["C"], float(max(y)))
    return ctx


def has_read_probe(tool):
    return tool.adapter in ("liblinear", "libsvm") and tool.read_probe


def predict_argv(tool, ctx, out):
    """Predict command for tools whose accuracy comes from their own
    predict program (multiclass and kernel models); None otherwise."""
    a = tool.adapter
    data = ctx["test"] or ctx["train"]
    if a == "nesvm":
        return [ctx["nesvm_bin"], "predict", data, ctx["model"], out]
    if a == "liblinear":
        return ["liblinear-predict", data, ctx["model"], out]
    if a == "libsvm":
        return ["svm-predict", data, ctx["model"], out]
    return None


_ACC = re.compile(r"Accuracy = ([0-9.]+)% \((\d+)/(\d+)\)")


def parse_accuracy(text):
    m = _ACC.search(text)
    return None if m is None else int(m.group(2)) / int(m.group(3))


# ----------------------------------------------------------------- outputs

_NUM = r"([-+0-9.eEinfa]+)"


def parse_output(tool, stdout, stderr, sk_json=None):
    """Facts a run prints: read_time, lower (a dual value, i.e. a lower
    bound on the optimum of the problem the tool solves), exit, iterations,
    solve_time, time (the time the tables show if not the process wall),
    row_products_per_row (nesvm hyperpass and pegasos); kernel models:
    kernel_evals (nesvm), basis (distinct training rows in the model: nesvm's
    basis, LIBSVM's total nSV), support_vectors and tool_gap (nesvm's printed
    relative gap of the problem it solved)."""
    a = tool.adapter
    info = {}
    if a == "nesvm":
        m = re.search(r"^read (\d+) rows, (\d+) features, (\d+) stored entries \(([a-z]+), ([a-z]+)\) in "
                      + _NUM + " s", stdout, re.M)
        if m:
            info["read_time"] = float(m.group(6))
            info["storage"] = f"{m.group(4)}, {m.group(5)}"
        m = re.search(r"iterations (\d+), time " + _NUM + " s", stdout)
        if m:
            info["iterations"], info["solve_time"] = int(m.group(1)), float(m.group(2))
        m = re.search(r"primal objective " + _NUM + r", relative gap " + _NUM
                      + r", support vectors (\d+), exit (\S+)", stdout)
        if m:
            info["tool_primal"], info["tool_gap"], info["exit"] = float(m.group(1)), float(m.group(2)), m.group(4)
            info["support_vectors"] = int(m.group(3))
        m = re.search(r"^dual loss " + _NUM + r", support vectors (\d+), exit (\S+)", stdout, re.M)
        if m:   # gs: no primal, no gap
            info["support_vectors"], info["exit"] = int(m.group(2)), m.group(3)
        m = re.search(r"^kernel \S+, basis (\d+) vectors", stdout, re.M)
        if m:   # the distinct training rows the model keeps (prediction's cost)
            info["basis"] = int(m.group(1))
        m = re.search(r"^kernel evaluations (\d+)", stdout, re.M)
        if m:   # computed (gs: with its cache; its "without the cache" figure is not kept)
            info["kernel_evals"] = int(m.group(1))
        m = re.search(r"^lower bound " + _NUM + r"\s*$", stdout, re.M)
        if m:   # certified: the best dual value of the problem nesvm solved (-c, -B, --svm-type)
            info["lower"] = float(m.group(1))
        m = re.search(r"^row products (\d+) \(" + _NUM + r" per row\)", stdout, re.M)
        if m:   # hyperpass, pegasos: products x_i.w computed, in all and per training row
            info["row_products"], info["row_products_per_row"] = int(m.group(1)), float(m.group(2))
    elif a == "liblinear":
        vals = re.findall(r"Objective value = " + _NUM, stdout)
        max_iter = "reaching max number of iterations" in stdout
        if vals and tool.opts.get("s") in (1, 3) and not max_iter:
            # printed: dual objective in minimization form.  Not after the
            # iteration limit: then it was measured above the optimum
            # (breast_cancer, -s 3, C = 1.7574692442882247, -e 1e-6: -92.408561
            # against P* = 92.4085586141 from two certified solvers)
            info["lower"] = -float(vals[-1])
        its = re.findall(r"#iter = (\d+)", stdout)
        if its:
            info["iterations"] = max(int(i) for i in its)
        else:  # -s 2 (trust-region Newton) prints one "iter N ..." line per Newton step
            newton = re.findall(r"^iter\s+(\d+)", stdout, re.M)
            if newton:
                info["iterations"] = max(int(i) for i in newton)
        if max_iter:
            info["exit"] = "max-iter"
        if tool.opts.get("s") in (1, 3):
            # dual CD prints '*' each time its stopping test fired with variables
            # shrunk (it then un-shrinks and goes on): none in a run that reached the
            # iteration cap means a tighter -e repeats that run exactly (c_sweep.py)
            info["unshrinks"] = stdout.count("*")
    elif a == "libsvm":
        objs = re.findall(r"obj = " + _NUM, stdout)
        if len(objs) == 1:
            info["lower"] = -float(objs[0])   # dual objective of LIBSVM's alpha
        its = re.findall(r"#iter = (\d+)", stdout)
        if its:
            info["iterations"] = sum(int(i) for i in its)
        m = re.search(r"^Total nSV = (\d+)", stdout, re.M)
        if m:   # distinct support vectors over all pairs
            info["basis"] = int(m.group(1))
        if "reaching max number of iterations" in stdout:
            info["exit"] = "max-iter"
    elif a == "ocas":
        m = re.search(r"load_time\s*:\s*" + _NUM, stdout)
        if m:
            info["read_time"] = float(m.group(1))
        m = re.search(r"ocas_time\s*:\s*" + _NUM, stdout)
        if m:
            info["solve_time"] = float(m.group(1))
        its = re.findall(r"^\s*(\d+): tim=\S+ Q_P=" + _NUM + r", Q_D=" + _NUM, stdout, re.M)
        if its:
            info["iterations"] = int(its[-1][0])
            if tool.opts.get("b", 0) == 0:     # Q_D bounds the no-bias problem
                info["lower"] = float(its[-1][2])
        m = re.search(r"Stopping condition: (.*)", stdout)
        if m:
            info["exit"] = "time" if "time" in m.group(1).lower() else "converged"
    elif a == "glpk":
        its = re.findall(r"^[ *]\s*(\d+): obj =", stdout, re.M)
        if its:
            info["iterations"] = int(its[-1])
        if "OPTIMAL LP SOLUTION FOUND" in stdout:
            info["exit"] = "optimal"
        elif re.search(r"PROBLEM HAS NO|TIME LIMIT|ITERATION LIMIT", stdout):
            info["exit"] = re.search(r"PROBLEM HAS NO[^\n]*|TIME LIMIT[^\n]*|ITERATION LIMIT[^\n]*",
                                     stdout).group(0).strip().lower()
        m = re.search(r"^Time used:\s+" + _NUM + " secs", stdout, re.M)
        if m:
            info["solve_time"] = float(m.group(1))
    elif a in ("sklearn", "direct") and sk_json:
        info["read_time"] = sk_json["load_seconds"]
        info["solve_time"] = sk_json["fit_seconds"]
        info["time"] = sk_json["load_seconds"] + sk_json["fit_seconds"]
        if "accuracy" in sk_json:
            info["accuracy"] = sk_json.get("accuracy")
        info["accuracy_on"] = sk_json.get("accuracy_on")
        if "n_iter" in sk_json:
            info["iterations"] = sk_json["n_iter"]
        if any("converge" in w for w in sk_json.get("warnings", [])):
            info["exit"] = "not converged"
    return info


def load_model(tool, path):
    """(w, b, positive label) of a binary linear model written by the tool."""
    a = tool.adapter
    if a == "nesvm":
        return models.read_nesvm(path)
    if a == "liblinear":
        return models.read_liblinear(path)
    if a == "libsvm":
        return models.read_libsvm(path)
    if a == "ocas":
        return models.read_ocas(path, tool.opts.get("b", 0))
    if a in ("sklearn", "direct"):
        return models.read_npz(path)
    if a == "glpk":
        return models.read_glpsol(path)
    raise ValueError(a)


def parse_nesvm_spec(spec, threads, gamma=None):
    """'SOLVER [nesvm train options]' (cases.NESVM_SOLVERS) -> Tool.  The
    options keep their {gamma} placeholder (the command gets the problem's
    gamma to 10 digits); the label shows gamma with %g."""
    words = shlex.split(spec)
    shown = [w.format(gamma="%g" % gamma) if gamma is not None else w for w in words[1:]]
    label = " ".join(["nesvm"] + ([] if words[0] == "nesvm" else [words[0]]) + shown)
    if threads is not None:
        label += f" t{threads}"
    return Tool(label, "nesvm", {"solver": words[0], "args": words[1:], "threads": threads or 1})


def model_suffix(tool):
    return ".npz" if tool.adapter in ("sklearn", "direct") else ".model"

