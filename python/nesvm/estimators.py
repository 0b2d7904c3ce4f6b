"""estimators.py - scikit-learn estimators over nesvm's solvers.

Conventions (scikit-learn's): __init__ stores its arguments untouched; fit
validates, trains and sets attributes ending in '_'; classes_ is sorted
(np.unique) whatever order the labels came in, and decision_function is
positive for classes_[1] in binary problems; sample_weight multiplies each
sample's C (weight 0 is the sample removed); class_weight multiplies the C
of a class ('balanced': n / (k * count)); n_jobs is the number of threads
(None: 1, -1: all cores).  Fitted models pickle through the model file's
text (no temporary file).

The C library labels classes by first appearance; here the labels given to
C are classes_ themselves when they are numbers a model file holds exactly
(so a saved model gives `nesvm predict` the data's own labels), else their
indices into classes_ (_label_codes), and every decision value is turned to
scikit-learn's orientation.

Threads: everything predict needs from a fit is one _Fitted object, read once
per call; fit builds the new one aside and installs it in one step, so a
predict in another thread during a refit uses the old model or the new, never
a mix (fitting one estimator from two threads at once is not supported).
"""
import math
import numbers
import sys
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils import check_random_state
from sklearn.utils._available_if import available_if
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import _ovr_decision_function, check_classification_targets
from sklearn.utils.validation import _check_sample_weight

from . import _core

_KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")


# These checks give low-rank linear kernels X X^T computed in float32 (and fitted
# again from lists: as float64), or rounded to integers: not positive
# semi-definite within double precision, which the convex problems refuse
_INDEFINITE = ("its kernel matrices (X X^T computed in float32, then given as float64, or rounded to integers) "
               "are not positive semi-definite: refused for want of a certificate (docs/solvers.md)")
_INDEFINITE_CHECKS = ("check_estimators_dtypes", "check_classifiers_train", "check_regressors_train")


def _precomputed_rows(K, n_train=None):
    """The C library's rows of a precomputed kernel (nesvm.h, nesvm_precomputed):
    column 0 each row's serial number, then its kernel values.  Fit (n_train
    None): K is the square n x n training matrix, serial numbers 1..n; predict:
    K is n_test x n_train, K[i, j] = K(x_i, x_j) against the training rows,
    serial numbers 0 (unused).  scikit-learn's messages for the wrong shapes."""
    if sp.issparse(K):
        raise TypeError("Sparse precomputed kernels are not supported.")
    n, m = K.shape
    if n_train is None and n != m:
        raise ValueError("Precomputed matrix must be a square matrix. Input is a %dx%d matrix." % (n, m))
    if n_train is not None and m != n_train:
        raise ValueError("X.shape[1] = %d should be equal to %d, the number of samples at training time"
                         % (m, n_train))
    col = np.arange(1, n + 1, dtype=K.dtype) if n_train is None else np.zeros(n, dtype=K.dtype)
    return np.ascontiguousarray(np.hstack([col[:, None], K]))


def _threads(n_jobs):
    if n_jobs is None:
        return 1
    if n_jobs == -1:
        return 0
    if not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise ValueError("n_jobs must be None, -1 or a positive integer, got %r" % (n_jobs,))
    return int(n_jobs)


def _seed(random_state):
    if random_state is None:
        return 1  # nesvm's default seed: fits are deterministic
    if isinstance(random_state, numbers.Integral):
        return int(random_state) & 0x7FFFFFFFFFFFFFFF
    return int(check_random_state(random_state).randint(0, 2**31 - 1))


class _Verbose:
    """Progress lines to stderr every `every` iterations (verbose=True: 100)."""

    def __init__(self, verbose):
        self.every = 100 if verbose is True else max(1, int(verbose))

    def __call__(self, p):
        if p["iteration"] % self.every == 0 or p["iteration"] == 1:
            print("[nesvm] sub-model %d/%d iteration %d primal %.6g gap %.3g" %
                  (p["submodel"] + 1, p["n_submodels"], p["iteration"], p["best_primal"], p["gap"]),
                  file=sys.stderr, flush=True)
        return False


