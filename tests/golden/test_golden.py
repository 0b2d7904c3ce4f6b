#!/usr/bin/python3
"""test_golden.py - models trained before a refactoring must come out the same after it.

Usage: test_golden.py NESVM_BINARY PROJECT_ROOT [--update | --update-params]

Each case of CASES trains one model on heart_scale (binary) or on heart_scale
relabelled into three classes by row number (three.txt), with one thread,
and compares it with tests/golden/models/NAME.model, committed when the
cases were set (issue 17, before the parameter table and the driver split).

Comparison: the files must have the same tokens; words and integers must be
equal; other numbers must agree to a relative 1e-9 (OpenBLAS picks its
kernels by CPU, so a machine with other vector units may round a dot product
differently). The test prints how many files are byte-identical; on the
machine that wrote them, all are.

OpenBLAS's kernels: the files were written with OpenBLAS's SkylakeX kernels
(an AVX-512 machine). OpenBLAS picks its kernels by CPU, and on an AMD EPYC
with AVX-512 it picks its Zen kernels, whose rounding moves a duality gap by
1.6e-8 relative and conjugate gradients (nssvm --scheme cg) by 5e-5. So the
test runs nesvm with OPENBLAS_CORETYPE=SkylakeX where the CPU has AVX-512
(measured on such an EPYC: 37 of 44 files byte-identical, the rest within
1e-9; with its own Zen kernels 4 fail), and with OpenBLAS's own choice
elsewhere (the SkylakeX kernels would not run there). --update rewrites the golden files (only
for a deliberate change of results, said in the commit).

--update-params rewrites only the version line and the 'param' lines of each golden file
(for a deliberate change of which parameters a model file lists, said in the commit), and
keeps every other line as committed, so that the committed numbers never take this machine's
last digits; it refuses a file whose other lines differ from the committed ones beyond the
comparison above.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
UPDATE = "--update" in sys.argv[3:]
UPDATE_PARAMS = "--update-params" in sys.argv[3:]
HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"
GOLDEN = os.path.join(ROOT, "tests", "golden", "models")

B, M = "heart_scale", "three.txt"
CASES = [
    # NESVM, linear: each model, each inner method, each continuation
    ("nesvm_c", B, []),
    ("nesvm_c_nesterov", B, ["--method", "nesterov"]),
    ("nesvm_c_paper", B, ["--continuation", "paper", "--lipschitz", "paper"]),
    ("nesvm_lp", B, ["--svm-type", "lp"]),
    ("nesvm_ls", B, ["--svm-type", "ls"]),
    ("nesvm_c_weights", B, ["-c", "0.5", "-w1", "2"]),
    ("nesvm_c_lambda", B, ["--lambda", "0.01"]),
    ("nesvm_c_nobias", B, ["-B", "0"]),
    ("nesvm_c_float", B, ["--float"]),
    ("nesvm_c_ovo", M, []),
    ("nesvm_c_ovr", M, ["--multiclass", "ovr"]),
    # NESVM, kernels: full (stored), reduced, each kernel, each model
    ("nesvm_rbf", B, ["-t", "rbf", "-g", "0.1"]),
    ("nesvm_rbf_newton", B, ["-t", "rbf", "-g", "0.1", "--method", "newton"]),
    ("nesvm_rbf_nesterov", B, ["-t", "rbf", "--method", "nesterov"]),
    ("nesvm_poly", B, ["-t", "poly", "-d", "2", "-r", "1"]),
    ("nesvm_sigmoid", B, ["-t", "sigmoid", "-g", "0.01", "-r", "0.5"]),
    ("nesvm_rbf_lp", B, ["-t", "rbf", "--svm-type", "lp"]),
    ("nesvm_rbf_ls", B, ["-t", "rbf", "--svm-type", "ls"]),
    ("nesvm_rbf_reduced", B, ["-t", "rbf", "--basis", "40"]),
    ("nesvm_rbf_onthefly", B, ["-t", "rbf", "--kernel-memory", "0.1"]),
    ("nesvm_rbf_ovo", M, ["-t", "rbf"]),
    ("nesvm_rbf_ovo_newton", M, ["-t", "rbf", "--method", "newton"]),
    ("nesvm_rbf_ovr", M, ["-t", "rbf", "--multiclass", "ovr"]),
    # Hyperpass and Pegasos
    ("hyperpass", B, ["--solver", "hyperpass"]),
    ("hyperpass_bias", B, ["--solver", "hyperpass", "-B", "1"]),
    ("hyperpass_noshrink", B, ["--solver", "hyperpass", "--shrinking", "0"]),
    ("hyperpass_warm", B, ["--solver", "hyperpass", "--warm-start", "pegasos:5"]),
    ("hyperpass_ovo", M, ["--solver", "hyperpass"]),
    ("pegasos", B, ["--solver", "pegasos", "-e", "0.01"]),
    ("pegasos_ovr", M, ["--solver", "pegasos", "-e", "0.01", "--multiclass", "ovr"]),
    # SSVM / NSSVM: linear, full kernel, reduced (random, greedy), schemes
    ("ssvm", B, ["--solver", "ssvm"]),
    ("nssvm", B, ["--solver", "nssvm"]),
    # the paper's kernel forms (||beta||^2; the default before kernel_norm)
    ("ssvm_rbf", B, ["--solver", "ssvm", "-t", "rbf", "--kernel-norm", "coef"]),
    ("nssvm_rbf", B, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef"]),
    ("nssvm_rbf_greedy", B, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef", "--basis", "30",
                             "--basis-select", "greedy"]),
    ("nssvm_scheme1", B, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef", "--scheme", "1"]),
    ("nssvm_scheme2", B, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef", "--scheme", "2"]),
    ("nssvm_scheme3", B, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef", "--scheme", "3"]),
    ("nssvm_schemecg", B, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef", "--scheme", "cg"]),
    # the RKHS norm (default): the automatic basis (100 rows; grown to 200; grown
    # to the full kernel), a greedy reduced one, one-vs-one
    ("nssvm_rbf_rkhs", B, ["--solver", "nssvm", "-t", "rbf"]),
    ("nssvm_rbf_rkhs_grown", B, ["--solver", "nssvm", "-t", "rbf", "-g", "0.5"]),
    ("nssvm_rbf_rkhs_full", B, ["--solver", "nssvm", "-t", "rbf", "-g", "1"]),
    ("ssvm_rbf_rkhs_greedy", B, ["--solver", "ssvm", "-t", "rbf", "--basis", "30", "--basis-select", "greedy"]),
    ("nssvm_rbf_rkhs_ovo", M, ["--solver", "nssvm", "-t", "rbf", "--basis", "60"]),
    ("nssvm_merit_f", B, ["--solver", "ssvm", "--merit", "f"]),
    ("nssvm_ovo", M, ["--solver", "nssvm", "-t", "rbf", "--kernel-norm", "coef"]),
    # GS-SVM
    ("gs_rbf", B, ["--solver", "gs", "-t", "rbf"]),
    ("gs_linear", B, ["--solver", "gs"]),
    ("gs_cap", B, ["--solver", "gs", "-t", "rbf", "--cap", "1", "-m", "1"]),
    ("gs_ovo", M, ["--solver", "gs", "-t", "rbf"]),
    ("gs_ovr", M, ["--solver", "gs", "-t", "rbf", "--multiclass", "ovr"]),
]

NUM = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
INT = re.compile(r"^[-+]?\d+$")


def same(a, b):
    """None if the model texts agree (see the docstring), else the first difference."""
    ta, tb = a.split(), b.split()
    if len(ta) != len(tb):
        return f"{len(tb)} tokens, golden {len(ta)}"
    for i, (x, y) in enumerate(zip(ta, tb)):
        if x == y:
            continue
        if INT.match(x) or INT.match(y) or not (NUM.match(x) and NUM.match(y)):
            return f"token {i}: '{y}', golden '{x}'"
        fx, fy = float(x), float(y)
        if abs(fx - fy) > 1e-9 * max(abs(fx), abs(fy), 1e-300):
            return f"token {i}: {y}, golden {x} (relative difference {abs(fx - fy) / max(abs(fx), abs(fy)):.2e})"
    return None


def is_param(line):
    return line.startswith("param ") or line.startswith("nesvm_model ")


def params_update(gold, got):
    """gold with got's version and param lines, every other line gold's: (text, None), or
    (None, the difference) when the other lines do not agree as same() requires."""
    keep = [ln for ln in gold.splitlines(keepends=True) if not is_param(ln)]
    new = got.splitlines(keepends=True)
    others = [ln for ln in new if not is_param(ln)]
    diff = same("".join(keep), "".join(others))
    if diff or len(keep) != len(others):
        return None, diff or f"{len(others)} lines besides the params, golden {len(keep)}"
    it = iter(keep)
    return "".join(ln if is_param(ln) else next(it) for ln in new), None


def blas_env():
    """The environment for nesvm: OpenBLAS's SkylakeX kernels where the CPU has AVX-512."""
    env = dict(os.environ)
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        flags = ""
    if re.search(r"\bavx512f\b", flags):
        env["OPENBLAS_CORETYPE"] = "SkylakeX"
    else:
        print("# no AVX-512: OpenBLAS picks its own kernels; rounding may differ from the golden files")
    return env


