"""regressors.py - scikit-learn regressors over nesvm's epsilon-SVR (issue 32).

LinearSVR solves scikit-learn's LinearSVR problem exactly,

    min 1/2 ||w||^2 + C sum_i s_i l(y_i - w.x_i - b),
    l = max(0, |r| - epsilon) ('epsilon_insensitive') or its square
        ('squared_epsilon_insensitive'),

with the intercept as scikit-learn's (LIBLINEAR's): a feature of value
intercept_scaling appended to every row, regularized with w, so that
intercept_ = intercept_scaling * its weight.  nesvm trains it with
`--svm-type svr -B 0` on the augmented rows and stops at the certified
relative duality gap tol (gap_ after a fit).  s_i is sample_weight; rows of
weight 0 are removed.

Conventions as in estimators.py: __init__ stores its arguments untouched;
fit validates and sets the attributes ending in '_' (the previous fit's stay
until the new one is complete); n_jobs is the number of threads.
"""
import numbers
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _core
from .estimators import _seed, _threads, _Verbose

_LOSSES = ("epsilon_insensitive", "squared_epsilon_insensitive")


class LinearSVR(RegressorMixin, BaseEstimator):
    """Linear epsilon-SVR on scikit-learn's LinearSVR problem (LIBLINEAR -s 13 for
    loss='epsilon_insensitive', -s 11/12 for 'squared_epsilon_insensitive'), by
    NESVM's Newton method on the smoothed tube, to a certified duality gap.

    Parameters are scikit-learn's LinearSVR (1.2): epsilon, tol (the relative
    duality gap nesvm certifies), C, loss, fit_intercept, intercept_scaling,
    dual (accepted; nesvm picks its method by the data's shape, the dual one
    where the Newton matrix does not fit), verbose, random_state, max_iter
    (Newton iterations); and n_jobs (threads).  Fitted: coef_ (n_features,),
    intercept_ (1,) (the float 0.0 with fit_intercept=False, as scikit-learn's), n_iter_, gap_ (the certified relative gap) and
    fit_status_ (0: certified; 1: stopped short, with a ConvergenceWarning)."""

    def __init__(self, *, epsilon=0.0, tol=1e-4, C=1.0, loss="epsilon_insensitive", fit_intercept=True,
                 intercept_scaling=1.0, dual=True, verbose=0, random_state=None, max_iter=1000, n_jobs=None):
        self.epsilon = epsilon
        self.tol = tol
        self.C = C
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.dual = dual
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter
        self.n_jobs = n_jobs

    def _params(self):
        if self.loss not in _LOSSES:
            raise ValueError("loss must be 'epsilon_insensitive' or 'squared_epsilon_insensitive', got %r"
                             % (self.loss,))
        for name in ("C", "tol"):
            v = getattr(self, name)
            if not isinstance(v, numbers.Real) or not np.isfinite(v) or not v > 0:
                raise ValueError("%s must be a positive finite number, got %r" % (name, v))
        eps = self.epsilon
        if not isinstance(eps, numbers.Real) or not np.isfinite(eps) or eps < 0:
            raise ValueError("epsilon must be a non-negative finite number, got %r" % (eps,))
        s = self.intercept_scaling
        if self.fit_intercept and (not isinstance(s, numbers.Real) or not np.isfinite(s) or not s > 0):
            raise ValueError("intercept_scaling must be a positive finite number, got %r" % (s,))
        mi = self.max_iter
        if not isinstance(mi, numbers.Integral) or mi < 1:
            raise ValueError("max_iter must be a positive integer, got %r" % (mi,))
        return {"solver": "nesvm", "svm_type": "svr", "loss": self.loss, "epsilon": float(eps),
                "c": float(self.C), "eps": float(self.tol), "bias": 0.0, "max_iter": int(mi),
                "threads": _threads(self.n_jobs), "seed": _seed(self.random_state)}

    def _augment(self, X):
        """X with the intercept's feature (intercept_scaling) appended."""
        if not self.fit_intercept:
            return X
        col = np.full((X.shape[0], 1), float(self.intercept_scaling), dtype=X.dtype)
        if sp.issparse(X):
            return sp.hstack([X, sp.csr_matrix(col)], format="csr")
        return np.hstack([X, col])

    def fit(self, X, y, sample_weight=None):
        """Train on X (array or sparse matrix) and real targets y."""
        params = self._params()
        _core._check_sparse(X)
        probe = self.__class__.__new__(self.__class__)
        X, y = probe._validate_data(X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C",
                                    y_numeric=True)
        attrs = dict(vars(probe))
        y = np.asarray(y, dtype=np.float64)
        if sample_weight is not None:
            sw = _check_sample_weight(sample_weight, X, dtype=np.float64)
            if (sw < 0).any():
                raise ValueError("sample_weight must be non-negative")
            keep = sw > 0
            if not keep.any():
                raise ValueError("sample_weight is zero for every sample: nothing to fit")
            X, y, sw = X[keep], y[keep], sw[keep]
        else:
            sw = None
        Xa = self._augment(X)
        progress = _Verbose(self.verbose) if self.verbose else None
        model, _ = _core.train(Xa, y, params, sample_weight=sw, progress=progress)
        w, b, _, _ = model.submodel(0)
        d = X.shape[1]
        w = np.pad(np.asarray(w, dtype=np.float64), (0, max(0, d + 1 - len(w))))
        exit_reason, iterations, _, gap = model.training(0)[:4]
        attrs["coef_"] = w[:d].copy()
        # scikit-learn's: an array of one value, or the float 0.0 without an intercept
        attrs["intercept_"] = np.array([w[d] * float(self.intercept_scaling)]) if self.fit_intercept else 0.0
        attrs["n_iter_"] = max(1, int(iterations))
        attrs["gap_"] = float(gap)
        attrs["fit_status_"] = 0 if model.certified(0) else 1
        if attrs["fit_status_"]:
            warnings.warn("nesvm: the training stopped before its certificate (exit %s, relative gap %.3g, tol %g); "
                          "the model may be far from the optimum: raise max_iter" % (exit_reason, gap, self.tol),
                          ConvergenceWarning)
        for a in [a for a in vars(self) if a.endswith("_") and not a.startswith("__") and a not in attrs]:
            self.__dict__.pop(a, None)
        self.__dict__.update(attrs)
        return self

    def predict(self, X):
        """coef_ . x + intercept_ for each row of X."""
        check_is_fitted(self, "coef_")
        X = self._validate_data(X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=False)
        return np.asarray(X @ self.coef_, dtype=np.float64).ravel() + float(np.ravel(self.intercept_)[0])

    def _more_tags(self):
        # as scikit-learn's own LinearSVR: solutions stopped at a duality gap of tol
        # from rows in another order agree to that tolerance, not to the check's 1e-7
        return {"_xfail_checks": {"check_sample_weights_invariance":
                                  "zero sample_weight is not equivalent to removing samples"}}
