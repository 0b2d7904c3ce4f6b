#!/usr/bin/python3
"""ctest bench_smoke: the benchmark harness end to end on heart_scale.

    smoke_test.py NESVM_BINARY

1. The harness's unit checks (test_lib.py).
2. bench/run --cases smoke (nesvm, nesvm hyperpass and pegasos, LIBSVM -t 0,
   LIBLINEAR -s 3, svmocas, scikit-learn LinearSVC; 1 run) with the given
   binary, into a temporary folder (bench/RESULTS.md is not touched).
3. Checks that do not trust the harness: RESULTS.md and a PNG exist; this
   script re-reads the data and the nesvm, LIBSVM and LIBLINEAR model files
   with its own parsing and recomputes their objectives, which must equal
   the harness's; nesvm's and LIBSVM's objectives (same problem) agree within
   1e-2; LIBLINEAR's primal is not below the dual value it printed (weak
   duality), and the same holds for LIBSVM.  The no-bias table has the four
   Hyperpass/Pegasos rows with the row products per row they printed;
   Hyperpass's objective is recomputed and its printed lower bound brackets
   it within the default gap and is used for D_best.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"
FAILS = []


def ok(cond, name):
    print(("ok - " if cond else "not ok - ") + name)
    if not cond:
        FAILS.append(name)


def read_data(path):
    y, rows = [], []
    with open(path) as f:
        for line in f:
            t = line.split()
            if t:
                y.append(float(t[0]))
                rows.append({int(p.split(":")[0]): float(p.split(":")[1]) for p in t[1:]})
    d = max(max(r) for r in rows if r)
    X = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for j, v in r.items():
            X[i, j - 1] = v
    return X, np.array(y)


def nesvm_wb(path):
    lines = open(path).read().split("\n")
    labels = [float(x) for x in next(ln for ln in lines if ln.startswith("labels ")).split()[1:]]
    b = float(next(ln for ln in lines if ln.startswith("b ")).split()[1])
    i = lines.index("w")
    w = [float(x) for x in lines[i + 1:lines.index("end")]]
    return np.array(w), b, labels[0]


def libsvm_wb(path, d):
    text = open(path).read()
    rho = float(re.search(r"^rho (\S+)", text, re.M).group(1))
    first = float(re.search(r"^label (\S+)", text, re.M).group(1))
    w = np.zeros(d)
    for line in text.split("\nSV\n", 1)[1].splitlines():
        t = line.split()
        for p in t[1:]:
            j, v = p.split(":")
            w[int(j) - 1] += float(t[0]) * float(v)
    return w, -rho, first


def liblinear_w(path):
    lines = open(path).read().splitlines()
    first = float(next(ln for ln in lines if ln.startswith("label ")).split()[1])
    i = lines.index("w")
    return np.array([float(ln) for ln in lines[i + 1:] if ln.strip()]), first


def hinge_obj(X, y, w, b, pos, C=1.0):
    s = np.where(y == pos, 1.0, -1.0)
    return 0.5 * w @ w + C * np.maximum(0.0, 1.0 - s * (X @ w + b)).sum()


def logistic_quick(nesvm, tmp):
    """bench/logistic_row.py --quick (breast_cancer and digits, about 10 s): it runs, writes its
    table, its probability and objective checks hold, and nesvm's breast_cancer objectives
    recomputed here from the model files equal the primal nesvm printed; issue 34's rows (L1
    models on breast_cancer, Crammer-Singer on digits) are in it, with the L1 objectives
    recomputed here too."""
    work = os.path.join(tmp, "logistic")
    r = subprocess.run([PY, os.path.join(BENCH, "logistic_row.py"), "--quick", "--nesvm-bin", nesvm,
                        "--work", work, "--data-dir", os.path.join(tmp, "data")],
                       capture_output=True, text=True, timeout=120)
    ok(r.returncode == 0, "logistic_row.py --quick exits 0")
    if r.returncode != 0:
        print(r.stderr[-3000:])
        return
    text = open(os.path.join(work, "RESULTS.md")).read()
    targets = [ln for ln in text.splitlines() if ln.startswith("| quick-") and ("MET" in ln or "MISSED" in ln)]
    ext = [ln for ln in targets if ln.startswith(("| quick-breast-cancer-l1 |", "| quick-digits-cs |"))]
    ok(len(targets) - len(ext) == 5, f"logistic quick: 5 target rows ({len(targets) - len(ext)})")
    # scikit-learn's fit() against nesvm's estimator's fit() where the package is built beside the binary
    sk_rows = [ln for ln in targets if "sklearn" in ln]
    if os.path.isdir(os.path.join(os.path.dirname(nesvm), "python-lib")):
        ok(len(sk_rows) == 3 and all("| Python fit() |" in ln and "CLI process, reading included" in ln
                                     for ln in sk_rows),
           f"logistic quick: the 3 scikit-learn rows time nesvm.LogisticRegression's fit() ({sk_rows})")
        pyl = [ln for ln in text.splitlines() if "| nesvm.LogisticRegression fit() |" in ln]
        rel = [abs(float(ln.split("|")[11])) for ln in pyl]
        ok(len(pyl) == 2 and max(rel) <= 1e-3,
           f"logistic quick: the estimator's models are the CLI's (objective within the gap: {rel})")
    # issue 34's rows: LIBLINEAR -s 5 and -s 6 on breast_cancer, -s 4 against nesvm's two methods on digits
    want = [("quick-breast-cancer-l1", "L1 squared hinge", "--liblinear 5 -e 1e-3", "-s 5"),
            ("quick-breast-cancer-l1", "L1 logistic", "--liblinear 6 -e 1e-3", "-s 6"),
            ("quick-digits-cs", "Crammer-Singer", "--liblinear 4 -e 1e-3", "-s 4"),
            ("quick-digits-cs", "Crammer-Singer", "--liblinear 4 --method newton -e 1e-3", "-s 4")]
    got = [tuple(c.strip() for c in ln.split("|")[1:6]) for ln in ext]
    ok(len(ext) == 4 and all(g[0] == w[0] and g[2].startswith(w[1]) and g[3] == w[2] and g[4].startswith(w[3] + " -e ")
                             for g, w in zip(got, want)),
       f"L1/Crammer-Singer quick: the 4 target rows ({got})")
    runs = [ln for ln in text.splitlines() if ln.startswith(("| quick-breast-cancer-l1 |", "| quick-digits-cs |"))
            and "| nesvm |" in ln]
    ok(len(runs) == 4 and all("converged" not in ln and re.search(r"\| \d+ of \d+ \|", ln) for ln in runs),
       f"L1/Crammer-Singer quick: 4 nesvm runs, converged, with their non-zero weights ({len(runs)})")
    diffs = [float(x) for x in re.findall(r"(?:at most|from numpy) (\S+?)(?: relative|$)", text, re.M)]
    ok(len(diffs) == 8 and max(diffs) <= 1e-6,
       f"logistic quick: nesvm's objectives (logistic, L1, Crammer-Singer) and both predict -b 1 agree with numpy "
       f"({diffs})")
    X, y = read_data(os.path.join(tmp, "data", "breast_cancer", "train.svm"))
    models = sorted(glob.glob(os.path.join(work, "*-nesvm-main.model")))[:2]
    for path in models:
        w, b, _ = nesvm_wb(path)
        head = open(path).read()
        pos = float(re.search(r"^labels (.*)$", head, re.M).group(1).split()[
            int(re.search(r"^submodel 0 pos (\d+)", head, re.M).group(1))])
        s = np.where(y == pos, 1.0, -1.0)
        mine = 0.5 * w @ w + np.logaddexp(0.0, -s * (X[:, :w.size] @ w + b)).sum()
        printed = float(re.search(r" primal (\S+)", head).group(1))
        ok(abs(mine - printed) <= 1e-9 * abs(printed),
           f"logistic quick: {os.path.basename(path)} objective recomputed ({mine} vs printed {printed})")
    # nesvm --liblinear 5 and 6 on breast_cancer (no bias): ||w||_1 + sum loss, recomputed here
    l1 = sorted(glob.glob(os.path.join(work, "*-nesvm-main-default.model")))
    ok(len(l1) == 2, f"L1 quick: two nesvm models ({len(l1)})")
    for path, sq in zip(l1, (True, False)):
        w, b, _ = nesvm_wb(path)
        head = open(path).read()
        pos = float(re.search(r"^labels (.*)$", head, re.M).group(1).split()[
            int(re.search(r"^submodel 0 pos (\d+)", head, re.M).group(1))])
        z = np.where(y == pos, 1.0, -1.0) * (X[:, :w.size] @ w)
        mine = np.abs(w).sum() + (np.maximum(0.0, 1.0 - z) ** 2 if sq else np.logaddexp(0.0, -z)).sum()
        printed = float(re.search(r" primal (\S+)", head).group(1))
        ok(b == 0.0 and abs(mine - printed) <= 1e-9 * abs(printed) and
           ("c_svm_squared_hinge_l1" if sq else "logistic_regression_logistic_l1") in head,
           f"L1 quick: {os.path.basename(path)} objective recomputed ({mine} vs printed {printed}, b = {b})")


def main():
    nesvm = os.path.abspath(sys.argv[1])
    r = subprocess.run([PY, os.path.join(BENCH, "tests", "test_lib.py")], capture_output=True, text=True)
    print(r.stdout, end="")
    ok(r.returncode == 0, "harness unit checks (test_lib.py)")

    tmp = tempfile.mkdtemp(prefix="bench_smoke_")
    try:
        cmd = [PY, os.path.join(BENCH, "run"), "--cases", "smoke", "--runs", "1", "--no-deps",
               "--no-build", "--nesvm-bin", nesvm, "--out", tmp, "--data-dir", os.path.join(tmp, "data")]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        ok(r.returncode == 0, "bench/run --cases smoke exits 0")
        if r.returncode != 0:
            print(r.stderr[-3000:])
            return 1
        ok(os.path.exists(os.path.join(tmp, "RESULTS.md")), "RESULTS.md written into --out")
        pngs = glob.glob(os.path.join(tmp, "plots", "*.png"))
        ok(len(pngs) >= 1 and all(open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n" for p in pngs),
           f"PNG plots written ({len(pngs)})")
        text = open(os.path.join(tmp, "RESULTS.md")).read()
        ok("## Case `smoke`" in text and "hinge_freebias" in text, "RESULTS.md has the smoke case")

        an = json.load(open(os.path.join(tmp, "analysis.json")))
        probs = {p["key"]: p for p in an[0]["problems"]}
        tools = {(k, t["id"]): t for k, p in probs.items() for t in p["tools"]}
        raw = os.path.join(tmp, "raw", "smoke")
        X, y = read_data(os.path.join(tmp, "data", "heart_scale", "train.svm"))

        # nesvm and LIBSVM solve the same problem
        Pn = tools[("hinge_freebias-C1", "nesvm t1")]["P"]
        Pl = tools[("hinge_freebias-C1", "libsvm -t 0")]["P"]
        ok(Pn is not None and Pl is not None and abs(Pn - Pl) / abs(Pl) <= 1e-2,
           f"nesvm and LIBSVM -t 0 objectives agree within 1e-2 ({Pn} vs {Pl})")
        w, b, pos = nesvm_wb(os.path.join(raw, "hinge_freebias-C1", "nesvm_t1", "main-1", "model.model"))
        mine = hinge_obj(X, y, w, b, pos)
        ok(abs(mine - Pn) <= 1e-9 * abs(mine), f"nesvm objective recomputed independently ({mine} vs {Pn})")
        ldir = os.path.join(raw, "hinge_freebias-C1", "libsvm_-t_0", "main-1")
        w, b, pos = libsvm_wb(os.path.join(ldir, "model.model"), X.shape[1])
        mine = hinge_obj(X, y, w, b, pos)
        ok(abs(mine - Pl) <= 1e-9 * abs(mine), f"LIBSVM objective recomputed independently ({mine} vs {Pl})")
        obj = float(re.search(r"obj = (\S+),", open(os.path.join(ldir, "stdout.txt")).read()).group(1))
        # (LIBSVM's dual uses single-precision kernel values: allow 1e-7 relative)
        ok(Pl >= -obj - 1e-6 - 1e-7 * abs(obj), f"LIBSVM primal {Pl} >= its dual value {-obj}")

        # LIBLINEAR -s 3: weak duality against the dual objective it prints
        Pll = tools[("hinge_nobias-C1", "liblinear -s 3")]["P"]
        ddir = os.path.join(raw, "hinge_nobias-C1", "liblinear_-s_3", "main-1")
        out = open(os.path.join(ddir, "stdout.txt")).read()
        dual = -float(re.findall(r"Objective value = (\S+)", out)[-1])
        if "reaching max number of iterations" in out:   # its printed dual is no bound then
            ok(tools[("hinge_nobias-C1", "liblinear -s 3")].get("lower") is None,
               "LIBLINEAR -s 3 stopped at its iteration limit: its printed dual is not used")
        else:
            ok(Pll is not None and Pll >= dual - 1e-6, f"LIBLINEAR -s 3 primal {Pll} >= printed dual {dual}")
        w, pos = liblinear_w(os.path.join(ddir, "model.model"))
        mine = hinge_obj(X, y, w, 0.0, pos)
        ok(abs(mine - Pll) <= 1e-9 * abs(mine), f"LIBLINEAR objective recomputed independently ({mine} vs {Pll})")
        # Hyperpass and Pegasos rows: products per row as printed, in the no-bias table only
        nb = probs["hinge_nobias-C1"]
        HP = "nesvm hyperpass -e 1e-4 t1"
        new = [HP, "nesvm hyperpass -e 1e-4 --shrinking 0 t1",
               "nesvm hyperpass -e 1e-4 --warm-start pegasos:10 t1", "nesvm pegasos t1"]
        ok(all(("hinge_nobias-C1", t) in tools for t in new),
           "hinge_nobias runs " + ", ".join(new) + f" (has {[t['id'] for t in nb['tools']]})")
        tables = {m.group(1): m.group(2) for m in re.finditer(
            r"^### (\S+), C = 1\n(.*?)\nTime to relative", text, re.M | re.S)}
        nbt = tables.get("hinge_nobias", "")
        ok("| exit, iterations | products/row |" in nbt and "products/row" not in tables.get("hinge_freebias", "x"),
           "RESULTS.md: products/row column in the hinge_nobias table only")
        for tid in new:
            t = tools.get(("hinge_nobias-C1", tid), {})
            sdir = os.path.join(raw, "hinge_nobias-C1", re.sub(r"[^A-Za-z0-9.=+-]+", "_", tid), "main-1")
            m = re.search(r"^row products \d+ \((\S+) per row\)", open(os.path.join(sdir, "stdout.txt")).read(), re.M)
            row = next((ln for ln in nbt.splitlines() if ln.startswith(f"| {tid} |")), "")
            ok(m is not None and t.get("row_products_per_row") == float(m.group(1)) > 0
               and row.endswith(f"| {float(m.group(1)):.1f} |"),
               f"{tid}: products/row {t.get('row_products_per_row')} as printed, in its table row: {row!r}")
        hdir = os.path.join(raw, "hinge_nobias-C1", re.sub(r"[^A-Za-z0-9.=+-]+", "_", HP), "main-1")
        w, b, pos = nesvm_wb(os.path.join(hdir, "model.model"))
        Ph = tools[("hinge_nobias-C1", HP)]["P"]
        mine = hinge_obj(X, y, w, 0.0, pos)
        ok(b == 0.0 and Ph is not None and abs(mine - Ph) <= 1e-9 * abs(mine),
           f"nesvm hyperpass objective recomputed independently ({mine} vs {Ph}, b = {b})")
        low = float(re.search(r"^lower bound (\S+)", open(os.path.join(hdir, "stdout.txt")).read(), re.M).group(1))
        ok(low <= mine * (1 + 1e-12) and mine - low <= 1e-3 * abs(mine),
           f"nesvm hyperpass: printed lower bound {low} <= P {mine}, within 1e-3")
        used = [b["value"] for b in nb["lower_bounds"] if b["source"] == HP and b["trusted"]]
        ok(used == [low] and nb["D_best"] >= low,
           f"hinge_nobias: hyperpass's lower bound for D_best is its printed one ({used} vs {low})")
        # every P_best is certified: no dual value above it
        for k, p in probs.items():
            ok(p["D_best"] is None or p["D_best"] <= p["P_best"] * (1 + 1e-9) + 1e-6,
               f"{k}: P_best {p['P_best']} >= best dual {p['D_best']}")
        ok(not any(p["warnings"] for p in probs.values()),
           "no analysis warnings (model problem lines, b in the no-bias family, duals above P_best): "
           + str([w for p in probs.values() for w in p["warnings"]]))
        ok(all(t["ok"] == t["runs"] == 1 for t in tools.values()),
           "every tool ran once and succeeded: " + ", ".join(f"{k[1]}={t['statuses']}" for k, t in tools.items()))
        logistic_quick(nesvm, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