class _KernelParams:
    """kernel, degree, gamma and coef0 as nesvm takes them, with scikit-learn's
    meaning (gamma='scale' and 'auto' computed as scikit-learn does); shared by the
    kernel classifiers and SVR.  _sklearn_twin names scikit-learn's estimator that
    has the kernels nesvm lacks (callables).  kernel='precomputed': X is the kernel
    matrix (fit: n x n; predict: n_test x n_train), as scikit-learn's."""

    _sklearn_twin = "sklearn.svm.SVC"

    def _gamma_value(self, X):
        """gamma as a number for X (X None: only checked)."""
        g = self.gamma
        if isinstance(g, str) and X is None and g in ("scale", "auto"):
            return None
        if isinstance(g, str):
            if g == "scale":
                if sp.issparse(X):
                    mean = np.asarray(X.mean())
                    var = X.multiply(X).mean() - mean**2
                else:
                    var = X.var()
                return 1.0 / (X.shape[1] * var) if var != 0 else 1.0
            if g == "auto":
                return 1.0 / X.shape[1]
            raise ValueError("gamma must be 'scale', 'auto' or a positive number, got %r" % (g,))
        if isinstance(g, bool) or not isinstance(g, numbers.Real) or not 0 < g < np.inf:
            raise ValueError("gamma must be 'scale', 'auto' or a positive number, got %r" % (g,))
        return float(g)

    def _kernel_params(self, X):
        k = self.kernel
        if callable(k):
            raise ValueError("a callable kernel (%r) is not supported by nesvm: compute its matrix and use "
                             "kernel='precomputed', or scikit-learn's %s, which takes it" % (k, self._sklearn_twin))
        if k not in _KERNELS:
            raise ValueError("kernel must be one of %s, got %r" % (", ".join(_KERNELS), k))
        # every parameter checked, whether the kernel uses it or not (as scikit-learn)
        g = self._gamma_value(X if k not in ("linear", "precomputed") else None)
        d, c0 = self.degree, self.coef0
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or not 0 <= d <= 1000:
            raise ValueError("degree must be an integer in [0, 1000], got %r" % (d,))
        if isinstance(c0, bool) or not isinstance(c0, numbers.Real) or not np.isfinite(c0):
            raise ValueError("coef0 must be a finite number, got %r" % (c0,))
        out = {"kernel": k}
        if k not in ("linear", "precomputed"):
            out["gamma"] = g
        if k == "poly":
            out["degree"] = int(d)
        if k in ("poly", "sigmoid"):
            out["coef0"] = float(c0)
        return out


class _FittedState:
    """The fitted state that predict reads as one object, self._fitted (its
    .model the nesvm Model), installed in one step; pickling through the model
    file's text.  Per estimator: _fit(X, y, sample_weight) -> (fitted, {fitted
    attribute: value}) leaving self untouched, and _restore(model) -> the
    fitted object of an unpickled model."""

    def fit(self, X, y, sample_weight=None):
        """Train on X (array or sparse matrix, n_samples x n_features) and y (labels
        for a classifier, real targets for a regressor).

        The fitted state of a previous fit stays in place (and in use by predict
        in other threads) until the new one is complete; it is then replaced in
        one step.  A fit that fails or is interrupted leaves the estimator
        unfitted."""
        try:
            fitted, attrs = self._fit(X, y, sample_weight)
        except BaseException:
            self._unfit()
            raise
        self._install(fitted, attrs)
        return self

    def _install(self, fitted, attrs):
        """Replace the fitted state by a new one: one dict update (one step under
        the GIL, so a predict in another thread reads the old _fitted or the new),
        then the old fit's attributes the new one has not (coef_ after a linear
        fit replaced by a kernel fit, feature_names_in_) are removed."""
        attrs = dict(attrs, _fitted=fitted)
        stale = [a for a in vars(self) if _fitted_attribute(a) and a not in attrs]
        self.__dict__.update(attrs)
        for a in stale:
            self.__dict__.pop(a, None)

    def _unfit(self):
        for a in [a for a in vars(self) if _fitted_attribute(a)]:
            self.__dict__.pop(a, None)

    def _state(self):
        st = self.__dict__.get("_fitted")
        if st is None:
            raise NotFittedError("This %s instance is not fitted yet. Call 'fit' with appropriate arguments "
                                 "before using this estimator." % type(self).__name__)
        return st

    def __getstate__(self):
        state = dict(self.__dict__)
        st = state.pop("_fitted", None)
        if st is not None:
            state["_model_text"] = st.model.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        text = state.pop("_model_text", None)
        for old in ("_model_labels", "_orient"):  # pickled by earlier versions; derived again below
            state.pop(old, None)
        self.__dict__.update(state)
        if text is not None:
            self._fitted = self._restore(_core.Model.from_bytes(text))


