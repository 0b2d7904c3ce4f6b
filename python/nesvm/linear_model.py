"""linear_model.py - scikit-learn's LogisticRegression over nesvm's logistic
regression (`nesvm train --svm-type logistic`, LIBLINEAR's -s 0 problem).

Each binary problem (the two classes of a binary y, or one class against the
rest), with y_i = +-1 and C_i = C x sample_weight_i x class_weight[y_i]:

    min_{w, b}  1/2 ||w||^2 + sum_i C_i log(1 + exp(-y_i (w.x_i + b)))

the intercept b free (unregularized), as scikit-learn's lbfgs, newton-cg,
newton-cholesky, sag and saga solvers have it (fit_intercept=False: b = 0).
The C library solves it by NESVM's Newton method (penalty='l1': its
coordinate method, proximal Newton over the features) to a certified relative
duality gap (tol), and its model carries the probabilities: the sigmoid of the
decision value, normalized over the classes for one-vs-rest (scikit-learn's
and `liblinear-predict -b 1`'s numbers).  This module maps scikit-learn's
parameters to nesvm's and refuses the ones the C library has no problem for
yet (the elastic-net penalty, no penalty at all).  multi_class='multinomial' is
the softmax problem (`--multiclass multinomial`).
Conventions as in estimators.py.
"""
import numbers
import warnings

import numpy as np

from .estimators import _NesvmClassifier

# scikit-learn's solver names: accepted, with no effect (nesvm's Newton method
# solves the problem whatever the name)
_SKLEARN_SOLVERS = ("lbfgs", "liblinear", "newton-cg", "newton-cholesky", "sag", "saga")


def _bool(name, v):
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError("%s must be True or False, got %r" % (name, v))
    return bool(v)


def _positive(name, v):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or not 0 < v < np.inf:
        raise ValueError("%s must be a positive finite number, got %r" % (name, v))
    return float(v)