def main():
    env = blas_env()
    work = tempfile.mkdtemp(prefix="nesvm-golden-")
    failures, identical = 0, 0
    try:
        shutil.copy(HEART, os.path.join(work, B))
        with open(HEART) as f, open(os.path.join(work, M), "w") as g:
            for k, row in enumerate(f):
                g.write(str(k % 3 + 1) + row[row.index(" "):])
        os.makedirs(GOLDEN, exist_ok=True)
        for name, data, args in CASES:
            out = os.path.join(work, name + ".model")
            r = subprocess.run([BIN, "train", "-q", "--threads", "1"] + args + [data, out], cwd=work,
                               capture_output=True, text=True, env=env)
            if r.returncode != 0:
                print(f"not ok - {name}: exit {r.returncode}: {r.stderr.strip()}")
                failures += 1
                continue
            got = open(out).read()
            gold_path = os.path.join(GOLDEN, name + ".model")
            if UPDATE_PARAMS:
                text, diff = params_update(open(gold_path).read(), got)
                if diff:
                    print(f"not ok - {name}: not rewritten: {diff}")
                    failures += 1
                    continue
                with open(gold_path, "w") as g:
                    g.write(text)
                print(f"ok - {name}: params rewritten")
                continue
            if UPDATE:
                with open(gold_path, "w") as g:
                    g.write(got)
                print(f"ok - {name}: written")
                continue
            if not os.path.exists(gold_path):
                print(f"not ok - {name}: no golden file {gold_path}")
                failures += 1
                continue
            gold = open(gold_path).read()
            if gold == got:
                identical += 1
                print(f"ok - {name}: identical")
                continue
            diff = same(gold, got)
            if diff:
                print(f"not ok - {name}: {diff}")
                failures += 1
            else:
                print(f"ok - {name}: equal to 1e-9 (not byte-identical)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"# {len(CASES)} cases, {identical} byte-identical, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