class _NesvmClassifier(_KernelParams, _FittedState, ClassifierMixin, BaseEstimator):
    """Shared fit/predict of the nesvm estimators (not for direct use)."""

    _solver = "nesvm"
    _multiclass_default = "ovo"
    # probabilities that are the model's own (logistic regression: the sigmoid of
    # each decision value, no Platt fit): decision_function keeps the decision
    # values and predict takes the C library's labels from them, as without
    # probabilities (scikit-learn's LogisticRegression); False: Platt's
    # probabilities steer both (see _decision and predict)
    _native_probability = False

    # --- per estimator
    def _nesvm_params(self, X):
        """{nesvm parameter: value} for this fit."""
        raise NotImplementedError

    def _warm_init(self, classes, n_features):
        """The Model a fit starts from (nesvm_train_warm), None for a cold start."""
        return None

    def _has_kernel(self):
        return getattr(self, "kernel", "linear") != "linear"

    def _precomputed(self):
        return getattr(self, "kernel", None) == "precomputed"

    # --- shared pieces

    def _common_params(self):
        out = {"solver": self._solver, "threads": _threads(self.n_jobs), "seed": _seed(self.random_state)}
        mi = getattr(self, "max_iter", None)
        if mi is not None and mi != -1:
            if not isinstance(mi, numbers.Integral) or mi < 1:
                raise ValueError("max_iter must be -1, None or a positive integer, got %r" % (mi,))
            out["max_iter"] = int(mi)
        tol = getattr(self, "tol", None)
        if tol is not None:
            out["eps"] = float(tol)
        if getattr(self, "probability", False):
            out["probability"] = 1
        return out

    def _class_weights(self, y_idx, classes, codes):
        """{label given to C: weight} for class_weight."""
        cw = getattr(self, "class_weight", None)
        if cw is None:
            return None
        if isinstance(cw, str) and cw == "balanced":
            w = compute_class_weight("balanced", classes=np.arange(classes.size), y=y_idx)
            return {float(codes[i]): float(w[i]) for i in range(classes.size)}
        if isinstance(cw, dict):
            out = {}
            for label, weight in cw.items():
                hit = np.flatnonzero(classes == label)
                if hit.size == 0:
                    raise ValueError("class_weight names the label %r, which is not in y" % (label,))
                out[float(codes[hit[0]])] = float(weight)
            return out
        raise ValueError("class_weight must be None, 'balanced' or a dict, got %r" % (cw,))

    def _fit(self, X, y, sample_weight):
        """(_Fitted, {fitted attribute: value}) of a fit, leaving self untouched."""
        _core._check_sparse(X)  # before scipy walks a corrupt matrix's arrays
        # _validate_data sets n_features_in_ and feature_names_in_ on its estimator:
        # an empty instance of this class takes them, so that self keeps its fitted
        # state until the new one is ready
        probe = self.__class__.__new__(self.__class__)
        X, y = probe._validate_data(X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C")
        attrs = dict(vars(probe))
        check_classification_targets(y)
        classes, y_idx = np.unique(y, return_inverse=True)
        if classes.size < 2:
            raise ValueError("The number of classes has to be greater than one; got %d class" % classes.size)
        codes = _label_codes(classes)
        sw = None
        if sample_weight is not None:
            sw = _check_sample_weight(sample_weight, X, dtype=np.float64)
            if (sw < 0).any():
                raise ValueError("sample_weight must be non-negative")
            if np.unique(y_idx[sw > 0]).size < 2:
                raise ValueError("Invalid input - all samples with positive weights belong to one class "
                                 "(a classifier needs at least two)")
        params = self._common_params()
        params.update(self._nesvm_params(X))
        cw = self._class_weights(y_idx, classes, codes)
        verbose = getattr(self, "verbose", False)
        progress = _Verbose(verbose) if verbose else None
        rows = _precomputed_rows(X) if self._precomputed() else X
        init = self._warm_init(classes, X.shape[1])
        model, stats = _core.train(rows, codes[y_idx], params, sample_weight=sw, class_weight=cw, progress=progress,
                                   init=init)
        fitted = _Fitted(model, classes, X.shape[1], codes)
        attrs.update(self._fitted_attributes(fitted, X, y_idx))
        return fitted, attrs

    @staticmethod
    def _fitted_attributes(fitted, X, y_idx):
        """scikit-learn's fitted attributes of a model (_Fitted)."""
        model, classes = fitted.model, fitted.classes
        out = {"classes_": classes}
        ns = model.n_submodels
        # one-vs-rest: the rows of coef_, intercept_, dual_coef_ and n_iter_ in
        # classes_ order, as decision_function's columns (the C library orders its
        # sub-models by the labels' first appearance); one-vs-one keeps the
        # sub-models' order
        order = list(range(ns))
        if ns > 1 and all(cj < 0 for _, cj in fitted.orient):
            order.sort(key=lambda s: fitted.orient[s][0])
        subs = [model.submodel(k) for k in order]
        trains = [model.training(k) for k in order]
        out["n_iter_"] = np.array([max(1, t[1]) for t in trains], dtype=np.int32)
        gaps = np.array([t[3] for t in trains], dtype=np.float64)
        out["gap_"] = float(np.nanmax(gaps)) if np.isfinite(gaps).any() else float("nan")
        # a sub-model short of its certificate: fit_status_ 1 and a ConvergenceWarning,
        # as scikit-learn's liblinear/libsvm wrappers warn at their iteration limit
        missed = [i for i, k in enumerate(order) if model.certified(k) == 0]
        out["fit_status_"] = 1 if missed else 0
        if fitted.joint:  # one training: its iterations once
            out["n_iter_"] = out["n_iter_"][:1]
        if missed and fitted.joint:
            warnings.warn("nesvm: the joint problem (%s) stopped before its certificate (exit %s, relative gap "
                          "%.3g, tol %g); the model may be far from the optimum: raise max_iter or see nesvm's "
                          "docs/solvers.md" % (model.problem, trains[0][0], trains[0][3], float(model.param("eps"))),
                          ConvergenceWarning)
        elif missed:
            k = max(missed, key=lambda k: trains[k][3] if np.isfinite(trains[k][3]) else np.inf)
            warnings.warn("nesvm: %d of %d binary models stopped before their certificate (the worst: exit %s, "
                          "relative gap %.3g, tol %g); the model may be far from the optimum: raise max_iter or "
                          "see nesvm's docs/solvers.md" % (len(missed), ns, trains[k][0], trains[k][3],
                                                           float(model.param("eps"))),
                          ConvergenceWarning)
        # coefficients and intercepts, one row per sub-model in scikit-learn's
        # orientation (binary: one row, positive for classes_[1])
        signs = fitted.signs[order]
        coef = np.vstack([s * w for (w, b, pos, neg), s in zip(subs, signs)])
        out["intercept_"] = np.array([s * b for (w, b, pos, neg), s in zip(subs, signs)])
        if fitted.joint and len(classes) == 2:  # rows in classes_ order: one row, positive for classes_[1]
            coef = fitted.joint_scale * (coef[1:2] - coef[0:1])
            out["intercept_"] = fitted.joint_scale * (out["intercept_"][1:2] - out["intercept_"][0:1])
        basis = model.basis()
        if basis is None:
            out["coef_"] = coef  # linear models: the weight vectors
        else:
            # kernel models: the basis (support vectors for the full kernel and GS-SVM,
            # the reduced basis for ssvm/nssvm), its training rows, and each
            # sub-model's expansion coefficients over it (dual_coef_[k] @ K(basis, x) +
            # intercept_[k] is sub-model k's decision value)
            rows = model.basis_rows()
            out["support_"] = rows.astype(np.int32)
            # a precomputed kernel has no vectors, as scikit-learn's (their rows: support_)
            out["support_vectors_"] = np.empty((0, 0)) if model.kernel == "precomputed" \
                else basis if sp.issparse(X) else basis.toarray()
            out["dual_coef_"] = coef
            out["n_support_"] = np.bincount(y_idx[rows], minlength=len(classes)).astype(np.int32)
        return out

    # --- the fitted state predict reads: one _Fitted, read once per call (_FittedState)
    @property
    def _model(self):
        return self._state().model

    @property
    def _orient(self):
        return self._state().orient

    def _sign(self, ci, cj):
        """+1 if the C sub-model's positive side is scikit-learn's positive side."""
        return _sign(len(self._state().classes), ci, cj)

    def _check_X(self, st, X):
        _core._check_sparse(X)  # before scipy walks a corrupt matrix's arrays
        X = self._validate_data(X, accept_sparse="csr", dtype=[np.float64, np.float32], order="C", reset=False)
        if X.shape[1] != st.n_features:  # refitted on other data while this call ran
            raise ValueError("X has %d features, but the model in use was fitted on %d"
                             % (X.shape[1], st.n_features))
        if st.model.kernel == "precomputed":  # the rows the C library predicts
            return _precomputed_rows(X, st.n_features)
        return X

    def decision_function(self, X):
        """Binary: one value per sample, positive for classes_[1]; multiclass: one
        column per class (one-vs-one votes turned into scores as SVC's
        decision_function_shape='ovr'), or one per pair ('ovo', SVC's order).
        With probability=True the scores follow the probabilities, so that predict
        (their argmax) agrees with them: binary, the log-odds of classes_[1] from
        Platt's sigmoid; multiclass ('ovr' shape), predict_proba itself."""
        st = self._state()
        return self._decision(st, self._check_X(st, X))

    def _decision(self, st, X):
        _, dec = st.model.predict(X, threads=_threads(self.n_jobs))
        k = len(st.classes)
        if st.probability and not self._native_probability and (k == 2 or self.decision_function_shape != "ovo"):
            # probability mode: scores consistent with predict_proba (and so with predict):
            # binary, the log-odds of classes_[1], -(A f + B) of the calibrated sub-model;
            # multiclass, the probabilities
            if k == 2:
                A, B = st.model.sigmoid(0)
                return st.signs[0] * -(A * dec[:, 0] + B)
            return self._proba(st, X)
        dec = dec * st.signs
        if k == 2 and st.joint:  # classes_[1]'s value less classes_[0]'s (scaled as coef_)
            col = {ci: s for s, (ci, _) in enumerate(st.orient)}
            return st.joint_scale * (dec[:, col[1]] - dec[:, col[0]])
        if k == 2:
            return dec[:, 0]
        if st.orient[0][1] < 0:  # one-vs-rest: column of class c
            out = np.empty((dec.shape[0], k))
            for s, (ci, _) in enumerate(st.orient):
                out[:, ci] = dec[:, s]
            return out
        # one-vs-one in scikit-learn's pair order (0,1), (0,2), ..., (k-2,k-1)
        order = {}
        for s, (ci, cj) in enumerate(st.orient):
            order[(min(ci, cj), max(ci, cj))] = s
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
        ovo = np.column_stack([dec[:, order[p]] for p in pairs])
        if getattr(self, "decision_function_shape", "ovr") == "ovo":
            return ovo
        return _ovr_decision_function(ovo < 0, -ovo, k)

    def _check_proba(self):
        if not getattr(self, "probability", False):
            raise AttributeError("predict_proba is not available when probability=False")
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """Probabilities of classes_ (columns in classes_ order): Platt's sigmoid fitted
        by internal 5-fold cross-validation, pairwise coupling for one-vs-one, as
        LIBSVM's -b 1 (docs/python.md)."""
        st = self._state()
        return self._proba(st, self._check_X(st, X))

    def _proba(self, st, X):
        if not st.probability:
            raise NotFittedError("predict_proba is not available: the model was fitted with probability=False")
        _, proba = st.model.predict_proba(X, threads=_threads(self.n_jobs))
        out = np.empty_like(proba)
        out[:, st.model_labels] = proba  # model label order -> classes_ order
        return out

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))

    def predict(self, X):
        """Class labels: the C library's (votes for one-vs-one), as `nesvm predict`
        gives; with break_ties=True the argmax of decision_function; with
        probability=True the argmax of predict_proba (as `nesvm predict -b 1`)."""
        st = self._state()
        X = self._check_X(st, X)
        if st.probability and not self._native_probability:
            return st.classes[np.argmax(self._proba(st, X), axis=1)]
        if getattr(self, "break_ties", False) and len(st.classes) > 2:
            return st.classes[np.argmax(self._decision(st, X), axis=1)]
        labels, _ = st.model.predict(X, threads=_threads(self.n_jobs))
        return st.classes[st.class_index(labels)]

    # pickling (_FittedState): the model through its file's text
    def _restore(self, model):
        return _Fitted(model, self.classes_, getattr(self, "n_features_in_", model.n_features))

    def save_model(self, path):
        """The fitted model as a nesvm model file (`nesvm predict` reads it).  Its
        labels are classes_ themselves when they are numbers a model file holds
        exactly (integers up to 2**53 in magnitude, as ints or floats); otherwise
        (strings, larger integers, ...) they are the indices 0..k-1 into classes_,
        with a warning saying so (docs/python.md)."""
        st = self._state()
        if not st.labels_are_classes:
            warnings.warn("the model file %s stores the classes as their indices 0..%d into classes_ = %r "
                          "(a model file holds numbers only); `nesvm predict` prints those indices"
                          % (path, len(st.classes) - 1, list(st.classes)), UserWarning, stacklevel=2)
        st.model.save(path)

    def _more_tags(self):
        # scikit-learn's own SVC and LinearSVC skip this check with the same name.
        # Here weight 0 removes a row exactly (unit_binding: byte-identical models
        # for rows in the same order), but the check also shuffles the rows, and
        # solutions stopped at a duality gap of tol from rows in another order agree
        # to that tolerance, not to the check's 1e-7 (gamma='scale' also counts the
        # weight-0 rows, as scikit-learn's SVC does).
        xfail = {"check_sample_weights_invariance": "zero sample_weight is not equivalent to removing samples"}
        if self._precomputed() and self._refuses_indefinite():
            xfail.update(dict.fromkeys(_INDEFINITE_CHECKS, _INDEFINITE))
        return {"binary_only": False, "requires_y": True, "_xfail_checks": xfail, "pairwise": self._precomputed()}

    def _refuses_indefinite(self):
        """Does a fit refuse a kernel matrix that is not positive semi-definite (its
        problem not convex, no certificate: docs/solvers.md)?  The C-SVM takes one
        (LIBSVM's dual, a stationary point), GS-SVM any."""
        return False


