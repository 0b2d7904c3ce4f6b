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

SVR solves scikit-learn's SVR problem (LIBSVM's -s 3) exactly,

    min 1/2 ||f||_K^2 + C sum_i s_i max(0, |y_i - f(x_i) - b| - epsilon),

f in the kernel's space and a free bias b, on the full kernel by NESVM's
working set for the tube (each round's sub-problem solved by the kernel SMO;
`nesvm train -s 3 -p EPSILON`), to the certified relative duality gap tol.  kernel='linear' is trained as the kernel
x.x' (nesvm's poly kernel of degree 1, gamma 1, coef0 0: the same numbers), so
that support vectors and dual coefficients exist as in scikit-learn.

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
from .estimators import _INDEFINITE, _INDEFINITE_CHECKS, _FittedState, _KernelParams, _precomputed_rows, _seed, _threads, _Verbose

_LOSSES = ("epsilon_insensitive", "squared_epsilon_insensitive")
_NO_LIMIT = 2**62  # max_iter=-1: no iteration limit


def _real(name, v, low=0.0, low_open=True):
    """v as a float: a finite real number above low (or at least low)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v) or v < low or \
            (low_open and v == low):
        raise ValueError("%s must be a %s finite number, got %r"
                         % (name, "positive" if low_open else "non-negative", v))
    return float(v)


def _sample_weight(sample_weight, X):
    """sample_weight checked (non-negative, not all zero) as float64, or None."""
    if sample_weight is None:
        return None
    sw = _check_sample_weight(sample_weight, X, dtype=np.float64)
    if (sw < 0).any():
        raise ValueError("sample_weight must be non-negative")
    if not (sw > 0).any():
        raise ValueError("sample_weight is zero for every sample: nothing to fit")
    return sw


def _warn_uncertified(exit_reason, gap, tol):
    warnings.warn("nesvm: the training stopped before its certificate (exit %s, relative gap %.3g, tol %g); "
                  "the model may be far from the optimum: raise max_iter" % (exit_reason, gap, tol),
                  ConvergenceWarning)


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
        _real("C", self.C)
        _real("tol", self.tol)
        eps = _real("epsilon", self.epsilon, low_open=False)
        if self.fit_intercept:
            _real("intercept_scaling", self.intercept_scaling)
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
        sw = _sample_weight(sample_weight, X)
        if sw is not None:
            keep = sw > 0
            X, y, sw = X[keep], y[keep], sw[keep]
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
            _warn_uncertified(exit_reason, gap, self.tol)
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


class _FittedSVR:
    """What SVR.predict needs from a fit (one object, replaced whole by a refit)."""

    __slots__ = ("model", "n_features")

    def __init__(self, model, n_features):
        self.model, self.n_features = model, int(n_features)


class SVR(_KernelParams, _FittedState, RegressorMixin, BaseEstimator):
    """Kernel epsilon-SVR on scikit-learn's SVR problem (LIBSVM -s 3): the full
    kernel with a free bias, by NESVM's working set for the tube (the kernel SMO
    on each round's rows), to a certified relative duality gap.

    Parameters are scikit-learn's SVR (1.2): kernel ('linear', 'poly', 'rbf',
    'precomputed': X the kernel matrix, n x n to fit, n_test x n_train to predict,
    refused at fit when it is not positive semi-definite; 'sigmoid' and 'poly'
    with coef0 < 0 are refused at fit: not positive semi-definite, no
    certificate), degree, gamma ('scale', 'auto' or a number > 0), coef0, tol (the
    relative duality gap nesvm certifies, in [1e-15, 1)), C, epsilon, shrinking
    (accepted, no effect: the working set's SMO always shrinks), cache_size
    (accepted, no effect: the working set's kernel block is bounded by
    kernel_memory),
    verbose, max_iter (the working set's SMO epochs of |S| steps, summed over
    its rounds; -1: no limit); and nesvm's n_jobs
    (threads; None: 1) and kernel_memory (MB for the kernel matrix; a larger
    one is computed on the fly).

    Fitted, in scikit-learn's layout: support_ (the training rows with a nonzero
    coefficient), support_vectors_, dual_coef_ (1 x n_SV, the expansion's
    coefficients: predict(x) = dual_coef_ @ K(support_vectors_, x) + intercept_;
    the dual's alpha_i - alpha_i^* as LIBSVM's: inside the box [-C s_i, C s_i],
    summing to 0),
    intercept_ (1,), coef_ (kernel='linear' only), n_support_, fit_status_
    (0: certified; 1: stopped short, with a ConvergenceWarning), n_iter_ (SMO
    epochs), shape_fit_, n_features_in_; and gap_ (the certified relative
    gap)."""

    _sklearn_twin = "sklearn.svm.SVR"

    def __init__(self, *, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, C=1.0, epsilon=0.1,
                 shrinking=True, cache_size=200, verbose=False, max_iter=-1, n_jobs=None, kernel_memory=4096):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.kernel_memory = kernel_memory

    _problem = "epsilon-SVR"

    def _problem_params(self):
        """The problem's own parameters (NuSVR: nu)."""
        return {"svm_type": "svr", "epsilon": _real("epsilon", self.epsilon, low_open=False)}

    def _more_attributes(self, model):
        """Fitted attributes beyond SVR's (NuSVR: epsilon_)."""
        return {}

    def _params(self, X):
        """nesvm's parameters for a fit on X, every parameter checked."""
        tol = _real("tol", self.tol)
        if not 1e-15 <= tol < 1:
            raise ValueError("tol must be in [1e-15, 1) (nesvm's certified relative duality gap), got %r" % (tol,))
        if not isinstance(self.shrinking, (bool, np.bool_)) and self.shrinking not in (0, 1):
            raise ValueError("shrinking must be a boolean, got %r" % (self.shrinking,))
        _real("cache_size", self.cache_size)
        mi = self.max_iter
        if isinstance(mi, bool) or not isinstance(mi, numbers.Integral) or not (mi == -1 or mi >= 1):
            raise ValueError("max_iter must be -1 (no limit) or a positive integer, got %r" % (mi,))
        p = {"solver": "nesvm", "loss": "epsilon_insensitive", "c": _real("C", self.C), "eps": tol,
             "max_iter": _NO_LIMIT if mi == -1 else int(mi), "threads": _threads(self.n_jobs),
             "kernel_memory": _real("kernel_memory", self.kernel_memory), "basis": 0}
        p.update(self._problem_params())
        kp = self._kernel_params(X)
        if kp["kernel"] == "sigmoid" or kp.get("coef0", 0.0) < 0:
            raise ValueError("kernel=%r%s is not positive semi-definite: with it the %s is not convex and "
                             "nesvm has no certificate for it; use kernel='rbf', 'linear' or 'poly' with coef0 >= 0, "
                             "or %s (LIBSVM's dual, a stationary point)"
                             % (kp["kernel"], " with coef0 < 0" if kp["kernel"] == "poly" else "", self._problem,
                                self._sklearn_twin))
        if kp["kernel"] == "linear":  # x.x' as a kernel: an expansion over support vectors
            kp = {"kernel": "poly", "degree": 1, "gamma": 1.0, "coef0": 0.0}
        p.update(kp)
        return p

    def _fit(self, X, y, sample_weight):
        """(_FittedSVR, {fitted attribute: value}) of a fit, leaving self untouched."""
        _core._check_sparse(X)  # before scipy walks a corrupt matrix's arrays
        probe = self.__class__.__new__(self.__class__)  # takes n_features_in_ (estimators.py)
        X, y = probe._validate_data(X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C",
                                    y_numeric=True)
        attrs = dict(vars(probe))
        y = np.asarray(y, dtype=np.float64)
        # rows of weight 0: the C library leaves them out (their indices stay the
        # training rows'); gamma='scale' counts them, as scikit-learn's SVR does
        sw = _sample_weight(sample_weight, X)
        params = self._params(X)
        progress = _Verbose(self.verbose) if self.verbose else None
        pc = self.kernel == "precomputed"
        model, _ = _core.train(_precomputed_rows(X) if pc else X, y, params, sample_weight=sw, progress=progress)
        coef, b, _, _ = model.submodel(0)
        nz = np.flatnonzero(coef != 0)  # an all-zero expansion keeps one row of 0
        basis = model.basis()[nz].astype(np.float64)
        dual = coef[nz].reshape(1, -1)
        exit_reason, iterations, _, gap = model.training(0)[:4]
        attrs.update({"support_": model.basis_rows()[nz].astype(np.int32),
                      # a precomputed kernel has no vectors, as scikit-learn's (their rows: support_)
                      "support_vectors_": np.empty((0, 0)) if pc else basis if sp.issparse(X) else basis.toarray(),
                      "dual_coef_": sp.csr_matrix(dual) if sp.issparse(X) else dual,
                      "intercept_": np.array([b], dtype=np.float64),
                      "n_support_": np.array([nz.size], dtype=np.int32),
                      "shape_fit_": X.shape, "n_iter_": max(1, int(iterations)), "gap_": float(gap),
                      # 2: no certificate to reach (the sigmoid kernel, not positive semi-definite)
                      "fit_status_": 1 if model.certified(0) == 0 else 0})
        attrs.update(self._more_attributes(model))
        if attrs["fit_status_"]:
            _warn_uncertified(exit_reason, gap, self.tol)
        return _FittedSVR(model, X.shape[1]), attrs

    def _restore(self, model):
        return _FittedSVR(model, getattr(self, "n_features_in_", model.n_features))

    def predict(self, X):
        """dual_coef_ @ K(support_vectors_, x) + intercept_ for each row x of X."""
        st = self._state()
        _core._check_sparse(X)
        X = self._validate_data(X, accept_sparse="csr", dtype=[np.float64, np.float32], order="C", reset=False)
        if X.shape[1] != st.n_features:  # refitted on other data while this call ran
            raise ValueError("X has %d features, but the model in use was fitted on %d" % (X.shape[1], st.n_features))
        if st.model.kernel == "precomputed":  # the rows the C library predicts
            X = _precomputed_rows(X, st.n_features)
        _, dec = st.model.predict(X, threads=_threads(self.n_jobs))
        return dec[:, 0].copy()

    @property
    def coef_(self):
        """The weights of kernel='linear' (1, n_features): dual_coef_ @ support_vectors_
        (read-only, as scikit-learn's)."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        self._state()
        coef = self.dual_coef_ @ self.support_vectors_
        if sp.issparse(coef):
            coef = sp.csr_matrix(coef)
            coef.data.flags.writeable = False
        else:
            coef = np.asarray(coef)
            coef.flags.writeable = False
        return coef

    def _more_tags(self):
        # scikit-learn's own SVR skips this check with the same reason.  Weight 0
        # removes a row exactly (the check passes with a numeric gamma), but the
        # check uses gamma='scale', which counts the weight-0 rows, as scikit-learn's
        # SVR does (whose predictions then differ by 2e-4 there; nesvm's by 1e-6)
        xfail = {"check_sample_weights_invariance": "zero sample_weight is not equivalent to removing samples"}
        pc = getattr(self, "kernel", None) == "precomputed"  # (a probe of _fit has no parameters)
        if pc:
            xfail.update(dict.fromkeys(_INDEFINITE_CHECKS, _INDEFINITE))
        return {"_xfail_checks": xfail, "pairwise": pc}
