"""novelty.py - scikit-learn's OneClassSVM over nesvm's one-class SVM (issue 33).

OneClassSVM solves scikit-learn's (LIBSVM's -s 2) problem exactly, in its
scaling, with s_i the sample weights (1 without them) and W = sum_i s_i:

    dual    min_a 1/2 a'K a,   0 <= a_i <= s_i,   sum_i a_i = nu W
    primal  min_{f, rho} 1/2 ||f||_K^2 + sum_i s_i max(0, rho - f(x_i)) - nu W rho

(`nesvm train -s 2 -n NU`): the kernel SMO on a working set, to the certified
relative duality gap tol.  decision_function(x) = f(x) - rho = score_samples(x)
- offset_ with offset_ = rho, predict +1 where it is > 0 (LIBSVM's rule), else
-1.  kernel='linear' is trained as the kernel x.x' (nesvm's poly kernel of
degree 1, gamma 1, coef0 0: the same numbers), so that support vectors and dual
coefficients exist as in scikit-learn.  kernel='precomputed': X is the kernel
matrix (fit: n x n; predict: n_test x n_train), checked positive semi-definite
by the C library (the problem refused otherwise: no certificate).

Conventions as in estimators.py: __init__ stores its arguments untouched;
fit validates and sets the attributes ending in '_' (the previous fit's stay
until the new one is complete); n_jobs is the number of threads.
"""
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OutlierMixin

from . import _core
from .estimators import _INDEFINITE, _INDEFINITE_CHECKS, _FittedState, _KernelParams, _precomputed_rows, _threads, _Verbose
from .regressors import _NO_LIMIT, _real, _sample_weight, _warn_uncertified


class _FittedOC:
    """What predict needs from a fit (one object, replaced whole by a refit)."""

    __slots__ = ("model", "n_features")

    def __init__(self, model, n_features):
        self.model, self.n_features = model, int(n_features)


