"""Parsers for the model files of nesvm and its peers, reduced to the linear
decision function of a binary problem.

Every parser returns a ``LinearModel(w, b, pos_label)``: the decision value
f(x) = w.x + b is positive for ``pos_label``.  Only binary linear models are
turned into (w, b); multiclass and kernel models are evaluated through the
tools' own predict programs.
"""
from dataclasses import dataclass

import numpy as np


class ModelError(Exception):
    pass


@dataclass
class LinearModel:
    w: np.ndarray
    b: float
    pos_label: float

    def resized(self, d):
        """w cut or zero-padded to d features (features a model never saw
        have weight 0; features beyond the data are never multiplied)."""
        w = np.zeros(d)
        k = min(d, self.w.shape[0])
        w[:k] = self.w[:k]
        return LinearModel(w, self.b, self.pos_label)


def _lines(path):
    with open(path, "r", encoding="ascii", errors="replace") as f:
        return [ln.split() for ln in f]


def read_nesvm(path):
    """nesvm model format versions 1 and 2 (docs/format.md; they differ in
    which ``param`` lines they list, which this reader does not use): binary, linear (any
    svm_type: the model's ``problem`` line is kept as ``.problem``).  Kernel
    models (``kernel rbf``, basis + beta) are rejected: the harness uses
    them only through ``nesvm predict``."""
    lines = [t for t in _lines(path) if t]
    head = {}
    i = 0
    while i < len(lines) and lines[i][0] != "w":
        t = lines[i]
        if t[0] == "submodel":
            head.setdefault("submodels", []).append(t)
        else:
            head.setdefault(t[0], t[1:])
        i += 1
    if head.get("nesvm_model") not in (["1"], ["2"], ["3"]):
        raise ModelError(f"{path}: not a nesvm model of format version 1, 2 or 3")
    if head.get("kernel") != ["linear"]:
        raise ModelError(f"{path}: kernel {head.get('kernel')} is not linear")
    if int(head["nr_submodel"][0]) != 1:
        raise ModelError(f"{path}: {head['nr_submodel'][0]} sub-models, expected a binary model")
    labels = [float(x) for x in head["labels"]]
    sub = head["submodels"][0]
    pos = int(sub[sub.index("pos") + 1])
    d = int(head["nr_feature"][0])
    w = np.array([float(t[0]) for t in lines[i + 1:i + 1 + d]])
    if w.shape[0] != d or lines[i + 1 + d] != ["end"]:
        raise ModelError(f"{path}: truncated weight block")
    m = LinearModel(w, float(head["b"][0]), labels[pos])
    m.problem = head.get("problem", [None])[0]
    return m


def read_nesvm_info(path):
    """Header facts of a nesvm model: exit, iterations, primal, gap per
    sub-model (from the ``submodel`` lines)."""
    subs = []
    for t in _lines(path):
        if t and t[0] == "submodel":
            kv = dict(zip(t[2::2], t[3::2]))
            subs.append({"exit": kv["exit"], "iterations": int(kv["iterations"]),
                         "primal": float(kv["primal"]), "gap": float(kv["gap"])})
    return subs


def read_liblinear(path):
    """LIBLINEAR model: ``w`` has nr_feature (+1 with bias >= 0) rows; the
    decision value w.x (+ bias * w_last) is for the first label."""
    lines = _lines(path)
    head = {}
    i = 0
    while lines[i][0] != "w":
        head[lines[i][0]] = lines[i][1:]
        i += 1
    nr_class = int(head["nr_class"][0])
    if nr_class != 2:
        raise ModelError(f"{path}: {nr_class} classes, expected a binary model")
    d = int(head["nr_feature"][0])
    bias = float(head["bias"][0])
    rows = d + (1 if bias >= 0 else 0)
    w = np.array([float(t[0]) for t in lines[i + 1:i + 1 + rows]])
    if w.shape[0] != rows:
        raise ModelError(f"{path}: truncated weight block")
    b = bias * w[d] if bias >= 0 else 0.0
    return LinearModel(w[:d], b, float(head["label"][0]))


