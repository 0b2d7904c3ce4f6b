#!/usr/bin/python3
"""test_dist.py - `nesvm train --distributed` under mpirun -np P against the
single-process training of the same data (the independent truth: the same
problem solved serially).

For every distributed solver configuration (NESVM's models by Newton and
by Nesterov, the squared hinge (--loss), logistic regression, the joint
multiclass problems (Crammer and Singer, multinomial), LS-SVR on real targets, SSVM and NSSVM by every Newton scheme, Hyperpass, GS-SVM, kernel
features (a reduced basis, the full kernel), probability estimates, class weights, lambda, no bias, one-vs-one and one-vs-rest on data
whose classes first appear on different ranks, warm starts, per-rank files from
`nesvm split`), the models must have the same labels, class order and
parameters, every sub-model's primal objective within 1e-6 relative, and the
same predictions on the training data; cross-validation (cv, train -v, -C) and
grid search with the folds shared out must print the same figures and write
the same CSV (also when resumed).  Bad input must stop every rank (the
test's timeout catches a hang) with the message of the rank that failed, the
serial message where there is one (a damaged line keeps the whole file's line
number), a non-zero exit and no model file.

Usage: test_dist.py NESVM MPIRUN NP ROOT
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

NESVM, MPIRUN, NP, ROOT = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"
BREAST = os.path.join(ROOT, "tests", "data", "breast_cancer_scale")
failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL (np %d): %s" % (NP, what), file=sys.stderr)


def run(args, cwd):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


def serial(args, cwd):
    return run([NESVM] + args, cwd)


def mpi(args, cwd):
    return run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(NP), NESVM] + args, cwd)


def model_parts(path):
    """The header lines (labels, params, problem...) and every sub-model's primal."""
    head, primal = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("submodel"):
                m = re.search(r" primal (\S+)", line)
                primal.append(float(m.group(1)))
            elif re.match(r"(labels|nr_class|param|problem|solver|features|multiclass|nr_sub)", line):
                head.append(line.strip())
    return head, primal


def predictions(model, data, cwd):
    r = serial(["predict", data, model, "pred.out"], cwd)
    check(r.returncode == 0, "predict with %s: %s" % (model, r.stderr))
    with open(os.path.join(cwd, "pred.out")) as f:
        return f.read()


def same_training(name, opts, data, cwd, dist_data=None, init=None):
    """Serial and distributed trainings of data agree (dist_data: the
    distributed input, e.g. a split prefix)."""
    extra = ["--init", init] if init else []
    s = serial(["train"] + opts + extra + [data, "serial.model"], cwd)
    check(s.returncode == 0, "%s: serial training failed: %s" % (name, s.stderr))
    m = os.path.join(cwd, "dist.model")
    if os.path.exists(m):
        os.remove(m)
    d = mpi(["train", "--distributed"] + opts + extra + [dist_data or data, "dist.model"], cwd)
    check(d.returncode == 0, "%s: distributed training failed: %s%s" % (name, d.stdout, d.stderr))
    if s.returncode or d.returncode:
        return
    check("distributed over %d processes" % NP in d.stdout, "%s: no distributed summary: %s" % (name, d.stdout))
    hs, ps = model_parts(os.path.join(cwd, "serial.model"))
    hd, pd = model_parts(m)
    check(hs == hd, "%s: model headers differ:\n%s\n%s" % (name, hs, hd))
    check(len(ps) == len(pd) and len(ps) > 0, "%s: sub-model counts %d and %d" % (name, len(ps), len(pd)))
    for k, (a, b) in enumerate(zip(ps, pd)):
        check(abs(a - b) <= 1e-6 * abs(a), "%s: sub-model %d primal %.17g serial, %.17g distributed" % (name, k, a, b))
    # labels must agree exactly; a regression's values as far as the
    # certificate pins the model: both are within ||w - w*|| <= sqrt(2 gap P)
    # of the optimum (1/2 ||w||^2 makes P 1-strongly convex), so with -e 1e-10
    # and P ~ 10 the values may differ by ~1e-5 |z| (measured: 3.4e-7 with a
    # 50-vector RBF basis, whose features are nearly collinear)
    ts, td = predictions("serial.model", data, cwd).split(), predictions("dist.model", data, cwd).split()
    same = len(ts) == len(td) and all(a == b or abs(float(a) - float(b)) <= 1e-5 * (1 + abs(float(a)))
                                      for a, b in zip(ts, td))
    check(same, "%s: predictions differ" % name)


