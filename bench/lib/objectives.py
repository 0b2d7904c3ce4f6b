"""Primal objectives of the problem families, computed by the harness from a
model's (w, b) on the training set (never taken from a tool's print).

    hinge_nobias     1/2 ||w||^2 + C sum_i max(0, 1 - y_i w.x_i)
    hinge_freebias   1/2 ||w||^2 + C sum_i max(0, 1 - y_i (w.x_i + b))
    sqhinge_regbias  1/2 (||w||^2 + b^2) + C sum_i max(0, 1 - y_i (w.x_i + b))^2
    lp_hinge_l1      ||w||_1 + C sum_i max(0, 1 - y_i (w.x_i + b))          (LP-SVM)
    ls_squared_l2    1/2 ||w||^2 + C sum_i (1 - y_i (w.x_i + b))^2          (LS-SVM)

and epsilon-SVR's (svr_primal, real targets y_i, tube half-width p):
1/2 ||w||^2 + C sum_i max(0, |y_i - w.x_i - b| - p), or with the squares.

(b is free and unregularized in every family but hinge_nobias, where b = 0,
and sqhinge_regbias.)

y_i = +1 for the model's positive label, -1 otherwise.  The objectives are
symmetric under (w, b, y) -> (-w, -b, -y), so only the labelling matters.
"""
import numpy as np

FAMILY_FORMULAS = {
    "hinge_nobias": "1/2 ||w||^2 + C sum max(0, 1 - y w.x)",
    "hinge_freebias": "1/2 ||w||^2 + C sum max(0, 1 - y (w.x + b)), b free",
    "sqhinge_regbias": "1/2 (||w||^2 + b^2) + C sum max(0, 1 - y (w.x + b))^2",
    "lp_hinge_l1": "||w||_1 + C sum max(0, 1 - y (w.x + b)), b free",
    "ls_squared_l2": "1/2 ||w||^2 + C sum (1 - y (w.x + b))^2, b free",
}


def signed_targets(labels, pos_label):
    return np.where(np.asarray(labels) == pos_label, 1.0, -1.0)


def margins(X, labels, model):
    """y_i (w.x_i + b) for the rows of X (scipy sparse or ndarray)."""
    m = model.resized(X.shape[1])
    return signed_targets(labels, m.pos_label) * (X @ m.w + m.b), m


def primal(family, X, labels, model, C):
    """Primal objective of ``family`` at ``model`` on (X, labels).  For
    hinge_nobias the model's b is ignored (such models have b = 0; the
    analysis flags any that do not)."""
    if family == "hinge_nobias":
        model = type(model)(model.w, 0.0, model.pos_label)
    mg, m = margins(X, labels, model)
    if family == "ls_squared_l2":      # every residual counts, on both sides of the margin
        r = 1.0 - mg
        return 0.5 * float(m.w @ m.w) + C * float(r @ r)
    loss = np.maximum(0.0, 1.0 - mg)
    if family == "lp_hinge_l1":
        return float(np.abs(m.w).sum()) + C * float(loss.sum())
    ww = float(m.w @ m.w)
    if family in ("hinge_nobias", "hinge_freebias"):
        return 0.5 * ww + C * float(loss.sum())
    if family == "sqhinge_regbias":
        return 0.5 * (ww + m.b * m.b) + C * float((loss * loss).sum())
    raise ValueError(f"no objective for family {family}")


def accuracy(X, labels, model):
    """Fraction of rows whose label the model predicts: f(x) > 0 means the
    positive label, f(x) <= 0 the negative one (as nesvm, LIBSVM, LIBLINEAR
    and scikit-learn decide binary models)."""
    m = model.resized(X.shape[1])
    pred_pos = (X @ m.w + m.b) > 0
    return float(np.mean(pred_pos == (np.asarray(labels) == m.pos_label)))


def svr_primal(X, y, model, C, p, squared):
    """epsilon-SVR's primal at a linear model (w, b): 1/2 ||w||^2 + C sum_i
    max(0, |y_i - w.x_i - b| - p), or the sum of its squares (``squared``:
    LIBLINEAR -s 11/12, nesvm's svr_squared_epsilon_insensitive_l2)."""
    m = model.resized(X.shape[1])
    r = np.maximum(0.0, np.abs(np.asarray(y) - (X @ m.w + m.b)) - p)
    return 0.5 * float(m.w @ m.w) + C * float(r @ r if squared else r.sum())


def mse(X, y, model):
    """Mean squared error of the linear model's predictions w.x + b on (X, y)."""
    m = model.resized(X.shape[1])
    e = np.asarray(y) - (X @ m.w + m.b)
    return float(e @ e) / e.shape[0]


def rel_gap(p, p_best):
    return (p - p_best) / abs(p_best)
