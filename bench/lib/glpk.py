"""The LP-SVM as a linear program for GLPK's glpsol, and glpsol's solution.

    min ||w||_1 + C sum_i max(0, 1 - y_i (w.x_i + b)),  b free

is the linear program (w = p - q)

    min  sum_j (p_j + q_j) + C sum_i xi_i
    s.t. xi_i + y_i x_i.(p - q) + y_i b >= 1    (i = 1..n)
         p, q, xi >= 0, b free

written in CPLEX LP format (``glpsol --lp FILE``).  Columns are named p<j>,
q<j> with j the 1-based feature index of the data file, xi<i> (1-based row)
and b.  The model file is glpsol's raw solution (``-w MODEL``, full precision),
with the column names from its printable solution (``-o solution.txt``): the
harness reads p, q and b (w = p - q) and computes the objective
itself.  A sidecar ``glpk.json`` next to it records the positive label, the
number of features and C.
"""
import json
import os
import re

import numpy as np

SIDECAR = "glpk.json"
TERMS_PER_LINE = 8


def _terms(pairs):
    """'+ c name' terms, TERMS_PER_LINE per line (continuation lines start
    with a space, which CPLEX LP format allows)."""
    out, line = [], []
    for coef, name in pairs:
        line.append(f"{coef:+.17g} {name}")
        if len(line) == TERMS_PER_LINE:
            out.append(" ".join(line))
            line = []
    if line:
        out.append(" ".join(line))
    return "\n   ".join(out)


def write_lp(path, X, labels, C, pos_label):
    """Write the LP-SVM of (X CSR, labels) at cost C, y = +1 for pos_label."""
    import scipy.sparse as sp
    X = sp.csr_matrix(X)
    n, d = X.shape
    y = np.where(np.asarray(labels) == pos_label, 1.0, -1.0)
    with open(path + ".tmp", "w") as f:
        f.write("\\ LP-SVM: min ||w||_1 + C sum hinge, w = p - q, written by bench/lib/glpk.py\n")
        f.write("Minimize\n obj: ")
        f.write(_terms([(1.0, f"p{j + 1}") for j in range(d)] + [(1.0, f"q{j + 1}") for j in range(d)]
                       + [(float(C), f"xi{i + 1}") for i in range(n)]))
        f.write("\nSubject To\n")
        for i in range(n):
            lo, hi = X.indptr[i], X.indptr[i + 1]
            pairs = [(1.0, f"xi{i + 1}"), (y[i], "b")]
            for j, v in zip(X.indices[lo:hi], X.data[lo:hi]):
                if v != 0:
                    pairs += [(y[i] * v, f"p{j + 1}"), (-y[i] * v, f"q{j + 1}")]
            f.write(f" c{i + 1}: " + _terms(pairs) + " >= 1\n")
        f.write("Bounds\n b free\nEnd\n")
    os.replace(path + ".tmp", path)
    with open(os.path.join(os.path.dirname(path), SIDECAR), "w") as f:
        json.dump({"pos_label": float(pos_label), "d": int(d), "n": int(n), "C": float(C),
                   "lp": os.path.basename(path)}, f)


_STATUS = {"B", "NL", "NU", "NF", "NS"}
PRINTED = "solution.txt"     # glpsol -o OUT, next to the raw model file


def read_printed(path):
    """glpsol's printable solution (-o): (status, objective, [(column name,
    activity)] in column order).  Its values have 6 significant digits; the
    harness takes the names from it and the values from the raw file.

    Column records are 'No. name St Activity [bounds] [marginal]'; a name
    longer than the column width is printed alone and its values continue
    on the next line, which this parser joins."""
    with open(path, "r", encoding="ascii", errors="replace") as f:
        lines = f.read().splitlines()
    status = objective = None
    cols = []
    in_cols = False
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"^Status:\s+(.*\S)", ln)
        if m:
            status = m.group(1)
        m = re.match(r"^Objective:\s+\S+\s+=\s+(\S+)", ln)
        if m:
            objective = float(m.group(1))
        if re.match(r"^\s*No\.\s+Column name", ln):
            in_cols = True
            i += 2                      # the header and its dashes
            continue
        if in_cols:
            t = ln.split()
            if not t or not t[0].isdigit():
                if t and t[0] in ("Karush-Kuhn-Tucker", "End"):
                    break
                i += 1
                continue
            if len(t) == 2 and i + 1 < len(lines):      # long name: values on the next line
                i += 1
                t = t + lines[i].split()
            k = 3 if t[2] in _STATUS else 2
            cols.append((t[1], float(t[k])))
        i += 1
    if status is None or objective is None:
        raise ValueError(f"{path}: no Status/Objective lines (not a glpsol -o file)")
    return status, objective, cols


def read_raw(path):
    """glpsol's raw basic solution (-w): (status comment, objective,
    [column primal values] in column order), full precision.  Lines:
    'c ...' comments, 's bas ROWS COLS PST DST OBJ', 'i ROW ST PRIM DUAL',
    'j COL ST PRIM DUAL', 'e o f'."""
    status, objective, ncols, prim = None, None, None, {}
    with open(path, "r", encoding="ascii", errors="replace") as f:
        for ln in f:
            t = ln.split()
            if not t:
                continue
            if t[0] == "c" and len(t) >= 3 and t[1] == "Status:":
                status = " ".join(t[2:])
            elif t[0] == "s":
                if t[1] != "bas":
                    raise ValueError(f"{path}: not a basic solution ({t[1]})")
                ncols, objective = int(t[3]), float(t[6])
            elif t[0] == "j":
                prim[int(t[1])] = float(t[3])
    if ncols is None or len(prim) != ncols:
        raise ValueError(f"{path}: truncated raw solution")
    return status, objective, [prim[k] for k in range(1, ncols + 1)]


def read_model(path):
    """(w, b, pos_label, status, objective) from glpsol's raw solution file
    PATH, the names of its columns from the printable solution next to it,
    and the sidecar written with the LP."""
    folder = os.path.dirname(path)
    with open(os.path.join(folder, SIDECAR)) as f:
        side = json.load(f)
    status, objective, values = read_raw(path)
    _, _, named = read_printed(os.path.join(folder, PRINTED))
    if len(named) != len(values):
        raise ValueError(f"{path}: {len(values)} columns, the printed solution has {len(named)}")
    d = side["d"]
    w, b = np.zeros(d), 0.0
    for (name, rounded), v in zip(named, values):
        if abs(rounded - v) > 1e-5 * max(1.0, abs(v)):   # the printed value is v to 6 digits
            raise ValueError(f"{path}: column {name}: raw {v!r} but printed {rounded!r}")
        m = re.fullmatch(r"([pq])(\d+)", name)
        if m:
            j = int(m.group(2)) - 1
            w[j] += v if m.group(1) == "p" else -v
        elif name == "b":
            b = v
    return w, b, side["pos_label"], status, objective