class OneClassSVM(_KernelParams, _FittedState, OutlierMixin, BaseEstimator):
    """The one-class SVM on scikit-learn's OneClassSVM problem (LIBSVM -s 2, its
    scaling: the same decision values), by the kernel SMO on a working set, to a
    certified relative duality gap.

    Parameters are scikit-learn's OneClassSVM (1.2): kernel ('linear', 'poly',
    'rbf', 'precomputed': X the kernel matrix, n x n to fit, n_test x n_train to
    predict, refused if not positive semi-definite; 'sigmoid' and 'poly' with
    coef0 < 0 are refused at fit: not positive semi-definite, no certificate),
    degree, gamma ('scale', 'auto' or a number >
    0), coef0, tol (the relative duality gap nesvm certifies, in [1e-15, 1)), nu
    (in (0, 1]: an upper bound on the fraction of training rows outside, a lower
    bound on the fraction of support vectors), shrinking (accepted, no effect:
    the SMO always shrinks), cache_size (accepted, no effect: kernel_memory
    bounds the working set's kernel block), verbose, max_iter (the SMO's epochs
    of |S| steps, summed over the rounds; -1: no limit); and nesvm's n_jobs
    (threads; None: 1) and kernel_memory (MB).

    Fitted, in scikit-learn's layout: support_, support_vectors_, dual_coef_
    (1 x n_SV, LIBSVM's coefficients: in [0, s_i], summing to nu W),
    intercept_ (-rho), offset_ (rho), coef_ (kernel='linear' only), n_support_,
    fit_status_ (0: certified; 1: stopped short, with a ConvergenceWarning),
    n_iter_, shape_fit_, n_features_in_; and gap_ (the certified relative gap)."""

    _sklearn_twin = "sklearn.svm.OneClassSVM"

    def __init__(self, *, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, nu=0.5, shrinking=True,
                 cache_size=200, verbose=False, max_iter=-1, n_jobs=None, kernel_memory=4096):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.kernel_memory = kernel_memory

    def _params(self, X):
        """nesvm's parameters for a fit on X, every parameter checked."""
        tol = _real("tol", self.tol)
        if not 1e-15 <= tol < 1:
            raise ValueError("tol must be in [1e-15, 1) (nesvm's certified relative duality gap), got %r" % (tol,))
        nu = self.nu
        if isinstance(nu, bool) or not isinstance(nu, numbers.Real) or not 0 < nu <= 1:
            raise ValueError("nu must be in (0, 1] (the coefficients, each at most its weight, sum to nu times the "
                             "weights' sum: infeasible above 1), got %r" % (nu,))
        if not isinstance(self.shrinking, (bool, np.bool_)) and self.shrinking not in (0, 1):
            raise ValueError("shrinking must be a boolean, got %r" % (self.shrinking,))
        _real("cache_size", self.cache_size)
        mi = self.max_iter
        if isinstance(mi, bool) or not isinstance(mi, numbers.Integral) or not (mi == -1 or mi >= 1):
            raise ValueError("max_iter must be -1 (no limit) or a positive integer, got %r" % (mi,))
        p = {"solver": "nesvm", "svm_type": "one-class", "svm_nu": float(nu), "eps": tol,
             "max_iter": _NO_LIMIT if mi == -1 else int(mi), "threads": _threads(self.n_jobs),
             "kernel_memory": _real("kernel_memory", self.kernel_memory)}
        kp = self._kernel_params(X)
        if kp["kernel"] == "sigmoid" or kp.get("coef0", 0.0) < 0:
            raise ValueError("kernel=%r%s is not positive semi-definite: with it the one-class SVM is not convex and "
                             "nesvm has no certificate for it; use kernel='rbf', 'linear' or 'poly' with coef0 >= 0, "
                             "or sklearn.svm.OneClassSVM (LIBSVM's dual, a stationary point)"
                             % (kp["kernel"], " with coef0 < 0" if kp["kernel"] == "poly" else ""))
        if kp["kernel"] == "linear":  # x.x' as a kernel: an expansion over support vectors
            kp = {"kernel": "poly", "degree": 1, "gamma": 1.0, "coef0": 0.0}
        p.update(kp)
        return p

    def fit(self, X, y=None, sample_weight=None):
        """Train on X (array or sparse matrix, n_samples x n_features); y is
        ignored (scikit-learn's API).  The previous fit stays in use until the
        new one is complete."""
        return _FittedState.fit(self, X, y, sample_weight)

    def _fit(self, X, y, sample_weight):
        """(_FittedOC, {fitted attribute: value}) of a fit, leaving self untouched."""
        _core._check_sparse(X)
        probe = self.__class__.__new__(self.__class__)  # takes n_features_in_ (estimators.py)
        X = probe._validate_data(X, accept_sparse="csr", dtype=[np.float64, np.float32], order="C")
        attrs = dict(vars(probe))
        sw = _sample_weight(sample_weight, X)
        params = self._params(X)
        progress = _Verbose(self.verbose) if self.verbose else None
        pc = self.kernel == "precomputed"
        model, _ = _core.train(_precomputed_rows(X) if pc else X, np.ones(X.shape[0]), params, sample_weight=sw,
                               progress=progress)
        coef, b, _, _ = model.submodel(0)
        nz = np.flatnonzero(coef != 0)
        basis = model.basis()[nz].astype(np.float64)
        dual = coef[nz].reshape(1, -1)
        exit_reason, iterations, _, gap = model.training(0)[:4]
        attrs.update({"support_": model.basis_rows()[nz].astype(np.int32),
                      # a precomputed kernel has no vectors, as scikit-learn's (their rows: support_)
                      "support_vectors_": np.empty((0, 0)) if pc else basis if sp.issparse(X) else basis.toarray(),
                      "dual_coef_": sp.csr_matrix(dual) if sp.issparse(X) else dual,
                      "intercept_": np.array([b], dtype=np.float64), "offset_": np.array([-b], dtype=np.float64),
                      "n_support_": np.array([nz.size], dtype=np.int32),
                      "shape_fit_": X.shape, "n_iter_": max(1, int(iterations)), "gap_": float(gap),
                      "fit_status_": 1 if model.certified(0) == 0 else 0})
        if attrs["fit_status_"]:
            _warn_uncertified(exit_reason, gap, self.tol)
        return _FittedOC(model, X.shape[1]), attrs

    def _restore(self, model):
        return _FittedOC(model, getattr(self, "n_features_in_", model.n_features))

    def _decide(self, X):
        st = self._state()
        _core._check_sparse(X)
        X = self._validate_data(X, accept_sparse="csr", dtype=[np.float64, np.float32], order="C", reset=False)
        if X.shape[1] != st.n_features:  # refitted on other data while this call ran
            raise ValueError("X has %d features, but the model in use was fitted on %d" % (X.shape[1], st.n_features))
        if st.model.kernel == "precomputed":  # the rows the C library predicts
            X = _precomputed_rows(X, st.n_features)
        labels, dec = st.model.predict(X, threads=_threads(self.n_jobs))
        return labels, dec[:, 0].copy()

    def decision_function(self, X):
        """dual_coef_ @ K(support_vectors_, x) - offset_: positive inside, negative
        outside."""
        return self._decide(X)[1]

    def score_samples(self, X):
        """dual_coef_ @ K(support_vectors_, x): decision_function(x) + offset_."""
        st = self._state()
        b = st.model.submodel(0)[1]
        return self._decide(X)[1] - b

    def predict(self, X):
        """+1 (inlier) where decision_function(x) > 0, else -1 (LIBSVM's rule)."""
        return self._decide(X)[0].astype(np.int64)

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
        # scikit-learn's own OneClassSVM skips this check with the same reason: weight 0
        # removes a row exactly, but gamma='scale' counts the rows of weight 0
        xfail = {"check_sample_weights_invariance": "zero sample_weight is not equivalent to removing samples"}
        pc = getattr(self, "kernel", None) == "precomputed"  # (a probe of _fit has no parameters)
        if pc:
            xfail.update(dict.fromkeys(_INDEFINITE_CHECKS, _INDEFINITE))
            # scikit-learn 1.2's outlier checks give a 300 x 2 feature matrix whatever the
            # pairwise tag (its own OneClassSVM(kernel='precomputed') fails them the same way)
            xfail.update(dict.fromkeys(("check_outliers_fit_predict", "check_outliers_train"),
                                       "gives a feature matrix, not a kernel matrix, to a pairwise estimator"))
        return {"_xfail_checks": xfail, "pairwise": pc}