class LogisticRegression(_NesvmClassifier):
    """L2-regularized logistic regression on scikit-learn's LogisticRegression
    problem, solved by nesvm's Newton method to a certified relative duality gap.

    Each binary problem (binary y, or one class against the rest) is

        min_{w, b} 1/2 ||w||^2 + C sum_i c_i log(1 + exp(-y_i (w.x_i + b)))

    with c_i the sample weight times the class weight and an unregularized
    intercept b, the problem of scikit-learn's lbfgs/newton-cg/newton-cholesky
    solvers (LIBLINEAR's -s 0 with a free bias), so that coef_, intercept_ and
    predict_proba are scikit-learn's to the solvers' accuracy.  The model's
    probabilities are its own: the sigmoid of the decision value (binary), each
    class's sigmoid normalized to sum 1 (one-vs-rest, as scikit-learn's
    multi_class='ovr' and liblinear-predict -b 1).  The parameters are
    scikit-learn 1.2's, with its defaults.

    Parameters
    ----------
    penalty : {'l2', 'l1', 'elasticnet', None, 'none'}, default='l2'
        The regularizer: 'l2' (1/2 ||w||^2) or 'l1' (||w||_1: sparse weights,
        exact zeros; LIBLINEAR's -s 6 problem, with nesvm's unpenalized intercept,
        as scikit-learn's saga has it -- its liblinear solver penalizes the
        intercept; solver='liblinear' gives that).  'elasticnet' raises ValueError: nesvm has no elastic-net
        problem yet.  None and
        'none' (no regularization) raise ValueError: that is C = inf, which nesvm
        does not take (C is at most 1e100); use a large finite C.

    dual : bool, default=False
        No effect: nesvm's Newton method works on the primal and certifies its
        gap with a dual point whatever the shape of X (scikit-learn uses it for
        liblinear only).

    tol : float, default=1e-4
        nesvm's stopping rule: the certified relative duality gap
        (P(w) - D) / |P(w)| <= tol, in [1e-15, 1), with D the value of a dual
        feasible point, so that the objective is within tol (relative) of the
        optimum.  This is not scikit-learn's tolerance (a gradient or step size
        of the solver's own), and the same number stops at a different point.
        The weights are then within sqrt(2 tol P) of the optimum's (P the
        objective, 1-strongly convex in w): tol=1e-8 gives the objective to
        1e-8 and the weights within 1.5e-4 sqrt(P).

    C : float, default=1.0
        Inverse of the regularization strength: the weight of the summed
        logistic losses, a positive finite number in [1e-100, 1e100].

    fit_intercept : bool, default=True
        True: a free, unregularized intercept b (nesvm's bias 1, the problem of
        scikit-learn's lbfgs, newton-cg, newton-cholesky, sag and saga solvers).
        False: no intercept (b = 0, nesvm's bias 0).

    intercept_scaling : float, default=1
        With solver='liblinear' (and fit_intercept): the value of the constant
        feature whose weight is the intercept over intercept_scaling, regularized
        with coef_, as scikit-learn's liblinear (nesvm's -B intercept_scaling
        --bias-mode regularized).  No effect with the other solvers, whose
        intercept is free.  Must be positive.

    class_weight : dict or 'balanced', default=None
        Multiplies the C of each class's samples: {class label: weight}, or
        'balanced', n_samples / (n_classes * count of the class).  With more than
        two classes, 'balanced' weighs each class so in every one-vs-rest
        problem (as LIBLINEAR and scikit-learn's LinearSVC); scikit-learn's
        LogisticRegression(multi_class='ovr') instead balances each one-vs-rest
        problem's two sides.  A dict means the same in both.

    random_state : int, RandomState instance or None, default=None
        nesvm's seed.  With penalty='l2' nothing draws from it (the Newton
        method is deterministic); with penalty='l1' it orders the coordinate
        method's features (an int or None: the same model every fit; the
        models of different seeds agree within tol).

    solver : {'nesvm', 'lbfgs', 'liblinear', 'newton-cg', 'newton-cholesky', \
'sag', 'saga'}, default='nesvm'
        'nesvm': nesvm's Newton method.  scikit-learn's solver names are accepted
        and choose the problem as in scikit-learn: 'liblinear' LIBLINEAR's, the
        intercept a regularized feature (intercept_scaling) and no multinomial
        (ValueError, as scikit-learn's), the others the free intercept's; nesvm's
        Newton method solves either.

    max_iter : int, default=100
        The limit on Newton iterations per binary problem (nesvm's max_iter).  A
        fit that reaches it before the gap tol is certified keeps its last point,
        sets fit_status_ = 1 and raises scikit-learn's ConvergenceWarning.

    multi_class : {'auto', 'ovr', 'multinomial'}, default='auto'
        'ovr': one binary problem per class against the rest (nesvm's multiclass
        ovr, LIBLINEAR's way), probabilities normalized over the classes.
        'multinomial': one joint problem of every class's weights, the softmax's
        log-likelihood (nesvm's multiclass multinomial)

            min_{W, b} 1/2 sum_m ||w_m||^2 + C sum_i c_i [log sum_m exp(w_m.x_i + b_m) - (w_{y_i}.x_i + b_{y_i})],

        the intercepts unregularized (their sum 0), scikit-learn's problem;
        probabilities the softmax of the decision values; with two classes coef_
        is one row, w_1 of the centred pair (w_1 = -w_0), as scikit-learn's.
        'auto': one-vs-rest, for every number of classes.  Note that
        scikit-learn's 'auto' is the multinomial problem for most of its solvers
        with more than two classes: nesvm's stays one-vs-rest (what it has been
        before the multinomial problem existed here); ask for 'multinomial'.

    verbose : int, default=0
        Progress lines on stderr: every `verbose` Newton iterations (0: none).

    warm_start : bool, default=False
        True: a fit starts from the previous fit's coef_ and intercept_ (the
        model itself, through nesvm_train_warm) instead of zero, if the classes
        and the number of features are the same (else ValueError).  The result
        is the same problem's solution to the same certificate; only the
        iterations change.

    n_jobs : int, default=None
        Threads of the C library's products X w and X^T u (None: 1, -1: all
        cores); scikit-learn's n_jobs counts one-vs-rest problems fitted in
        parallel.

    l1_ratio : float, default=None
        The elastic-net mixing of penalty='elasticnet', which nesvm does not have
        yet.  Accepted (in [0, 1]); with another penalty it has no effect and, as
        scikit-learn's, a UserWarning says so.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The sorted labels.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights, in scikit-learn's layout and sign: binary, one row whose
        positive side is classes_[1]; one-vs-rest, one row per class in
        classes_ order.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The intercepts (zeros with fit_intercept=False).
    n_features_in_ : int
        Number of features seen in fit (feature_names_in_ as scikit-learn's).
    n_iter_ : ndarray of shape (1,) or (n_classes,)
        Newton iterations of each binary problem (at least 1); the multinomial
        problem's, shape (1,).
    gap_ : float
        The largest certified relative duality gap of a binary problem.
    fit_status_ : int
        0 when every binary problem reached its certificate, 1 when max_iter
        stopped one before it.
    """

    _solver = "nesvm"
    _native_probability = True
    _sklearn_twin = "sklearn.linear_model.LogisticRegression"

    def __init__(self, penalty="l2", *, dual=False, tol=1e-4, C=1.0, fit_intercept=True, intercept_scaling=1,
                 class_weight=None, random_state=None, solver="nesvm", max_iter=100, multi_class="auto", verbose=0,
                 warm_start=False, n_jobs=None, l1_ratio=None):
        self.penalty = penalty
        self.dual = dual
        self.tol = tol
        self.C = C
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.multi_class = multi_class
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.l1_ratio = l1_ratio

    # --- parameters

    def _check_penalty(self):
        p = self.penalty
        if isinstance(p, str) and p == "elasticnet":
            raise ValueError("penalty='elasticnet': nesvm's elastic-net logistic regression is not yet available "
                             "(the C library solves the L2- and L1-regularized problems); use penalty='l2' or "
                             "'l1', or scikit-learn's LogisticRegression(penalty='elasticnet', solver='saga')")
        if p is None or (isinstance(p, str) and p == "none"):
            raise ValueError("penalty=%r (no regularization) is C = inf, which nesvm does not take: C must be a "
                             "positive finite number (at most 1e100); use penalty='l2' with a large C" % (p,))
        if not (isinstance(p, str) and p in ("l2", "l1")):
            raise ValueError("penalty must be 'l2', 'l1', 'elasticnet', None or 'none', got %r" % (p,))
        r = self.l1_ratio
        if r is not None:
            if isinstance(r, (bool, np.bool_)) or not isinstance(r, numbers.Real) or not 0 <= r <= 1:
                raise ValueError("l1_ratio must be None or a number in [0, 1], got %r" % (r,))
            warnings.warn("l1_ratio parameter is only used when penalty is 'elasticnet'. Got (penalty=%s)" % p,
                          UserWarning)

    def _common_params(self):
        self._check_penalty()
        C = _positive("C", self.C)
        tol = self.tol
        if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, numbers.Real) or not 1e-15 <= tol < 1:
            raise ValueError("tol must be a number in [1e-15, 1) (nesvm's certified relative duality gap), got %r"
                             % (tol,))
        mi = self.max_iter
        if isinstance(mi, (bool, np.bool_)) or not isinstance(mi, numbers.Integral) or mi < 1:
            raise ValueError("max_iter must be a positive integer (Newton iterations per binary problem), got %r"
                             % (mi,))
        solver = self.solver
        if not isinstance(solver, str) or solver not in ("nesvm",) + _SKLEARN_SOLVERS:
            raise ValueError("solver must be 'nesvm' or one of scikit-learn's %s (no effect: nesvm's Newton method "
                             "solves the problem), got %r" % (", ".join(map(repr, _SKLEARN_SOLVERS)), solver))
        mc = self.multi_class
        if not (isinstance(mc, str) and mc in ("auto", "ovr", "multinomial")):
            raise ValueError("multi_class must be 'auto', 'ovr' or 'multinomial', got %r" % (mc,))
        _bool("dual", self.dual)
        _bool("warm_start", self.warm_start)
        fit_intercept = _bool("fit_intercept", self.fit_intercept)
        _positive("intercept_scaling", self.intercept_scaling)
        # scikit-learn's liblinear: its intercept the feature intercept_scaling,
        # regularized with coef_; one-vs-rest only
        liblinear = solver == "liblinear"
        if liblinear and mc == "multinomial":
            raise ValueError("Solver liblinear does not support a multinomial backend.")
        out = _NesvmClassifier._common_params(self)  # solver, threads, seed, max_iter, eps
        out.update({"svm_type": "logistic", "c": C,
                    "bias": (float(self.intercept_scaling) if liblinear else 1) if fit_intercept else 0,
                    "multiclass": "multinomial" if mc == "multinomial" else "ovr", "eps": float(tol),
                    "max_iter": int(mi), "penalty": self.penalty})
        if liblinear and fit_intercept:
            out["bias_mode"] = "regularized"
        return out

    def _nesvm_params(self, X):
        return {}  # all in _common_params

    def _warm_init(self, classes, n_features):
        if not self.warm_start:
            return None
        st = self.__dict__.get("_fitted")
        if st is None:
            return None
        if not np.array_equal(st.classes, classes) or st.n_features != n_features:
            raise ValueError("warm_start=True: the previous fit has classes %s and %d features, this data has "
                             "classes %s and %d features; fit with warm_start=False"
                             % (list(st.classes), st.n_features, list(classes), n_features))
        return st.model

    # --- prediction

    def decision_function(self, X):
        """The decision values w.x + b: binary, one value per sample, positive for
        classes_[1] (the log-odds of classes_[1]; multinomial: half of them, as
        scikit-learn's); more classes, one column per class in classes_ order
        (its one-vs-rest value, or the multinomial problem's f_m)."""
        st = self._state()
        return self._decision(st, self._check_X(st, X))

    def predict(self, X):
        """Class labels: the C library's from the decision values (the sign, or the
        largest one-vs-rest value), as `nesvm predict` gives."""
        return _NesvmClassifier.predict(self, X)

    def predict_proba(self, X):
        """Probabilities of classes_ (columns in classes_ order), the model's own:
        binary, 1 / (1 + exp(-decision_function(X))) for classes_[1]; one-vs-rest,
        each class's sigmoid divided by their sum (scikit-learn's
        multi_class='ovr', liblinear-predict -b 1); multinomial, the softmax of
        the decision values."""
        st = self._state()
        return self._proba(st, self._check_X(st, X))

    def predict_log_proba(self, X):
        """The logarithm of predict_proba(X) (-inf where a probability is 0 in
        double precision, as scikit-learn's)."""
        P = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(P)

    def _more_tags(self):
        return {"binary_only": False, "requires_y": True, "_xfail_checks": {}, "pairwise": False}