def refused(name, args, cwd, want, model="bad.model", command=False):
    """Every rank stops with `want` in the message, a non-zero exit, no model
    (command: args is a whole command line, no model argument)."""
    path = os.path.join(cwd, model)
    if os.path.exists(path):
        os.remove(path)
    r = mpi(args if command else ["train", "--distributed"] + args + [model], cwd)
    check(r.returncode != 0, "%s: exit status 0" % name)
    check(want in r.stderr, "%s: wanted %r in the message, got %r" % (name, want, r.stderr))
    check(len(re.findall(r"^nesvm \w+: ", r.stderr, re.M)) == 1, "%s: the error not printed once: %r" % (name, r.stderr))
    check(not os.path.exists(path), "%s: a model file was written" % name)
    leftovers = [f for f in os.listdir(cwd) if f.startswith(model + ".") or ".tmp" in f]
    check(not leftovers, "%s: files left behind: %s" % (name, leftovers))


def blobs(path):
    """Three classes in 4 features, sorted by label so that with ranges each
    rank first sees a different class (the class order must still be the
    serial first-appearance order: label 2 first)."""
    rows = []
    state = 12345
    def rnd():
        nonlocal state
        state = (state * 1103515245 + 12345) % (1 << 31)
        return state / float(1 << 31) - 0.5
    for label, centre in ((2, (1, 0, 0, 1)), (1, (0, 1, 0, -1)), (3, (0, 0, 1, 0))):
        for _ in range(90):
            x = [c + 1.2 * rnd() for c in centre]
            rows.append("%d " % label + " ".join("%d:%.6g" % (j + 1, v) for j, v in enumerate(x)) + "\n")
    with open(path, "w") as f:
        f.writelines(rows)


def near(a, b, rel=1e-9):
    """Two outputs the same but for the last digits of their numbers (within
    rel): a regression's MSE sees the last bits of every prediction, and
    OpenBLAS sums in another order with another thread count (all cores in a
    serial run, one per process where mpirun binds each to a core)."""
    ta = re.split(r"(-?\d+(?:\.\d*)?(?:e[-+]?\d+)?)", a)
    tb = re.split(r"(-?\d+(?:\.\d*)?(?:e[-+]?\d+)?)", b)
    return len(ta) == len(tb) and all(
        x == y if k % 2 == 0 else abs(float(x) - float(y)) <= rel * max(abs(float(x)), abs(float(y)))
        for k, (x, y) in enumerate(zip(ta, tb)))


def targets(path):
    """A regression set: 150 rows of 4 features, real targets (a smooth
    function of the features and some noise)."""
    state = 777
    def rnd():
        nonlocal state
        state = (state * 1103515245 + 12345) % (1 << 31)
        return state / float(1 << 31) - 0.5
    with open(path, "w") as f:
        for _ in range(150):
            x = [2 * rnd() for _ in range(4)]
            y = x[0] - 0.5 * x[1] + math.sin(2 * x[2]) + 0.2 * rnd()
            f.write("%.10g " % y + " ".join("%d:%.6g" % (j + 1, v) for j, v in enumerate(x)) + "\n")


