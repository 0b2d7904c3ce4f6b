"""nu.py - scikit-learn's NuSVC and NuSVR over nesvm's nu-SVC and nu-SVR (issue 33).

NuSVC solves scikit-learn's (LIBSVM's -s 1) problem exactly, in its scaling, for
each pair of classes (one-vs-one, y = +-1), with s_i the sample weights (1
without them) and W = sum_i s_i over the pair's rows:

    dual    min_a 1/2 a'Q a,   0 <= a_i <= s_i,   each class's sum of a = nu W / 2
    primal  min_{f, b, rho} 1/2 ||f||_K^2 + sum_i s_i max(0, rho - y_i (f(x_i) + b)) - nu W rho

and its model is the problem's divided by rho (LIBSVM's, the C-SVM of C =
1/rho): dual_coef_ = y_i a_i / rho, intercept_ = b / rho (`nesvm train -s 1 -n
NU`).  NuSVR solves scikit-learn's (LIBSVM's -s 4) problem,

    min_{f, b, e} 1/2 ||f||_K^2 + C sum_i s_i max(0, |y_i - f(x_i) - b| - e) + C nu W e

(`nesvm train -s 4 -n NU -c C`), the tube's half-width e an outcome
(epsilon_).  Both by the kernel SMO's nu mode on a working set, to the
certified relative duality gap tol.  kernel='linear' is trained as the kernel
x.x' (nesvm's poly kernel of degree 1, gamma 1, coef0 0: the same numbers), so
that support vectors and dual coefficients exist as in scikit-learn.
kernel='precomputed': X is the kernel matrix (fit: n x n; predict: n_test x
n_train), checked positive semi-definite by the C library.

As scikit-learn's NuSVC, class_weight is accepted and ignored (LIBSVM's -s 1
has no C for it to weigh).  Conventions as in estimators.py.
"""
import numbers

import numpy as np
import scipy.sparse as sp

from .estimators import _NesvmClassifier
from .regressors import SVR, _real


# scikit-learn's random check data with a linear kernel (or its matrix given as
# precomputed) at nu 0.5: the classes' reduced hulls meet, the optimum is w = 0
# and a fit refuses it (LIBSVM divides by rho = 0: scikit-learn's own
# NuSVC(kernel='linear') fails two of these with non-finite coefficients and
# passes the others with a model scaled by 1/rho of rounding)
_W0 = ("the check's random data leave the classes' reduced hulls meeting at nu 0.5 with a linear kernel: the "
       "optimum is w = 0, refused (LIBSVM divides by rho = 0)")
_W0_CHECKS = ("check_fit_score_takes_y", "check_sample_weights_pandas_series", "check_sample_weights_not_an_array",
              "check_sample_weights_list", "check_estimators_nan_inf", "check_estimator_sparse_data",
              "check_supervised_y_2d", "check_fit_idempotent", "check_fit_check_is_fitted", "check_n_features_in")
# ... and with a precomputed kernel, classes of a row or two: nu 0.5 is infeasible
# for their pairs (scikit-learn's NuSVC(kernel='precomputed') fails these too)
_SMALL_CLASSES = "specified nu is infeasible for the check's classes of one or two rows"
_SMALL_CLASSES_CHECKS = ("check_dtype_object", "check_methods_sample_order_invariance",
                         "check_methods_subset_invariance", "check_fit2d_1feature", "check_dict_unchanged",
                         "check_dont_overwrite_parameters", "check_fit2d_predict1d", "check_estimators_dtypes")


def _check_nu(nu):
    if isinstance(nu, bool) or not isinstance(nu, numbers.Real) or not 0 < nu <= 1:
        raise ValueError("nu must be in (0, 1] (each sign's coefficients, each at most its weight, sum to nu/2 "
                         "times the weights' sum), got %r" % (nu,))
    return float(nu)


def _linear_coef(est):
    """The weights of kernel='linear': dual_coef_ @ support_vectors_ (read-only, as
    scikit-learn's)."""
    if est.kernel != "linear":
        raise AttributeError("coef_ is only available when using a linear kernel")
    est._state()
    coef = est.dual_coef_ @ est.support_vectors_
    if sp.issparse(coef):
        coef = sp.csr_matrix(coef)
        coef.data.flags.writeable = False
    else:
        coef = np.asarray(coef)
        coef.flags.writeable = False
    return coef


def _psd_kernel(est, X, problem):
    """The kernel's parameters for nesvm, refusing kernels that are not positive
    semi-definite (no certificate) and training 'linear' as x.x'."""
    kp = est._kernel_params(X)
    if kp["kernel"] == "sigmoid" or kp.get("coef0", 0.0) < 0:
        raise ValueError("kernel=%r%s is not positive semi-definite: with it the %s is not convex and nesvm has no "
                         "certificate for it; use kernel='rbf', 'linear' or 'poly' with coef0 >= 0, or %s (LIBSVM's "
                         "dual, a stationary point)"
                         % (kp["kernel"], " with coef0 < 0" if kp["kernel"] == "poly" else "", problem,
                            est._sklearn_twin))
    if kp["kernel"] == "linear":  # x.x' as a kernel: an expansion over support vectors
        kp = {"kernel": "poly", "degree": 1, "gamma": 1.0, "coef0": 0.0}
    return kp