def _fitted_attribute(name):
    """What a fit sets: scikit-learn's attributes ending in '_' and _fitted."""
    return name == "_fitted" or (name.endswith("_") and not name.startswith("__"))


def _sign(k, ci, cj):
    """+1 if the C sub-model separating classes_ indices ci (positive) and cj
    (-1: the rest) is positive on scikit-learn's positive side, else -1."""
    if k == 2:
        return 1.0 if ci == 1 else -1.0
    if cj < 0:
        return 1.0  # one-vs-rest: class ci positive
    return 1.0 if ci < cj else -1.0


def _exact_number(v):
    """float(v) when that is v exactly (a finite real number, not a bool), else None."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(f):
        return None
    if isinstance(v, numbers.Integral):
        return f if int(f) == int(v) else None
    return f if f == v else None


def _label_codes(classes):
    """The number given to the C library (and written in model files) for each
    of classes (sorted, as classes_): the label itself when every label is a
    number a double holds exactly (integers up to 2**53 in magnitude, finite
    floats), so that `nesvm predict` on the original data prints the same
    labels; otherwise (strings, bools, larger integers) the indices 0..k-1.
    Both are ascending, as classes_ is."""
    k = classes.size
    codes = None
    if classes.dtype.kind in "iuf":
        with np.errstate(invalid="ignore", over="ignore"):
            c = classes.astype(np.float64)
            back = c.astype(classes.dtype)
        if np.isfinite(c).all() and np.array_equal(back, classes):
            codes = c
    elif classes.dtype.kind == "O":
        c = [_exact_number(v) for v in classes]
        if all(v is not None for v in c):
            codes = np.array(c, dtype=np.float64)
    if codes is None or (k > 1 and not np.all(np.diff(codes) > 0)):
        codes = np.arange(k, dtype=np.float64)
    return codes


def _same_numbers(classes, codes):
    """Whether each class is, as a number, its code (the model file shows the classes)."""
    if classes.dtype.kind in "iufb":
        with np.errstate(invalid="ignore", over="ignore"):
            return bool(np.array_equal(classes.astype(np.float64), codes))
    return all(_exact_number(v) == c for v, c in zip(classes, codes))


class _Fitted:
    """Everything predict needs from one fit: the model, classes_, the number
    given to C for each class (codes) and each sub-model's orientation.  A fit
    builds a new one and replaces the old in one step, never changing one in
    place, and predict reads it once per call: a predict running while another
    thread refits uses one model from start to end, the old or the new."""

    __slots__ = ("model", "classes", "codes", "n_features", "model_labels", "orient", "signs", "probability",
                 "labels_are_classes", "joint", "joint_scale")

    def __init__(self, model, classes, n_features, codes=None):
        labels = model.labels
        k = classes.size
        if codes is None:
            # an unpickled model: classes_ themselves, or (models of earlier
            # versions, labels a model file cannot hold) their indices
            codes = _label_codes(classes)
            if not np.array_equal(np.sort(labels), codes):
                codes = np.arange(k, dtype=np.float64)
        pos = np.searchsorted(codes, labels)
        if labels.size != k or not np.array_equal(codes[np.minimum(pos, k - 1)], labels):
            raise ValueError("the model's labels %s are not classes_ %s (nor their indices)"
                             % (list(labels), list(classes)))
        self.model, self.classes, self.codes = model, classes, codes
        self.n_features = int(n_features)
        self.model_labels = pos.astype(np.int64)  # model label order -> classes_ index
        # sub-models in scikit-learn's orientation: pair (i < j) of classes_ indices,
        # positive for class i in one-vs-one; class c against the rest in one-vs-rest
        self.orient = []
        for s in range(model.n_submodels):
            _, _, p, n = model.submodel(s)
            self.orient.append((int(self.model_labels[p]), int(self.model_labels[n]) if n >= 0 else -1))
        # a joint multiclass problem (multiclass cs or multinomial): a sub-model per
        # class, two classes too, each positive for its class; two classes are one
        # decision value in scikit-learn, w_1 - w_0 (LinearSVC's crammer_singer) or
        # half of it (LogisticRegression's multinomial: its coef_ is w_1 of the
        # centred pair)
        self.joint = model.multiclass in ("cs", "multinomial")
        self.joint_scale = 0.5 if model.multiclass == "multinomial" else 1.0
        self.signs = np.array([1.0 if self.joint else _sign(k, ci, cj) for ci, cj in self.orient])
        self.probability = model.has_probability
        self.labels_are_classes = _same_numbers(classes, codes)

    def class_index(self, labels):
        """classes_ index of each label the C library predicted."""
        return np.searchsorted(self.codes, labels)


class SVC(_NesvmClassifier):
    """NESVM (Nesterov/Newton on the smoothed primal) for C-SVM, LP-SVM and LS-SVM,
    linear or with a kernel; LIBSVM's C-SVC problem at svm_type='c'.

    Parameters as scikit-learn's SVC where they mean the same (C, kernel, degree,
    gamma, coef0, tol = nesvm's certified relative duality gap, class_weight,
    max_iter, decision_function_shape, break_ties, random_state, verbose), plus
    n_jobs (threads), svm_type ('c', 'lp', 'ls'), method ('auto', 'newton', 'nesterov', 'dcd', 'cd'),
    continuation ('adaptive', 'paper'), basis (None: the full kernel, on a working
    set for C-SVM; an int: a reduced kernel of that many random rows),
    kernel_memory (MB) and multiclass ('ovo', 'ovr').
    """

    _solver = "nesvm"

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, probability=False,
                 class_weight=None, max_iter=-1, decision_function_shape="ovr", break_ties=False, random_state=None,
                 n_jobs=None, verbose=False, svm_type="c", method="auto", continuation="adaptive", basis=None,
                 kernel_memory=4096, multiclass="ovo"):
        self.C = C
        self.probability = probability
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.svm_type = svm_type
        self.method = method
        self.continuation = continuation
        self.basis = basis
        self.kernel_memory = kernel_memory
        self.multiclass = multiclass

    def _refuses_indefinite(self):
        return self.svm_type != "c"

    def _nesvm_params(self, X):
        p = {"c": float(self.C), "svm_type": self.svm_type, "method": self.method,
             "continuation": self.continuation, "kernel_memory": float(self.kernel_memory),
             "multiclass": self.multiclass}
        p.update(self._kernel_params(X))
        if self.kernel != "linear":
            p["basis"] = 0 if self.basis is None else int(self.basis)
        return p


class LinearSVC(_NesvmClassifier):
    """A linear SVM on scikit-learn's LinearSVC problem, by nesvm's fastest solver
    for its loss: 'squared_hinge' (default) by SSVM's Newton method (LIBLINEAR
    -s 2's problem), 'hinge' by Hyperpass (LIBLINEAR -s 3's); the intercept is a
    regularized feature of value intercept_scaling, as scikit-learn's.
    One-vs-rest for more than two classes, as scikit-learn's LinearSVC;
    multi_class='crammer_singer' is Crammer and Singer's joint problem (LIBLINEAR
    -s 4, loss ignored as scikit-learn's) by NESVM (nesvm's multiclass cs), its
    intercept the same regularized feature; with two classes coef_ is w_1 - w_0,
    as scikit-learn's.

    penalty='l1' (with loss='squared_hinge' and dual=False, as scikit-learn
    demands) is ||w||_1 + C sum max(0, 1 - y f)^2, LIBLINEAR -s 5's problem, by
    NESVM with exact zeros in coef_; its intercept is scikit-learn's too, the
    intercept_scaling feature penalized with ||.||_1 (nesvm's bias_mode
    regularized).  dual: no effect besides that check (nesvm's solvers certify a
    gap whatever the shape)."""

    def __init__(self, C=1.0, loss="squared_hinge", tol=1e-4, fit_intercept=True, intercept_scaling=1.0,
                 class_weight=None, max_iter=1000, random_state=None, n_jobs=None, verbose=0,
                 multiclass="ovr", multi_class="ovr", penalty="l2", dual=True):
        self.penalty = penalty
        self.dual = dual
        self.C = C
        self.loss = loss
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.multiclass = multiclass
        self.multi_class = multi_class

    def _crammer_singer(self):
        mc = self.multi_class
        if not (isinstance(mc, str) and mc in ("ovr", "crammer_singer")):
            raise ValueError("multi_class must be 'ovr' or 'crammer_singer', got %r" % (mc,))
        return mc == "crammer_singer"

    def _l1(self):
        """penalty='l1'? (scikit-learn's checks of the combination)"""
        if not (isinstance(self.penalty, str) and self.penalty in ("l1", "l2")):
            raise ValueError("penalty must be 'l1' or 'l2', got %r" % (self.penalty,))
        if not isinstance(self.dual, (bool, np.bool_)):
            raise ValueError("dual must be a bool, got %r" % (self.dual,))
        if self.penalty != "l1":
            return False
        if self.loss != "squared_hinge":
            raise ValueError("Unsupported set of arguments: the combination of penalty='l1' and loss=%r is not "
                             "supported (scikit-learn's rule; nesvm's L1 model is the squared hinge's, LIBLINEAR "
                             "-s 5)" % (self.loss,))
        if self.dual:
            raise ValueError("Unsupported set of arguments: penalty='l1' and loss='squared_hinge' are not supported "
                             "when dual=True (scikit-learn's rule): set dual=False")
        return True

    @property
    def _solver(self):
        if self.loss not in ("squared_hinge", "hinge"):
            raise ValueError("loss must be 'squared_hinge' or 'hinge', got %r" % (self.loss,))
        if self._crammer_singer():
            return "nesvm"  # one joint problem: NESVM's (loss ignored, as scikit-learn's)
        if self._l1():
            return "nesvm"
        return "nssvm" if self.loss == "squared_hinge" else "hyperpass"

    def _nesvm_params(self, X):
        bias = float(self.intercept_scaling) if self.fit_intercept else -1.0
        if self._crammer_singer():
            # Crammer and Singer's problem with LIBLINEAR's -s 4 -B intercept_scaling:
            # the intercept a constant feature regularized with W, scikit-learn's C
            return {"c": float(self.C), "bias": bias, "multiclass": "cs"}
        if self._l1():
            # NESVM's ||w||_1 + C sum max(0, r)^2 with LIBLINEAR's intercept:
            # the feature intercept_scaling, its weight in the L1 norm
            return {"c": float(self.C), "penalty": "l1", "loss": "squared_hinge", "bias": bias,
                    "bias_mode": "regularized", "multiclass": self.multiclass}
        # nssvm's C weighs 1/2 sum of squared hinges: twice scikit-learn's C
        c = float(self.C) * (2.0 if self.loss == "squared_hinge" else 1.0)
        return {"c": c, "bias": bias, "multiclass": self.multiclass}


class HyperpassSVC(_NesvmClassifier):
    """Hyperpass: the linear C-SVM 1/2||w||^2 + C sum hinge with a regularized
    intercept feature (LIBLINEAR -s 3's problem), by cutting planes with exact line
    searches, shrinking and a certified gap; pegasos_passes > 0 warm-starts it
    with that many Pegasos passes."""

    _solver = "hyperpass"

    def __init__(self, C=1.0, tol=1e-3, fit_intercept=True, intercept_scaling=1.0, shrinking=True,
                 pegasos_passes=0, class_weight=None, max_iter=-1, random_state=None, n_jobs=None, verbose=False,
                 multiclass="ovr"):
        self.C = C
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.shrinking = shrinking
        self.pegasos_passes = pegasos_passes
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.multiclass = multiclass

    def _nesvm_params(self, X):
        p = {"c": float(self.C), "bias": float(self.intercept_scaling) if self.fit_intercept else -1.0,
             "shrinking": 1 if self.shrinking else 0, "multiclass": self.multiclass}
        if self.pegasos_passes:
            p["warm_start"] = "pegasos:%d" % int(self.pegasos_passes)
        return p


class NewtonSVC(_NesvmClassifier):
    """SSVM/NSSVM: smoothing Newton methods for 1/2||[w; b]||^2 + C sum squared hinge
    (C as scikit-learn's LinearSVC(loss='squared_hinge')), linear or with a kernel:
    basis='auto' (the reduced kernel, grown until it spans the data; see
    docs/solvers.md), an int (that many basis rows) or 0 (the full kernel);
    kernel_norm 'rkhs' (default) or 'coef' (the paper's RSVM)."""

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, solver="nssvm",
                 basis="auto", basis_select="random", kernel_norm="rkhs", scheme="optimal", smooth_p=1e8,
                 probability=False, class_weight=None, max_iter=-1, decision_function_shape="ovr",
                 break_ties=False, random_state=None, n_jobs=None, verbose=False, kernel_memory=4096,
                 multiclass="ovo"):
        self.C = C
        self.probability = probability
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.solver = solver
        self.basis = basis
        self.basis_select = basis_select
        self.kernel_norm = kernel_norm
        self.scheme = scheme
        self.smooth_p = smooth_p
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.kernel_memory = kernel_memory
        self.multiclass = multiclass

    @property
    def _solver(self):
        # the registry's solvers of this problem (ssvm, nssvm): the squared hinge, kernel features
        infos = [_core.solver_info(s) for s in _core.solver_names()]
        newton = [i["name"] for i in infos if "squared_hinge" in i["losses"] and i["kernels"] == "features"]
        if self.solver not in newton:
            raise ValueError("solver must be %s, got %r" % (" or ".join("'%s'" % s for s in newton), self.solver))
        return self.solver

    def _refuses_indefinite(self):
        return self.kernel_norm != "coef"

    def _nesvm_params(self, X):
        p = {"c": 2.0 * float(self.C), "scheme": self.scheme, "smooth_p": float(self.smooth_p),
             "kernel_memory": float(self.kernel_memory), "multiclass": self.multiclass}
        p.update(self._kernel_params(X))
        if self.kernel != "linear":
            p.update({"basis": self.basis, "basis_select": self.basis_select, "kernel_norm": self.kernel_norm})
        return p