def main():
    tmp = tempfile.mkdtemp(prefix="nesvm-dist-")
    try:
        shutil.copy(HEART, os.path.join(tmp, "heart"))
        shutil.copy(BREAST, os.path.join(tmp, "breast"))
        blobs(os.path.join(tmp, "blobs"))
        # NESVM, every model and both methods
        for opts in (["-e", "1e-9"], ["-e", "1e-9", "--svm-type", "lp"], ["-e", "1e-9", "--svm-type", "ls"],
                     ["-e", "1e-6", "--method", "nesterov"],
                     ["-e", "1e-4", "--method", "nesterov", "--svm-type", "lp", "--max-iter", "3000"],
                     ["-e", "1e-9", "--method", "nesterov", "--svm-type", "ls"],
                     ["-e", "1e-9", "--lipschitz", "paper", "--method", "nesterov", "--max-iter", "2000"]):
            same_training("heart " + " ".join(opts), opts, "heart", tmp)
        # SSVM and NSSVM: every Newton scheme (the dense Hessian summed over
        # the ranks, SMW on the gathered active rows, CG's products reduced)
        for opts in (["--solver", "ssvm", "-e", "1e-9"], ["--solver", "nssvm", "-e", "1e-9"],
                     ["--solver", "nssvm", "--scheme", "1"], ["--solver", "nssvm", "--scheme", "2"],
                     ["--solver", "ssvm", "--scheme", "3"], ["--solver", "nssvm", "--scheme", "cg", "-e", "1e-8"],
                     ["--solver", "ssvm", "--merit", "f", "-c", "10"]):
            same_training("heart " + " ".join(opts), opts, "heart", tmp)
        # Hyperpass: L_A chosen over the ranks, the line search by collective
        # bracketing, the final band's bound likewise
        for opts in (["--solver", "hyperpass", "-e", "1e-9"], ["--solver", "hyperpass", "-B", "1", "-e", "1e-9"],
                     ["--solver", "hyperpass", "-B", "1", "-c", "100", "-e", "1e-9"],
                     ["--solver", "hyperpass", "--lambda", "0.001", "-B", "1"]):
            same_training("heart " + " ".join(opts), opts, "heart", tmp)
        same_training("breast hyperpass", ["--solver", "hyperpass", "-B", "1", "-c", "10", "-e", "1e-9"], "breast", tmp)
        same_training("blobs hyperpass ovo", ["--solver", "hyperpass", "-B", "1", "-e", "1e-9"], "blobs", tmp)
        # GS-SVM: the arg-min over the ranks, the chosen row broadcast, the
        # expansion's rows gathered in rank order
        for opts in (["--solver", "gs", "-t", "2"], ["--solver", "gs", "-t", "2", "-B", "1"],
                     ["--solver", "gs", "-t", "0"], ["--solver", "gs", "-t", "2", "--cap", "1", "--max-iter", "50"],
                     ["--solver", "gs", "-t", "1", "-g", "0.1"]):
            same_training("heart " + " ".join(opts), opts, "heart", tmp)
        # kernel features: the serial basis draw, its rows gathered onto every
        # rank, every rank's factor, each rank's features (SSVM and NSSVM's RKHS
        # and coefficient norms, the automatic basis, the full kernel; NESVM's
        # reduced basis, LP-SVM by Nesterov on K(x, B))
        for opts in (["--solver", "nssvm", "-t", "2", "-e", "1e-9"],
                     ["--solver", "ssvm", "-t", "2", "--basis", "60", "-e", "1e-9"],
                     ["--solver", "nssvm", "-t", "2", "--kernel-norm", "coef", "--basis", "50", "-e", "1e-9"],
                     ["--solver", "nssvm", "-t", "2", "--basis", "0", "-e", "1e-9"],
                     ["--solver", "ssvm", "-t", "2", "--basis-residual", "0.01", "-e", "1e-9"],
                     ["-t", "2", "--basis", "50", "-e", "1e-8"],
                     ["-t", "2", "--basis", "50", "--svm-type", "lp", "--method", "nesterov", "-e", "1e-4"]):
            same_training("heart " + " ".join(opts), opts, "heart", tmp)
        # the greedy basis: pivots chosen over the ranks one at a time
        for opts in (["--solver", "nssvm", "-t", "2", "--basis", "40", "--basis-select", "greedy", "-e", "1e-9"],
                     ["--solver", "ssvm", "-t", "2", "--basis-select", "greedy", "-e", "1e-9"],
                     ["--solver", "nssvm", "-t", "2", "--basis", "40", "--basis-select", "greedy", "--kernel-norm",
                      "coef", "-e", "1e-9"]):
            same_training("heart " + " ".join(opts), opts, "heart", tmp)
            for part in ("serial.model", "dist.model"):
                with open(os.path.join(tmp, part)) as f:
                    basis = [l for l in f.read().splitlines() if l.startswith("sv ")]
                if part == "serial.model":
                    want = basis
            check(basis == want and basis, "greedy basis rows differ: %s / %s" % (basis[:2], want[:2]))
        same_training("blobs nssvm rbf ovo", ["--solver", "nssvm", "-t", "2", "--basis", "40", "-e", "1e-9"], "blobs", tmp)
        same_training("blobs gs ovo", ["--solver", "gs", "-t", "2"], "blobs", tmp)
        same_training("blobs gs ovr", ["--solver", "gs", "-t", "2", "--multiclass", "ovr"], "blobs", tmp)
        same_training("blobs nssvm ovr", ["--solver", "nssvm", "--multiclass", "ovr"], "blobs", tmp)
        same_training("breast ssvm --lambda", ["--solver", "ssvm", "--lambda", "0.001"], "breast", tmp)
        same_training("breast -c 10 -w1 3", ["-c", "10", "-w1", "3", "-e", "1e-9"], "breast", tmp)
        same_training("breast --lambda", ["--lambda", "0.01", "-e", "1e-9"], "breast", tmp)
        same_training("breast -B 0", ["-B", "0", "-e", "1e-9"], "breast", tmp)
        same_training("breast ls -B 0", ["-B", "0", "--svm-type", "ls", "-e", "1e-9"], "breast", tmp)
        same_training("breast --max-iter 3", ["--max-iter", "3"], "breast", tmp)
        same_training("blobs ovo", ["-e", "1e-9"], "blobs", tmp)
        same_training("blobs ovr", ["-e", "1e-9", "--multiclass", "ovr"], "blobs", tmp)
        same_training("blobs ovr lp", ["-e", "1e-8", "--multiclass", "ovr", "--svm-type", "lp"], "blobs", tmp)
        # the loss object and the regression task: --loss squared_hinge, and
        # LS-SVR on real targets (heart's features, its 5th as the target)
        same_training("breast --loss squared_hinge", ["--loss", "squared_hinge", "-e", "1e-9"], "breast", tmp)
        # logistic regression (issue 34): its entropy certificate summed over
        # the ranks, one-vs-rest and one-vs-one, LIBLINEAR's -s 0 (no bias)
        same_training("breast logistic", ["--svm-type", "logistic", "-e", "1e-9"], "breast", tmp)
        same_training("breast logistic -B 0 -c 8", ["--svm-type", "logistic", "-B", "0", "-c", "8", "-e", "1e-9"],
                      "breast", tmp)
        same_training("blobs logistic ovr", ["--svm-type", "logistic", "--multiclass", "ovr", "-e", "1e-9"], "blobs",
                      tmp)
        same_training("blobs logistic ovo -b 1", ["--svm-type", "logistic", "-b", "1", "-e", "1e-9"], "blobs", tmp)
        # the L1 models: logistic regression (-s 6's problem, free bias) and -s 5
        same_training("breast logistic l1", ["--svm-type", "logistic", "--penalty", "l1", "-e", "1e-8"], "breast", tmp)
        # (the L1 norm's distributed method is Newton's: on one process auto
        # takes --method cd, whose column copy is one process's)
        same_training("blobs --liblinear 5", ["--liblinear", "5", "--method", "newton", "-e", "1e-8"], "blobs", tmp)
        # LIBLINEAR's regularized bias (--bias-mode regularized): each rank's rows [x_i, B]
        same_training("breast --liblinear 0 -B 1", ["--liblinear", "0", "-B", "1", "-e", "1e-9"], "breast", tmp)
        same_training("blobs --liblinear 6 -B 2", ["--liblinear", "6", "-B", "2", "--method", "newton", "-e", "1e-8"],
                      "blobs", tmp)
        # the joint multiclass problems: every sum over rows of the joint
        # objective, its balanced dual point and its line search over the ranks
        same_training("blobs cs", ["--multiclass", "cs", "-e", "1e-8"], "blobs", tmp)
        same_training("blobs cs -B 1 -w2 3", ["--multiclass", "cs", "-B", "1", "-w2", "3", "-e", "1e-8"], "blobs",
                      tmp)
        same_training("breast cs", ["--liblinear", "4", "-c", "4", "-e", "1e-8"], "breast", tmp)
        same_training("blobs multinomial", ["--svm-type", "logistic", "--multiclass", "multinomial", "-e", "1e-10"],
                      "blobs", tmp)
        same_training("blobs multinomial -B 0 lambda",
                      ["--svm-type", "logistic", "--multiclass", "multinomial", "-B", "0", "--lambda", "0.01",
                       "-e", "1e-10"], "blobs", tmp)
        with open(HEART) as f, open(os.path.join(tmp, "reg"), "w") as g:
            for line in f:
                feats = dict(t.split(":") for t in line.split()[1:])
                target = feats.pop("5", "0")
                g.write(target + " " + " ".join("%s:%s" % kv for kv in feats.items()) + "\n")
        same_training("reg ls-svr", ["--svm-type", "ls-svr", "-e", "1e-10"], "reg", tmp)
        same_training("reg ls-svr nesterov", ["--svm-type", "ls-svr", "--method", "nesterov", "-e", "1e-8",
                                              "--max-iter", "200000"], "reg", tmp)
        same_training("reg ls-svr rbf basis", ["--svm-type", "ls-svr", "-t", "2", "--basis", "50", "-e", "1e-10"],
                      "reg", tmp)
        # epsilon-SVR (issue 32): the tube's sums (alpha's two signs) over the ranks
        same_training("reg svr", ["--svm-type", "svr", "-p", "0.1", "-e", "1e-10"], "reg", tmp)
        same_training("reg svr -B 0 squared", ["--svm-type", "svr", "-B", "0", "--loss", "squared_epsilon_insensitive",
                                                "-e", "1e-10"], "reg", tmp)
        same_training("reg svr nesterov", ["--svm-type", "svr", "--method", "nesterov", "-e", "1e-7",
                                           "--max-iter", "200000"], "reg", tmp)
        # NSSVM's squared tube (two squared hinges per row, each rank its rows')
        same_training("reg svr nssvm", ["--svm-type", "svr", "--solver", "nssvm", "--loss",
                                        "squared_epsilon_insensitive", "-e", "1e-10"], "reg", tmp)
        same_training("reg svr nssvm scheme 3", ["--svm-type", "svr", "--solver", "nssvm", "--scheme", "3",
                                                 "--loss", "squared_epsilon_insensitive", "-e", "1e-10"], "reg", tmp)
        # Hyperpass's tube (its bound's rows carry their thresholds over the ranks)
        same_training("reg svr hyperpass", ["--svm-type", "svr", "--solver", "hyperpass", "-B", "1", "-e", "1e-9"],
                      "reg", tmp)
        # -W: one weight per row of the whole file, each process keeping its rows'
        with open(os.path.join(tmp, "w.txt"), "w") as f:
            f.writelines("%g\n" % (1 + (i % 5) * 0.5) for i in range(270))
        same_training("heart -W", ["-W", "w.txt", "-e", "1e-9"], "heart", tmp)
        same_training("heart -W hyperpass", ["-W", "w.txt", "--solver", "hyperpass", "-B", "1", "-e", "1e-9"], "heart", tmp)
        with open(os.path.join(tmp, "w3.txt"), "w") as f:
            f.write("1\n2\n3\n")
        refused("-W too few", ["-W", "w3.txt", "heart"], tmp, "w3.txt: 3 weights for 270 rows of data (one per row)")
        # -b 1: Platt's folds drawn over every rank's rows as one process draws
        # them, each fold trained distributed, the sigmoids fitted on every
        # rank's out-of-fold values: the same probabilities (to the folds'
        # tolerance) and labels
        for name, opts, data in (("heart -b 1", ["-b", "1", "-e", "1e-9"], "heart"),
                                 ("heart -b 1 hyperpass", ["-b", "1", "--solver", "hyperpass", "-B", "1", "-e", "1e-9"], "heart"),
                                 ("heart -b 1 gs", ["-b", "1", "--solver", "gs", "-t", "2"], "heart"),
                                 ("blobs -b 1", ["-b", "1", "-e", "1e-9"], "blobs"),
                                 ("blobs -b 1 ovr", ["-b", "1", "-e", "1e-9", "--multiclass", "ovr"], "blobs")):
            same_training(name, opts, data, tmp)
            probs = []
            for part in ("serial.model", "dist.model"):
                r = serial(["predict", "-b", "1", data, part, "p.out"], tmp)
                check(r.returncode == 0, "%s: predict -b 1: %s" % (name, r.stderr))
                with open(os.path.join(tmp, "p.out")) as f:
                    probs.append([l.split() for l in f.read().splitlines()])
            a, b = probs
            ok = len(a) == len(b) and a[0] == b[0] and all(x[0] == y[0] for x, y in zip(a[1:], b[1:]))
            worst = max((abs(float(p) - float(q)) for x, y in zip(a[1:], b[1:]) for p, q in zip(x[1:], y[1:])), default=1)
            check(ok and worst <= 1e-5, "%s: probabilities differ by %g (labels equal: %s)" % (name, worst, ok))
        # warm start from a model at another C
        r = serial(["train", "-c", "0.1", "heart", "init.model"], tmp)
        check(r.returncode == 0, "init model: %s" % r.stderr)
        same_training("heart --init", ["-e", "1e-9"], "heart", tmp, init="init.model")
        # per-rank files from nesvm split
        r = serial(["split", "-n", str(NP), "--out", "part", "heart"], tmp)
        check(r.returncode == 0, "split: %s" % r.stderr)
        same_training("heart split files", ["-e", "1e-9"], "heart", tmp, dist_data="part")
        same_training("heart split files -W", ["-W", "w.txt", "-e", "1e-9"], "heart", tmp, dist_data="part")

        # cross-validation and grid search with the folds shared out: the
        # same accuracies, predictions, CSV and best point as one process
        s_ = serial(["cv", "-v", "5", "--metrics", "breast"], tmp)
        d_ = mpi(["cv", "--distributed", "-v", "5", "--metrics", "breast"], tmp)
        strip = lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("read "))
        check(s_.returncode == 0 and d_.returncode == 0 and strip(s_.stdout) == strip(d_.stdout),
              "cv --distributed: %r against %r (%s)" % (d_.stdout, s_.stdout, d_.stderr))
        # a one-class SVM's: the accuracy and the ROC AUC of every row's decision value
        oc = ["cv", "-v", "5", "-s", "2", "-t", "rbf", "-g", "0.5", "-n", "0.3"]
        s_ = serial(oc + ["heart"], tmp)
        d_ = mpi(oc[:1] + ["--distributed"] + oc[1:] + ["heart"], tmp)
        check(s_.returncode == 0 and d_.returncode == 0 and "ROC AUC" in s_.stdout and
              strip(s_.stdout) == strip(d_.stdout), "cv -s 2 --distributed: %r against %r (%s)" %
              (d_.stdout, s_.stdout, d_.stderr))
        s_ = serial(["train", "-v", "4", "--solver", "hyperpass", "heart"], tmp)
        d_ = mpi(["train", "--distributed", "-v", "4", "--solver", "hyperpass", "heart"], tmp)
        check(s_.returncode == 0 and d_.returncode == 0 and strip(s_.stdout) == strip(d_.stdout),
              "train -v --distributed: %r against %r" % (d_.stdout, s_.stdout))
        s_ = serial(["train", "-C", "heart"], tmp)
        d_ = mpi(["train", "--distributed", "-C", "heart"], tmp)
        check(s_.returncode == 0 and d_.returncode == 0 and strip(s_.stdout) == strip(d_.stdout),
              "train -C --distributed: %r against %r" % (d_.stdout, s_.stdout))
        grid = ["-t", "2", "-log2c", "-3,3,2", "-log2g", "-5,1,2"]
        s_ = serial(["grid"] + grid + ["--out", "s.csv", "heart"], tmp)
        d_ = mpi(["grid", "--distributed"] + grid + ["--out", "d.csv", "heart"], tmp)
        nums = lambda t: [l for l in t.splitlines() if " points scored" not in l]
        with open(os.path.join(tmp, "s.csv")) as f:
            scsv = f.read()
        with open(os.path.join(tmp, "d.csv")) as f:
            dcsv = f.read()
        check(s_.returncode == 0 and d_.returncode == 0 and nums(s_.stdout) == nums(d_.stdout) and scsv == dcsv,
              "grid --distributed: %r against %r" % (d_.stdout, s_.stdout))
        # resumed mid-row by a distributed search: the same CSV
        with open(os.path.join(tmp, "d.csv"), "w") as f:
            f.write("".join(dcsv.splitlines(True)[:-2]))
        d_ = mpi(["grid", "--distributed"] + grid + ["--out", "d.csv", "heart"], tmp)
        with open(os.path.join(tmp, "d.csv")) as f:
            check(d_.returncode == 0 and f.read() == scsv and "resumed 14 of 16 points" in d_.stdout,
                  "grid --distributed resumed: %r" % d_.stdout)
        refused("grid: unwritable CSV", ["grid", "--distributed", "--out", "no/such/dir.csv", "heart"], tmp,
                "cannot create 'no/such/dir.csv': No such file or directory", command=True)
        # a CSV of other data (half the labels flipped) is not resumed: rank 0
        # warns once and every rank searches afresh; a damaged point stops every rank
        with open(os.path.join(tmp, "heart")) as f:
            flipped = [({"+1": "-1", "-1": "+1"}[l[:2]] + l[2:]) if k % 2 == 0 else l for k, l in enumerate(f)]
        with open(os.path.join(tmp, "flip"), "w") as f:
            f.writelines(flipped)
        s_ = serial(["grid"] + grid + ["--out", "fs.csv", "flip"], tmp)
        with open(os.path.join(tmp, "fd.csv"), "w") as f:
            f.write(scsv)
        d_ = mpi(["grid", "--distributed"] + grid + ["--out", "fd.csv", "flip"], tmp)
        with open(os.path.join(tmp, "fs.csv")) as f, open(os.path.join(tmp, "fd.csv")) as g:
            fcsv, gcsv = f.read(), g.read()
        check(d_.returncode == 0 and "resumed" not in d_.stdout and nums(s_.stdout) == nums(d_.stdout) and
              fcsv.splitlines()[1:] == gcsv.splitlines()[1:] and fcsv != scsv and
              d_.stderr.count("holds a search of other data") == 1,
              "grid --distributed, a CSV of other data: %r %r" % (d_.stdout, d_.stderr))
        lines_ = scsv.splitlines(True)
        lines_[4] = lines_[4].rsplit(",", 1)[0] + ",nan\n"
        with open(os.path.join(tmp, "nan.csv"), "w") as f:
            f.writelines(lines_)
        refused("grid: a resumed accuracy of nan", ["grid", "--distributed"] + grid + ["--out", "nan.csv", "heart"],
                tmp, "nan.csv:5: accuracy 'nan' is not a number from 0 to 100", command=True)
        with open(os.path.join(tmp, "nan.csv")) as f:
            check(f.read() == "".join(lines_), "grid: a resumed accuracy of nan: the CSV was changed")
        # a regression (--svm-type ls-svr): grid and train -C score the
        # cross-validation mean squared error, the folds shared out, as one
        # process does (to the last digits: near()); a classification CSV is
        # refused by every rank
        targets(os.path.join(tmp, "reg"))
        rgrid = ["--svm-type", "ls-svr", "-t", "2", "-log2c", "-3,3,2", "-log2g", "-3,1,2"]
        s_ = serial(["grid"] + rgrid + ["--out", "rs.csv", "reg"], tmp)
        d_ = mpi(["grid", "--distributed"] + rgrid + ["--out", "rd.csv", "reg"], tmp)
        with open(os.path.join(tmp, "rs.csv")) as f:
            rscsv = f.read()
        with open(os.path.join(tmp, "rd.csv")) as f:
            rdcsv = f.read()
        check(s_.returncode == 0 and d_.returncode == 0 and near("\n".join(nums(s_.stdout)), "\n".join(nums(d_.stdout)))
              and near(rscsv, rdcsv) and rscsv.splitlines()[2].endswith(",mse") and "Mean squared error" in s_.stdout,
              "grid --distributed, regression: %r against %r (%s)" % (d_.stdout, s_.stdout, d_.stderr))
        with open(os.path.join(tmp, "rd.csv"), "w") as f:
            f.write("".join(rdcsv.splitlines(True)[:-2]))
        d_ = mpi(["grid", "--distributed"] + rgrid + ["--out", "rd.csv", "reg"], tmp)
        with open(os.path.join(tmp, "rd.csv")) as f:
            check(d_.returncode == 0 and f.read() == rdcsv and "resumed 10 of 12 points" in d_.stdout,
                  "grid --distributed, regression, resumed: %r" % d_.stdout)
        s_ = serial(["train", "-C", "--svm-type", "ls-svr", "reg"], tmp)
        d_ = mpi(["train", "--distributed", "-C", "--svm-type", "ls-svr", "reg"], tmp)
        check(s_.returncode == 0 and d_.returncode == 0 and near(strip(s_.stdout), strip(d_.stdout)) and
              "CV MSE" in s_.stdout,
              "train -C --distributed, regression: %r against %r" % (d_.stdout, s_.stdout))
        refused("grid: a classification CSV for a regression",
                ["grid", "--distributed"] + rgrid + ["--out", "s.csv", "reg"], tmp,
                "s.csv:3: the CSV holds a classification search (column 'accuracy'), and this search is a "
                "regression (column 'mse')", command=True)
        with open(os.path.join(tmp, "s.csv")) as f:
            check(f.read() == scsv, "grid: a classification CSV for a regression: the CSV was changed")

        # bad input: a damaged line keeps the whole file's line number
        with open(os.path.join(tmp, "heart")) as f:
            lines = f.readlines()
        bad = list(lines)
        at = len(bad) - 3  # in the last rank's range
        bad[at] = bad[at].replace(" 3:", " 3:x", 1)
        with open(os.path.join(tmp, "damaged"), "w") as f:
            f.writelines(bad)
        s = serial(["train", "damaged", "bad.model"], tmp)
        msg = s.stderr.strip().split("error: ", 1)[-1]
        check(s.returncode != 0 and ("damaged:%d:" % (at + 1)) in msg, "serial message %r" % s.stderr)
        refused("damaged line", ["damaged"], tmp, "rank %d: %s" % (NP - 1, msg))
        # a damaged shard
        r = serial(["split", "-n", str(NP), "--out", "shard", "heart"], tmp)
        with open(os.path.join(tmp, "shard.1")) as f:
            sl = f.readlines()
        sl[1] = "+1 1:0.5 1:0.25\n"
        with open(os.path.join(tmp, "shard.1"), "w") as f:
            f.writelines(sl)
        s = serial(["train", "shard.1", "bad.model"], tmp)
        msg = s.stderr.strip().split("error: ", 1)[-1]
        check(s.returncode != 0 and "shard.1:2:" in msg, "serial shard message %r" % s.stderr)
        refused("damaged shard", ["shard"], tmp, "rank 1: " + msg)
        # a missing shard, and more shards than ranks
        os.rename(os.path.join(tmp, "part.%d" % (NP - 1)), os.path.join(tmp, "part.keep"))
        refused("missing shard", ["part"], tmp, "rank %d: cannot open 'part.%d'" % (NP - 1, NP - 1))
        os.rename(os.path.join(tmp, "part.keep"), os.path.join(tmp, "part.%d" % (NP - 1)))
        shutil.copy(os.path.join(tmp, "part.0"), os.path.join(tmp, "part.%d" % NP))
        refused("extra shard", ["part"], tmp, "part.%d exists: the data are split into more files than the %d "
                "processes" % (NP, NP))
        refused("no data", ["nothing"], tmp, "rank 0: cannot open 'nothing': No such file or directory")
        # a rank with no data line: two lines for NP >= 2 ranks plus a comment block
        with open(os.path.join(tmp, "tiny"), "w") as f:
            f.write("# " + "x" * 400 + "\n+1 1:1\n-1 1:-1\n")
        refused("empty share", ["tiny"], tmp, "rank 0: tiny: no data in bytes")
        # one class over every rank
        with open(os.path.join(tmp, "one"), "w") as f:
            f.writelines(l.replace("-1 ", "+1 ", 1) for l in lines)
        refused("one class", ["one"], tmp, "only one class (label 1) in the training data")
        # compressed input has no byte ranges
        subprocess.run(["gzip", "-k", os.path.join(tmp, "heart")], check=True)
        refused("gzip", ["heart.gz"], tmp, "heart.gz: a compressed file has no byte ranges")
        # what is not distributed yet says so
        refused("pegasos", ["--solver", "pegasos", "heart"], tmp,
                "solver pegasos does not train distributed over MPI ranks (--distributed); those that do: nesvm, hyperpass, ssvm, nssvm, gs")
        refused("hyperpass warm start", ["--solver", "hyperpass", "--warm-start", "pegasos:2", "heart"], tmp,
                "Hyperpass's warm start by Pegasos (--warm-start pegasos:ITER) is not distributed")
        refused("full kernel", ["-t", "2", "heart"], tmp, "NESVM's full kernel (an expansion over every training row) "
                "is not trained distributed")
        refused("stdin", ["-"], tmp, "--distributed reads a file")
        refused("bad option", ["--scheme", "4", "heart"], tmp, "invalid value '4' for scheme")
        refused("bad init", ["--init", "nothing.model", "heart"], tmp, "warm-start model: rank 0: cannot open")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d checks, %d failed (np %d)" % (checks, failures, NP))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
