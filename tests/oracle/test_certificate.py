#!/usr/bin/python3
"""Property test (issue 29): every solver, on small random problems, never claims a
certificate it does not have.

For each random binary problem (seeded; 15-60 rows, 2-6 features, labels from a
random hyperplane with flipped labels, C from 1e-2 to 1e4, -e 1e-3 or 1e-6) and
each solver configuration, `nesvm train` runs; when it exits 0:

  * if it warns on stderr that the model stopped before its certificate, `nesvm
    info` must say NOT certified (the model says so);
  * if the solver has no certificate (GS-SVM; the sigmoid kernel's stationary
    point), the summary and `nesvm info` must say "no certificate" and print no gap;
  * otherwise the model is certified, and that is checked independently: the
    objective P of the solver's exact problem is recomputed here in double precision
    from the model file and the data (numpy), and must match the printed primal;
    the printed lower bound L must not exceed the objective P_ref of a peer's
    solution of the same problem (LIBSVM, LIBLINEAR, GLPK or a direct solve),
    which is >= the optimum, so L is a valid bound; then the gap (P - L)/P,
    recomputed from these, is within -e, and P is within -e of P_ref.

    test_certificate.py NESVM_BINARY SOURCE_DIR [PROBLEMS]
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libsvm_primal as lp  # noqa: E402
import numpy as np  # noqa: E402
import test_hyperpass_oracle as ho  # noqa: E402
import test_kernel_oracle as ko  # noqa: E402
import test_models as tm  # noqa: E402

NESVM, SRC = sys.argv[1], sys.argv[2]
PROBLEMS = int(sys.argv[3]) if len(sys.argv) > 3 else 14
TMP = tempfile.mkdtemp()
passed = failed = 0
counts = {"certified": 0, "warned": 0, "no certificate": 0, "refused": 0}


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("not ok - " + what)


def run(args):
    return subprocess.run([NESVM] + args, capture_output=True, text=True)


def write_data(path, X, y):
    with open(path, "w") as f:
        for yi, row in zip(y, X):
            f.write("%d %s\n" % (yi, " ".join("%d:%.17g" % (j + 1, v) for j, v in enumerate(row) if v != 0)))


def problem(rng):
    n, d = int(rng.integers(15, 61)), int(rng.integers(2, 7))
    X = rng.normal(size=(n, d)) * rng.choice([0.3, 1.0, 3.0])
    w = rng.normal(size=d)
    y = np.where(X @ w + rng.normal() * 0.5 > 0, 1, -1)
    flip = rng.random(n) < rng.choice([0.0, 0.1, 0.3])
    y[flip] = -y[flip]
    if len(set(y)) < 2:
        y[0] = -y[0]
    return X, y


# ---- the exact problem of each configuration, as a function of the model file


def hinge(y, f):
    return np.maximum(0.0, 1.0 - y * f)


def linear_model(path, d):
    w, b, labels = lp.model_w_b(path, d)
    return w, b, labels[0]


def p_c_free(X, yr, C, path):  # nesvm -t linear: 1/2||w||^2 + C sum hinge, free bias
    w, b, pos = linear_model(path, X.shape[1])
    y = np.where(yr == pos, 1.0, -1.0)
    return 0.5 * w @ w + C * hinge(y, X @ w + b).sum()


def p_lp(X, yr, C, path):  # --svm-type lp: ||w||_1 + C sum hinge, free bias
    w, b, pos = linear_model(path, X.shape[1])
    y = np.where(yr == pos, 1.0, -1.0)
    return np.abs(w).sum() + C * hinge(y, X @ w + b).sum()


def p_ls(X, yr, C, path):  # --svm-type ls: 1/2||w||^2 + C sum (1 - y f)^2, free bias
    w, b, pos = linear_model(path, X.shape[1])
    y = np.where(yr == pos, 1.0, -1.0)
    r = 1.0 - y * (X @ w + b)
    return 0.5 * w @ w + C * (r * r).sum()


def p_hinge_feature(B):  # hyperpass, pegasos: bias feature B regularized (none: B = 0)
    def p(X, yr, C, path):
        w, b, pos = linear_model(path, X.shape[1])
        return ho.primal(X, yr, w, b, [pos], C, B)
    return p


def p_squared(B):  # ssvm, nssvm: 1/2(||w||^2 + (b/B)^2) + C/2 sum hinge^2
    def p(X, yr, C, path):
        w, b, pos = linear_model(path, X.shape[1])
        y = np.where(yr == pos, 1.0, -1.0)
        r = hinge(y, X @ w + b)
        return 0.5 * (w @ w + (b / B) ** 2) + 0.5 * C * (r @ r)
    return p


def p_rbf(gamma):  # the full RBF kernel: 1/2 beta'K beta + C sum hinge, free bias
    def p(X, yr, C, path):
        S, beta, b, pos = ko.nesvm_model(path, X.shape[1])
        y = np.where(yr == pos, 1.0, -1.0)
        f = ko.kernel(X, S, "rbf", gamma, 0, 3) @ beta + b
        return 0.5 * beta @ ko.kernel(S, S, "rbf", gamma, 0, 3) @ beta + C * hinge(y, f).sum()
    return p


# ---- the peers' solutions: the same problem's objective at a point they found


def ref_c_free(X, yr, C, data):
    m = os.path.join(TMP, "libsvm.model")
    subprocess.run(["svm-train", "-q", "-t", "0", "-c", repr(C), "-e", "1e-10", data, m], check=True)
    return p_c_free(X, yr, C, m)


def ref_rbf(gamma):
    def ref(X, yr, C, data):
        m = os.path.join(TMP, "libsvm.model")
        subprocess.run(["svm-train", "-q", "-t", "2", "-g", repr(gamma), "-c", repr(C), "-e", "1e-10", data, m],
                       check=True)
        S, beta, b, pos = ko.libsvm_model(m, X.shape[1])
        y = np.where(yr == pos, 1.0, -1.0)
        f = ko.kernel(X, S, "rbf", gamma, 0, 3) @ beta + b
        return 0.5 * beta @ ko.kernel(S, S, "rbf", gamma, 0, 3) @ beta + C * hinge(y, f).sum()
    return ref


def ref_lp(X, yr, C, data):
    y = np.where(yr == yr[0], 1.0, -1.0)
    return tm.lp_glpk(X, y, np.full(len(y), C), True, os.path.join(TMP, "lp.lp"))


def ref_ls(X, yr, C, data):
    y = np.where(yr == yr[0], 1.0, -1.0)
    return tm.ls_direct(X, y, np.full(len(y), C), True)[2]


def ref_liblinear(s, B, cscale):
    def ref(X, yr, C, data):
        m = os.path.join(TMP, "liblinear.model")
        subprocess.run(["liblinear-train", "-q", "-s", s, "-B", repr(B if B > 0 else -1), "-c", repr(C * cscale),
                        "-e", "1e-10", data, m], check=True)
        w, b, labels = ho.liblinear_w(m, X.shape[1])
        y = np.where(yr == labels[0], 1.0, -1.0)
        if s == "3":
            return ho.primal(X, yr, w, b, labels, C, B)
        r = hinge(y, X @ w + b)
        return 0.5 * (w @ w + (b / B) ** 2) + 0.5 * C * (r @ r)
    return ref


def configs(rng):
    """(name, nesvm options, P of the model file, peer's P_ref), or P None: no certificate."""
    gamma = float(rng.choice([0.1, 0.5, 2.0]))
    B = float(rng.choice([0.5, 1.0, 10.0]))
    return [
        ("nesvm", [], p_c_free, ref_c_free),
        ("nesvm nesterov", ["--method", "nesterov"], p_c_free, ref_c_free),
        ("nesvm lp", ["--svm-type", "lp"], p_lp, ref_lp),
        ("nesvm ls", ["--svm-type", "ls"], p_ls, ref_ls),
        ("nesvm rbf", ["-t", "rbf", "-g", repr(gamma)], p_rbf(gamma), ref_rbf(gamma)),
        ("nesvm rbf nesterov", ["-t", "rbf", "-g", repr(gamma), "--method", "nesterov"], p_rbf(gamma),
         ref_rbf(gamma)),
        ("hyperpass", ["--solver", "hyperpass"], p_hinge_feature(0), ref_liblinear("3", 0, 1)),
        ("hyperpass -B %g" % B, ["--solver", "hyperpass", "-B", repr(B)], p_hinge_feature(B),
         ref_liblinear("3", B, 1)),
        ("pegasos", ["--solver", "pegasos"], p_hinge_feature(0), ref_liblinear("3", 0, 1)),
        ("ssvm -B %g" % B, ["--solver", "ssvm", "-B", repr(B)], p_squared(B), ref_liblinear("2", B, 0.5)),
        ("nssvm -B %g" % B, ["--solver", "nssvm", "-B", repr(B)], p_squared(B), ref_liblinear("2", B, 0.5)),
        ("gs rbf", ["--solver", "gs", "-t", "rbf", "-g", repr(gamma)], None, None),
        ("nesvm sigmoid", ["-t", "sigmoid", "-g", repr(gamma / 4)], None, None),
    ]


def main():
    rng = np.random.default_rng(29)
    for k in range(PROBLEMS):
        X, yr = problem(rng)
        data = os.path.join(TMP, "p%d.txt" % k)
        write_data(data, X, yr)
        C = float(rng.choice([1e-2, 1.0, 1e2, 1e4]))
        for name, opts, pfun, rfun in configs(rng):
            eps = "1e-2" if name.startswith("pegasos") else str(rng.choice(["1e-3", "1e-6"]))
            model = os.path.join(TMP, "m.model")
            what = "problem %d (%d x %d, C %g) %s -e %s" % (k, X.shape[0], X.shape[1], C, name, eps)
            r = run(["train", "-c", repr(C), "-e", eps] + opts + [data, model])
            if r.returncode != 0:  # refused or failed: fine, as long as nothing claims success
                counts["refused"] += 1
                check("error:" in r.stderr and "converged" not in r.stdout, what + ": exit %d without an error "
                      "message: %s" % (r.returncode, r.stderr.strip()[:200]))
                continue
            info = run(["info", model]).stdout
            if "stopped before" in r.stderr:
                counts["warned"] += 1
                check("NOT certified" in info, what + ": warned but info does not say NOT certified")
                continue
            if pfun is None:
                counts["no certificate"] += 1
                check("no certificate" in r.stdout and "relative gap" not in r.stdout and "no certificate" in info,
                      what + ": a solver without a certificate must say so: " + r.stdout.strip()[:300])
                continue
            counts["certified"] += 1
            m = re.search(r"primal objective ([-0-9.e+]+), relative gap ([-0-9.e+a-z]+),.* exit (\S+)", r.stdout)
            lb = re.search(r"lower bound ([-0-9.e+a-z]+)", r.stdout)
            if not m or not lb:
                check(False, what + ": no primal, gap or bound in: " + r.stdout.strip()[:300])
                continue
            printed, gap, why, L = float(m.group(1)), float(m.group(2)), m.group(3), float(lb.group(1))
            e = float(eps)
            P = pfun(X, yr, C, model)
            Pref = rfun(X, yr, C, data)
            ok = (why == "converged" and gap <= e * (1 + 1e-9) and "certified" in info
                  and abs(P - printed) <= 1e-7 * abs(printed) + 1e-12      # the printed primal is the model's
                  and L <= Pref * (1 + 1e-9) + 1e-12                      # a valid lower bound
                  and (P - L) <= e * abs(P) * (1 + 1e-6) + 1e-12          # the certified gap, recomputed
                  and P <= Pref * (1 + e) + 1e-9 * abs(Pref) + 1e-12)     # so within eps of the peer
            check(ok, what + ": exit %s, printed gap %g, P %.12g (printed %.12g), lower bound %.12g, peer %.12g, "
                  "recomputed gap %.3g" % (why, gap, P, printed, L, Pref, (P - L) / abs(P) if P else float("nan")))
    print("%d passed, %d failed (%s)" % (passed, failed, ", ".join("%s %d" % kv for kv in counts.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