class GreedySVC(_NesvmClassifier):
    """GS-SVM: greedy stagewise training of a kernel SVM without C, early stopping
    as the regularizer (stops when no sample violates the margin, or after max_iter
    basis functions per sub-model); cap (None: the hard margin) bounds each
    alpha_i by cap x sample_weight_i; fit_intercept adds a regularized bias B^2.
    It has no class_weight (its hard-margin dual has no C to weigh; weigh the cap
    through sample_weight)."""

    _solver = "gs"

    def __init__(self, kernel="rbf", degree=3, gamma="scale", coef0=0.0, cap=None, max_iter=None,
                 fit_intercept=False, intercept_scaling=1.0, cache_size=100, probability=False,
                 decision_function_shape="ovr", break_ties=False, random_state=None, n_jobs=None, verbose=False,
                 multiclass="ovo"):
        self.kernel = kernel
        self.probability = probability
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.cap = cap
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.cache_size = cache_size
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.multiclass = multiclass

    def _nesvm_params(self, X):
        p = {"cap": 0.0 if self.cap is None else float(self.cap), "cache_size": float(self.cache_size),
             "bias": float(self.intercept_scaling) if self.fit_intercept else -1.0, "multiclass": self.multiclass}
        p.update(self._kernel_params(X))
        return p