class NuSVC(_NesvmClassifier):
    """nu-SVC on scikit-learn's NuSVC problem (LIBSVM -s 1, its scaling: the same
    decision values), one-vs-one, by the kernel SMO's nu mode on a working set, to
    a certified relative duality gap.

    Parameters are scikit-learn's NuSVC (1.2): nu (in (0, 1]: an upper bound on the
    fraction of margin errors, a lower bound on the fraction of support vectors; a
    nu no pair of classes can meet, nu W / 2 above a class's weight, raises
    "specified nu is infeasible"), kernel ('linear', 'poly', 'rbf', 'precomputed';
    'sigmoid' and 'poly' with coef0 < 0 are refused: not positive semi-definite, no
    certificate), degree, gamma, coef0, shrinking (accepted, no effect), probability
    (Platt's sigmoids by internal 5-fold cross-validation, as LIBSVM's -b 1), tol
    (the relative duality gap nesvm certifies, in [1e-15, 1)), cache_size (accepted,
    no effect), class_weight (accepted and ignored, as scikit-learn's NuSVC),
    verbose, max_iter, decision_function_shape, break_ties, random_state; and
    nesvm's n_jobs (threads) and kernel_memory (MB).

    Fitted as nesvm.SVC: classes_, support_, support_vectors_, dual_coef_ (one row
    per binary model, over support_vectors_: LIBSVM's coefficients y_i a_i / rho),
    intercept_, coef_ (kernel='linear' only), n_support_, fit_status_, n_iter_,
    shape_fit_, n_features_in_, gap_; and rho_ (each binary model's margin rho:
    its model is its problem's divided by rho, LIBSVM's C = 1/rho)."""

    _sklearn_twin = "sklearn.svm.NuSVC"

    def __init__(self, *, nu=0.5, kernel="rbf", degree=3, gamma="scale", coef0=0.0, shrinking=True,
                 probability=False, tol=1e-3, cache_size=200, class_weight=None, verbose=False, max_iter=-1,
                 decision_function_shape="ovr", break_ties=False, random_state=None, n_jobs=None,
                 kernel_memory=4096):
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.kernel_memory = kernel_memory

    def _refuses_indefinite(self):
        return True

    def _class_weights(self, y_idx, classes, codes):
        _NesvmClassifier._class_weights(self, y_idx, classes, codes)  # checked, then ignored
        return None

    def _nesvm_params(self, X):
        tol = _real("tol", self.tol)
        if not 1e-15 <= tol < 1:
            raise ValueError("tol must be in [1e-15, 1) (nesvm's certified relative duality gap), got %r" % (tol,))
        if not isinstance(self.shrinking, (bool, np.bool_)) and self.shrinking not in (0, 1):
            raise ValueError("shrinking must be a boolean, got %r" % (self.shrinking,))
        _real("cache_size", self.cache_size)
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError("decision_function_shape must be 'ovr' or 'ovo', got %r" % (self.decision_function_shape,))
        p = {"svm_type": "nu-svc", "svm_nu": _check_nu(self.nu), "multiclass": "ovo", "basis": 0,
             "kernel_memory": _real("kernel_memory", self.kernel_memory)}
        p.update(_psd_kernel(self, X, "nu-SVC"))
        return p

    def _fit(self, X, y, sample_weight):
        fitted, attrs = _NesvmClassifier._fit(self, X, y, sample_weight)
        model = fitted.model
        attrs["rho_"] = np.array([model.nu_value(k) for k in range(model.n_submodels)], dtype=np.float64)
        return fitted, attrs

    @property
    def coef_(self):
        """The weights of kernel='linear' (one row per binary model)."""
        return _linear_coef(self)

    def _more_tags(self):
        tags = _NesvmClassifier._more_tags(self)
        # scikit-learn's own NuSVC skips these with the same reasons
        tags["_xfail_checks"].update({
            "check_class_weight_classifiers": "class_weight is ignored.",
            "check_classifiers_one_label_sample_weights": "specified nu is infeasible for the fit."})
        kernel = getattr(self, "kernel", None)  # (a probe of _fit has no parameters)
        if kernel in ("linear", "precomputed"):
            tags["_xfail_checks"].update(dict.fromkeys(_W0_CHECKS, _W0))
        if kernel == "precomputed":
            tags["_xfail_checks"].update(dict.fromkeys(_SMALL_CLASSES_CHECKS, _SMALL_CLASSES))
        return tags


class NuSVR(SVR):
    """nu-SVR on scikit-learn's NuSVR problem (LIBSVM -s 4, its scaling: the same
    predictions), by the kernel SMO's nu mode on a working set, to a certified
    relative duality gap.

    Parameters are scikit-learn's NuSVR (1.2): nu (in (0, 1]: an upper bound on the
    fraction of rows outside the tube, a lower bound on the fraction of support
    vectors), C, kernel, degree, gamma, coef0, shrinking (accepted, no effect), tol
    (the certified relative duality gap), cache_size (accepted, no effect),
    verbose, max_iter; and nesvm's n_jobs and kernel_memory, as nesvm.SVR.

    Fitted as nesvm.SVR (support_, support_vectors_, dual_coef_, intercept_,
    coef_ for kernel='linear', n_support_, fit_status_, n_iter_, shape_fit_,
    n_features_in_, gap_), and epsilon_, the tube's half-width the training found
    (svm-train's printed epsilon)."""

    _sklearn_twin = "sklearn.svm.NuSVR"
    _problem = "nu-SVR"

    def __init__(self, *, nu=0.5, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, shrinking=True,
                 tol=1e-3, cache_size=200, verbose=False, max_iter=-1, n_jobs=None, kernel_memory=4096):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.kernel_memory = kernel_memory

    def _problem_params(self):
        return {"svm_type": "nu-svr", "svm_nu": _check_nu(self.nu)}

    def _more_attributes(self, model):
        return {"epsilon_": model.nu_value(0)}