def read_libsvm(path):
    """LIBSVM model with a linear kernel: w = sum_i sv_coef_i SV_i,
    b = -rho; the decision value is for the first label of ``label``."""
    head = {}
    with open(path, "r", encoding="ascii") as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "SV":
                break
            head[t[0]] = t[1:]
        if head.get("kernel_type") != ["linear"]:
            raise ModelError(f"{path}: kernel {head.get('kernel_type')} is not linear")
        if int(head["nr_class"][0]) != 2:
            raise ModelError(f"{path}: expected a binary model")
        coef, idx, val, rowlen = [], [], [], []
        for line in f:
            t = line.split()
            if not t:
                continue
            coef.append(float(t[0]))
            rowlen.append(len(t) - 1)
            for p in t[1:]:
                k, v = p.split(":")
                idx.append(int(k))
                val.append(float(v))
    idx = np.array(idx, dtype=np.int64)
    d = int(idx.max()) if idx.size else 0
    w = np.zeros(d)
    np.add.at(w, idx - 1, np.repeat(np.array(coef), rowlen) * np.array(val))
    labels = [float(x) for x in head["label"]]
    m = LinearModel(w, -float(head["rho"][0]), labels[0])
    m.sv_coef = np.array(coef)   # y_i alpha_i of the support vectors
    return m


def libsvm_dual(model, C):
    """Dual objective D(alpha) = sum_i alpha_i - 1/2 ||w||^2 of a linear
    LIBSVM model, in double precision from the model file (LIBSVM's printed
    obj uses single-precision kernel values).  None if alpha is not feasible
    (0 <= alpha_i <= C, sum_i y_i alpha_i = 0, up to rounding)."""
    a = np.abs(model.sv_coef)
    if a.size and (a.max() > C * (1 + 1e-9) or abs(model.sv_coef.sum()) > 1e-9 * max(1.0, a.sum())):
        return None
    return float(a.sum() - 0.5 * model.w @ model.w)


def read_ocas(path, bias_feature):
    """svmocas model: d lines of w, then w0.  w0 is the weight of the bias
    feature whose value is svmocas's ``-b`` (0 = no bias), so the bias is
    bias_feature * w0 (with -b 1 this is the help text's f(x) = w'x + w0).
    Labels: +1 is the positive class."""
    v = np.array([float(t[0]) for t in _lines(path) if t])
    if v.size == 0:
        raise ModelError(f"{path}: empty model")
    return LinearModel(v[:-1], bias_feature * v[-1], 1.0)


def read_glpsol(path):
    """glpsol's raw solution of the LP-SVM written by lib/glpk.py: w = p - q,
    b; the LP's y = +1 is the sidecar's positive label.  A solution that is
    not optimal is still read (its objective shows how far it is)."""
    from lib import glpk
    try:
        w, b, pos, status, objective = glpk.read_model(path)
    except (OSError, ValueError, KeyError) as e:
        raise ModelError(str(e))
    m = LinearModel(w, b, pos)
    m.status, m.lp_objective = status, objective
    return m


def read_npz(path):
    """Model saved by bench/sk_runner.py: coef (1 x d), intercept, classes;
    scikit-learn's decision value is for classes[1]."""
    z = np.load(path)
    coef = np.atleast_2d(z["coef"])
    classes = z["classes"]
    if coef.shape[0] != 1 or classes.shape[0] != 2:
        raise ModelError(f"{path}: expected a binary linear model")
    return LinearModel(coef[0].astype(float), float(np.ravel(z["intercept"])[0]), float(classes[1]))


def read_linear_svr(path):
    """(w, b) of a linear regression model: nesvm's (``task regression``,
    ``kernel linear``; its ``problem`` line is kept as ``.problem``) or
    LIBLINEAR's -s 11/12/13 (``solver_type L2R_..._SVR[_DUAL]``; with ``bias`` >= 0
    the last weight times the bias is b).  f(x) = w.x + b is the prediction."""
    lines = [t for t in _lines(path) if t]
    head = {}
    i = 0
    while i < len(lines) and lines[i][0] != "w":
        head.setdefault(lines[i][0], lines[i][1:])
        i += 1
    d = int(head["nr_feature"][0])
    if "nesvm_model" in head:
        if head.get("task") != ["regression"] or head.get("kernel") != ["linear"]:
            raise ModelError(f"{path}: not a linear nesvm regression model")
        w = np.array([float(t[0]) for t in lines[i + 1:i + 1 + d]])
        if w.shape[0] != d or lines[i + 1 + d] != ["end"]:
            raise ModelError(f"{path}: truncated weight block")
        m = LinearModel(w, float(head["b"][0]), None)
        m.problem = head.get("problem", [None])[0]
        return m
    if "_SVR" not in head.get("solver_type", [""])[0]:
        raise ModelError(f"{path}: solver_type {head.get('solver_type')} is not LIBLINEAR's SVR")
    bias = float(head["bias"][0])
    rows = d + (1 if bias >= 0 else 0)
    w = np.array([float(t[0]) for t in lines[i + 1:i + 1 + rows]])
    if w.shape[0] != rows:
        raise ModelError(f"{path}: truncated weight block")
    m = LinearModel(w[:d], bias * w[d] if bias >= 0 else 0.0, None)
    m.problem = head["solver_type"][0]
    return m
