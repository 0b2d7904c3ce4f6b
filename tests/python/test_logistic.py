"""test_logistic.py - nesvm.LogisticRegression against scikit-learn's
LogisticRegression on the same problem,

    min_{w, b} 1/2 ||w||^2 + C sum_i c_i log(1 + exp(-y_i (w.x_i + b)))

(one per class against the rest for more classes), the intercept unregularized
in both.  The objective is recomputed with numpy at each one's coefficients:
nesvm's is at or below scikit-learn's.  Coefficients and probabilities are
compared with scikit-learn's newton-cholesky solver at tol=1e-10 (its Newton
steps stop at a gradient of ~1e-10: the optimum to double precision), and the
objective also with its lbfgs solver at tol=1e-10: scikit-learn 1.2 passes lbfgs
only gtol, and scipy's default ftol (2.2e-9, a relative decrease of the
objective) stops it first, at an objective ~2e-9 above the optimum and
coefficients ~1e-4 (relative) away from it, so lbfgs is no truth at 1e-5 for
the coefficients (test_lbfgs_stops_short pins that).  nesvm runs at tol=1e-8,
its certified relative duality gap.  Also: probabilities (the sigmoid of the
decision value, rows summing to 1, predict their argmax), class and sample
weights, fit_intercept=False, warm_start, max_iter and the ConvergenceWarning,
bad input, the CLI on the saved model, check_estimator.
"""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression as SkLR
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.estimator_checks import check_estimator

import nesvm

BIN = os.environ.get("NESVM_BIN", "nesvm")


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def sk_fit(X, y, solver="newton-cholesky", **kw):
    """scikit-learn's fit to the optimum (newton-cholesky) or lbfgs at its tightest."""
    kw.setdefault("multi_class", "ovr")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return SkLR(solver=solver, tol=1e-10, max_iter=10000, **kw).fit(X, y)


def problems(coef, intercept, X, y, classes, C=1.0, c=None):
    """The primal objective of each binary problem (one row of coef per class
    against the rest; one row, positive for classes[1], for two classes),
    recomputed with numpy; c: each sample's weight (sample x class weight)."""
    c = np.ones(len(y)) if c is None else c
    rows = [(classes[1], 0)] if len(classes) == 2 else [(k, i) for i, k in enumerate(classes)]
    out = []
    for label, r in rows:
        s = np.where(y == label, 1.0, -1.0)
        f = X @ coef[r] + intercept[r]
        out.append(0.5 * coef[r] @ coef[r] + C * np.sum(c * np.logaddexp(0.0, -s * f)))
    return np.array(out)


def objective(coef, intercept, X, y, classes, C=1.0, c=None):
    """Their sum."""
    return problems(coef, intercept, X, y, classes, C, c).sum()


def rel(a, b):
    """max |a - b| relative to the scale of b."""
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(np.max(np.abs(b)), 1e-300)


def assert_same_as_sklearn(est, sk, X, y, c=None, C=1.0):
    """est (nesvm) and sk (scikit-learn's newton-cholesky, the optimum to double
    precision) on the same problem.  What nesvm's certificate promises, at any
    tol: each binary problem's objective P_k within gap_ P_k of the optimum, so
    at or below scikit-learn's (1 + 1e-8 for the rounding of the sums), and,
    P being 1-strongly convex in w, ||w_k - w_k*|| <= sqrt(2 gap_ P_k), the gap
    at least 1e-15 (the smallest that double precision certifies: nesvm's range
    of tol; a gap_ of 0 is P and D equal to rounding).  Where
    that bound is below 1e-5 of the coefficients' scale (tol=1e-12 here) the
    coefficients and intercepts within 1e-5 (relative) and the probabilities
    within 1e-6 of scikit-learn's; at tol=1e-8 it is not (it is 1e-4 at C=0.1
    on the cancer data: the certificate bounds the objective, the coefficients
    only by its square root), and the bound is what is asserted."""
    assert est.fit_status_ == 0 and est.gap_ <= est.tol
    np.testing.assert_array_equal(est.classes_, sk.classes_)
    assert est.coef_.shape == sk.coef_.shape and est.intercept_.shape == sk.intercept_.shape
    P_nv = problems(est.coef_, est.intercept_, X, y, est.classes_, C, c)
    P_sk = problems(sk.coef_, sk.intercept_, X, y, sk.classes_, C, c)
    assert np.all(P_nv <= P_sk * (1 + 1e-8)), (P_nv, P_sk)
    gap = max(est.gap_, 1e-15)
    assert np.all(P_nv - P_sk <= gap * P_nv), (P_nv - P_sk, gap * P_nv)
    bound = np.sqrt(2 * gap * P_nv)
    dist = np.linalg.norm(est.coef_ - sk.coef_, axis=1)
    assert np.all(dist <= bound), (dist, bound)
    if est.tol <= 1e-12:
        assert np.max(bound) < 1e-5 * np.max(np.abs(sk.coef_))  # the certificate implies the next line
        assert rel(est.coef_, sk.coef_) < 1e-5, rel(est.coef_, sk.coef_)
        # the intercept on the coefficients' scale (it is 0.0 for fit_intercept=False)
        assert np.max(np.abs(est.intercept_ - sk.intercept_)) < 1e-5 * max(1.0, np.max(np.abs(sk.coef_)))
        np.testing.assert_allclose(est.predict_proba(X), sk.predict_proba(X), rtol=0, atol=1e-6)
        np.testing.assert_array_equal(est.predict(X), sk.predict(X))


# ------------------------------------------------------------ check_estimator

def test_check_estimator():
    """Every check runs: no skip."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(nesvm.LogisticRegression())
    skipped = [str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"]
    assert not skipped, skipped


# ------------------------------------------------------- against scikit-learn

@pytest.mark.parametrize("tol", [1e-8, 1e-12])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_binary_against_scikit_learn(cancer, C, tol):
    X, y = cancer
    est = nesvm.LogisticRegression(C=C, tol=tol).fit(X, y)
    assert_same_as_sklearn(est, sk_fit(X, y, C=C), X, y, C=C)
    # lbfgs: nesvm's objective at or below it too
    lb = sk_fit(X, y, solver="lbfgs", C=C)
    assert objective(est.coef_, est.intercept_, X, y, est.classes_, C) <= \
        objective(lb.coef_, lb.intercept_, X, y, lb.classes_, C) * (1 + 1e-8)


@pytest.mark.parametrize("tol", [1e-8, 1e-12])
@pytest.mark.parametrize("multi_class", ["ovr", "auto"])
def test_multiclass_against_scikit_learn(wine, multi_class, tol):
    X, y = wine
    est = nesvm.LogisticRegression(tol=tol, multi_class=multi_class).fit(X, y)
    assert est.coef_.shape == (3, X.shape[1]) and est.n_iter_.shape == (3,)
    assert_same_as_sklearn(est, sk_fit(X, y, multi_class="ovr"), X, y)
    lb = sk_fit(X, y, solver="lbfgs", multi_class="ovr")
    assert objective(est.coef_, est.intercept_, X, y, est.classes_) <= \
        objective(lb.coef_, lb.intercept_, X, y, lb.classes_) * (1 + 1e-8)


def test_lbfgs_stops_short(cancer):
    """Why the coefficients are compared with newton-cholesky: scikit-learn's lbfgs
    at tol=1e-10 stops at scipy's default ftol (2.2e-9, the objective's relative
    decrease), its objective 2e-9 (relative) above the optimum, a thousand
    times nesvm's certified gap at tol=1e-8, and its coefficients 8e-5
    (relative) from newton-cholesky's, which nesvm's are within 1e-5 of."""
    X, y = cancer
    est = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    lb, nc = sk_fit(X, y, solver="lbfgs"), sk_fit(X, y)
    P = [objective(m.coef_, m.intercept_, X, y, m.classes_) for m in (est, lb, nc)]
    assert P[0] - P[2] <= est.gap_ * P[0] < 1e-11 * P[0]
    assert P[1] - P[2] > 1e-9 * P[2] > 100 * est.gap_ * P[0]
    assert rel(lb.coef_, nc.coef_) > 5e-5 and rel(est.coef_, nc.coef_) < 1e-5


def test_gap_certifies_the_objective(cancer):
    """The certificate: nesvm's objective is within tol (relative) of the optimum,
    newton-cholesky's objective standing for it, at every tol."""
    X, y = cancer
    P_star = objective(*(lambda m: (m.coef_, m.intercept_))(sk_fit(X, y)), X, y, np.array([0, 1]))
    for tol in (1e-2, 1e-4, 1e-6, 1e-8):
        est = nesvm.LogisticRegression(tol=tol).fit(X, y)
        P = objective(est.coef_, est.intercept_, X, y, est.classes_)
        assert est.gap_ <= tol and (P - P_star) <= tol * P + 1e-12 * P, (tol, P, P_star)


def test_sparse_float32_and_lists(cancer):
    X, y = cancer
    dense = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    sparse = nesvm.LogisticRegression(tol=1e-8).fit(sp.csr_matrix(X), y)
    assert rel(sparse.coef_, dense.coef_) < 1e-9
    np.testing.assert_allclose(sparse.predict_proba(sp.csr_matrix(X)), dense.predict_proba(X), atol=1e-9)
    f32 = nesvm.LogisticRegression(tol=1e-12).fit(X.astype(np.float32), y)
    sk32 = sk_fit(X.astype(np.float32).astype(np.float64), y)
    assert rel(f32.coef_, sk32.coef_) < 1e-5


# ------------------------------------------------------------- probabilities

def test_probabilities_binary(cancer):
    X, y = cancer
    est = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    d = est.decision_function(X)
    assert d.shape == (len(y),)
    # decision_function is w.x + b with scikit-learn's sign (positive: classes_[1])
    np.testing.assert_allclose(d, X @ est.coef_[0] + est.intercept_[0], rtol=1e-12, atol=1e-12)
    P = est.predict_proba(X)
    np.testing.assert_allclose(P[:, 1], 1.0 / (1.0 + np.exp(-d)), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(P, axis=1)])
    np.testing.assert_array_equal(est.predict(X), est.classes_[(d > 0).astype(int)])
    assert (P == 0).any()  # 1 - sigmoid of a large value: log -inf, without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        logP = est.predict_log_proba(X)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(logP, np.log(P))
    assert est.score(X, y) == np.mean(est.predict(X) == y)


def test_probabilities_multiclass(wine):
    X, y = wine
    est = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    d = est.decision_function(X)
    assert d.shape == (len(y), 3)
    np.testing.assert_allclose(d, X @ est.coef_.T + est.intercept_, rtol=1e-12, atol=1e-12)
    P = est.predict_proba(X)
    s = 1.0 / (1.0 + np.exp(-d))  # one-vs-rest: each class's sigmoid, normalized
    np.testing.assert_allclose(P, s / s.sum(axis=1, keepdims=True), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(P, axis=1)])
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(d, axis=1)])


def test_string_labels_out_of_order(wine):
    """classes_ sorted, coef_ rows and decision columns in classes_ order, whatever
    order the labels first appear in."""
    X, y = wine
    names = np.array(["c", "a", "b"])[y]
    o = np.argsort(-y, kind="stable")  # class 2 ('b') first, then 1 ('a'), then 0 ('c')
    est = nesvm.LogisticRegression(tol=1e-12).fit(X[o], names[o])
    np.testing.assert_array_equal(est.classes_, ["a", "b", "c"])
    np.testing.assert_allclose(est.decision_function(X), X @ est.coef_.T + est.intercept_, rtol=1e-12, atol=1e-12)
    sk = sk_fit(X[o], names[o])
    assert rel(est.coef_, sk.coef_) < 1e-5
    np.testing.assert_allclose(est.predict_proba(X), sk.predict_proba(X), atol=1e-6)
    # binary: positive for classes_[1] however the labels come
    two = y < 2
    bn = nesvm.LogisticRegression(tol=1e-12).fit(X[two][::-1], names[two][::-1])
    skb = sk_fit(X[two], names[two])
    np.testing.assert_array_equal(bn.classes_, ["a", "c"])
    assert rel(bn.coef_, skb.coef_) < 1e-5
    np.testing.assert_allclose(bn.decision_function(X), skb.decision_function(X), atol=1e-5)


# -------------------------------------------------------------------- weights

def test_class_weight_balanced_binary(cancer):
    X, y = cancer
    est = nesvm.LogisticRegression(tol=1e-12, class_weight="balanced").fit(X, y)
    cw = compute_class_weight("balanced", classes=np.array([0, 1]), y=y)
    assert_same_as_sklearn(est, sk_fit(X, y, class_weight="balanced"), X, y, c=cw[y])


def test_class_and_sample_weights(cancer):
    X, y = cancer
    sw = np.random.RandomState(0).uniform(0.2, 3.0, len(y))
    cw = {0: 2.5, 1: 0.4}
    est = nesvm.LogisticRegression(tol=1e-12, C=2.0, class_weight=cw).fit(X, y, sample_weight=sw)
    sk = sk_fit(X, y, C=2.0, class_weight=cw)
    sk.fit(X, y, sample_weight=sw)
    assert_same_as_sklearn(est, sk, X, y, c=sw * np.where(y == 0, 2.5, 0.4), C=2.0)


def test_multiclass_weights(wine):
    X, y = wine
    sw = np.random.RandomState(1).uniform(0.2, 3.0, len(y))
    cw = {0: 0.5, 1: 2.0, 2: 1.5}
    est = nesvm.LogisticRegression(tol=1e-12, class_weight=cw).fit(X, y, sample_weight=sw)
    sk = sk_fit(X, y, class_weight=cw).fit(X, y, sample_weight=sw)
    c = sw * np.array([0.5, 2.0, 1.5])[y]
    assert_same_as_sklearn(est, sk, X, y, c=c)
    # 'balanced' weighs each class n / (k n_c) in every one-vs-rest problem: the
    # dict of those weights in scikit-learn (docs/python.md: its own 'balanced'
    # rebalances each one-vs-rest problem's two sides instead)
    bal = compute_class_weight("balanced", classes=np.arange(3), y=y)
    est = nesvm.LogisticRegression(tol=1e-12, class_weight="balanced").fit(X, y)
    assert_same_as_sklearn(est, sk_fit(X, y, class_weight=dict(enumerate(bal))), X, y, c=bal[y])


def test_zero_weight_removes_the_sample(cancer):
    X, y = cancer
    sw = np.ones(len(y))
    sw[::3] = 0
    a = nesvm.LogisticRegression(tol=1e-8).fit(X, y, sample_weight=sw)
    b = nesvm.LogisticRegression(tol=1e-8).fit(X[sw > 0], y[sw > 0])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


# ------------------------------------------------------------- fit_intercept

@pytest.mark.parametrize("data", ["cancer", "wine"])
def test_no_intercept(request, data):
    X, y = request.getfixturevalue(data)
    X = X + 0.5  # so that the intercept matters
    est = nesvm.LogisticRegression(tol=1e-12, fit_intercept=False).fit(X, y)
    np.testing.assert_array_equal(est.intercept_, 0.0)
    sk = sk_fit(X, y, fit_intercept=False)
    assert_same_as_sklearn(est, sk, X, y)
    with_b = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    assert rel(with_b.coef_, est.coef_) > 1e-2


def test_inert_parameters(cancer):
    """dual, intercept_scaling, random_state and scikit-learn's solver names but
    liblinear change nothing: the same model, bit for bit."""
    X, y = cancer
    ref = nesvm.LogisticRegression().fit(X, y)
    for kw in ({"solver": s} for s in ("lbfgs", "newton-cg", "newton-cholesky", "sag", "saga")):
        np.testing.assert_array_equal(nesvm.LogisticRegression(**kw).fit(X, y).coef_, ref.coef_)
    for kw in ({"dual": True}, {"intercept_scaling": 10.0}, {"random_state": 7}, {"n_jobs": 2}):
        np.testing.assert_array_equal(nesvm.LogisticRegression(**kw).fit(X, y).coef_, ref.coef_)


@pytest.mark.parametrize("penalty", ["l2", "l1"])
def test_liblinear_solver_regularizes_the_intercept(cancer, wine, penalty):
    """solver='liblinear' is scikit-learn's liblinear problem: the intercept the
    weight of a constant feature intercept_scaling, regularized with coef_
    (LIBLINEAR -s 0 / -s 6 -B intercept_scaling).  The objective recomputed with
    numpy at or below scikit-learn's liblinear (tol 1e-10) to nesvm's tol, the
    coefficients and intercepts near its; for L1 its zeros, the intercept's
    included; a multinomial refused with scikit-learn's message."""
    for (X, y), C, scale in ((cancer, 0.3, 1.0), (cancer, 2.0, 3.0), (wine, 0.5, 2.0)):
        est = nesvm.LogisticRegression(penalty=penalty, solver="liblinear", C=C, intercept_scaling=scale,
                                       tol=1e-10, max_iter=1000).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk = SkLR(penalty=penalty, solver="liblinear", C=C, intercept_scaling=scale, tol=1e-10,
                      max_iter=100000).fit(X, y)
        for k in range(est.coef_.shape[0]):
            s = np.where(y == est.classes_[k if est.coef_.shape[0] > 1 else 1], 1.0, -1.0)

            def P(w, b):
                z = np.append(w, b / scale)
                R = np.abs(z).sum() if penalty == "l1" else 0.5 * z @ z
                return R + C * np.logaddexp(0, -s * (X @ w + b)).sum()
            pn, ps = P(est.coef_[k], est.intercept_[k]), P(sk.coef_[k], sk.intercept_[k])
            assert pn <= ps * (1 + 1e-8), (k, pn, ps)
            assert abs(pn - ps) <= 1e-5 * ps, (k, pn, ps)
            if penalty == "l1":
                z_n = np.append(est.coef_[k], est.intercept_[k]) != 0
                z_s = np.abs(np.append(sk.coef_[k], sk.intercept_[k])) > 1e-8
                assert np.array_equal(z_n, z_s), (k, est.coef_[k], sk.coef_[k])
        assert est.fit_status_ == 0
        free = nesvm.LogisticRegression(penalty=penalty, C=C, tol=1e-10, max_iter=1000).fit(X, y)
        assert rel(free.intercept_, est.intercept_) > 1e-3  # another problem
    with pytest.raises(ValueError, match="Solver liblinear does not support a multinomial backend"):
        nesvm.LogisticRegression(solver="liblinear", multi_class="multinomial").fit(*wine)


# ------------------------------------------------------- warm start, max_iter

def test_warm_start(cancer, wine):
    for X, y in (cancer, wine):
        cold = nesvm.LogisticRegression(tol=1e-12, C=3.0).fit(X, y)
        est = nesvm.LogisticRegression(tol=1e-12, C=1.0, warm_start=True).fit(X, y)
        first = est.n_iter_.copy()
        est.set_params(C=3.0).fit(X, y)  # from C = 1's solution
        assert np.all(est.n_iter_ < cold.n_iter_), (est.n_iter_, cold.n_iter_)
        assert est.fit_status_ == 0 and rel(est.coef_, cold.coef_) < 1e-5
        assert np.max(np.abs(est.intercept_ - cold.intercept_)) < 1e-5 * np.max(np.abs(cold.coef_))
        # again at the same C: from its own solution
        again = est.n_iter_.copy()
        coef = est.coef_.copy()
        est.fit(X, y)
        assert np.all(est.n_iter_ < again) and np.all(est.n_iter_ < first), (est.n_iter_, again, first)
        assert rel(est.coef_, coef) < 1e-5
    # other classes or features: refused, naming warm_start
    X, y = wine
    est = nesvm.LogisticRegression(warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="warm_start=True: the previous fit has classes"):
        est.fit(X, np.minimum(y, 1))
    est = nesvm.LogisticRegression(warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="warm_start=True: the previous fit has classes .* 13 features"):
        est.fit(X[:, :5], y)


def test_max_iter_convergence_warning(cancer):
    X, y = cancer
    with pytest.warns(ConvergenceWarning, match="stopped before their certificate"):
        est = nesvm.LogisticRegression(max_iter=1, tol=1e-8).fit(X, y)
    assert est.fit_status_ == 1 and est.n_iter_[0] == 1 and est.gap_ > 1e-8
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = nesvm.LogisticRegression(tol=1e-8).fit(X, y)  # max_iter=100: certified
    assert est.fit_status_ == 0 and 1 <= est.n_iter_[0] <= 100


# ------------------------------------------------------------ multinomial

def softmax_objective(coef, intercept, X, y, classes, C=1.0, c=None):
    """The multinomial problem's objective recomputed with numpy (coef_ one row
    per class; two classes: scikit-learn's one row w_1 of the centred pair,
    w_0 = -w_1)."""
    c = np.ones(len(y)) if c is None else c
    if len(classes) == 2:
        coef, intercept = np.vstack([-coef[0], coef[0]]), np.array([-intercept[0], intercept[0]])
    F = X @ coef.T + intercept
    yi = np.searchsorted(classes, y)
    lse = np.logaddexp.reduce(F, axis=1)
    return 0.5 * np.sum(coef * coef) + C * np.sum(c * (lse - F[np.arange(len(y)), yi]))


@pytest.mark.parametrize("data", ["wine", "cancer"])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_multinomial_against_scikit_learn(wine, cancer, data, C):
    """multi_class='multinomial' is scikit-learn's softmax problem: nesvm's
    objective at or below scikit-learn's newton-cg (tol 1e-10), W within the
    strong-convexity bound of both, coefficients, intercepts (their sum 0, as
    scikit-learn's at its optimum) and probabilities within 1e-6, the same
    labels; two classes as scikit-learn's one row."""
    X, y = wine if data == "wine" else cancer
    est = nesvm.LogisticRegression(multi_class="multinomial", C=C, tol=1e-12).fit(X, y)
    sk = sk_fit(X, y, solver="newton-cg", multi_class="multinomial", C=C)
    assert est.fit_status_ == 0 and est.gap_ <= 1e-12 and est.n_iter_.shape == (1,)
    assert est.coef_.shape == sk.coef_.shape and est.intercept_.shape == sk.intercept_.shape
    P_nv = softmax_objective(est.coef_, est.intercept_, X, y, est.classes_, C)
    P_sk = softmax_objective(sk.coef_, sk.intercept_, X, y, sk.classes_, C)
    assert P_nv <= P_sk * (1 + 1e-9), (P_nv, P_sk)
    assert rel(est.coef_, sk.coef_) < 1e-5, rel(est.coef_, sk.coef_)
    assert np.max(np.abs(est.intercept_ - sk.intercept_)) < 1e-5 * max(1.0, np.max(np.abs(sk.coef_)))
    np.testing.assert_allclose(est.predict_proba(X), sk.predict_proba(X), rtol=0, atol=1e-6)
    np.testing.assert_allclose(est.predict_proba(X).sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(est.decision_function(X), sk.decision_function(X), rtol=0,
                               atol=1e-5 * max(1.0, np.max(np.abs(sk.decision_function(X)))))
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))


def test_multinomial_weights_and_no_intercept(wine):
    """Class and sample weights multiply each row's C, fit_intercept=False drops
    the biases: the objectives at or below scikit-learn's."""
    X, y = wine
    sw = np.random.default_rng(3).uniform(0.2, 3.0, len(y))
    cw = {1: 2.0, 2: 0.5}
    for kw, fit_kw, c in (({"class_weight": cw}, {}, np.array([cw.get(v, 1.0) for v in y])),
                          ({}, {"sample_weight": sw}, sw),
                          ({"fit_intercept": False}, {}, None)):
        est = nesvm.LogisticRegression(multi_class="multinomial", tol=1e-12, **kw).fit(X, y, **fit_kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            sk = SkLR(solver="newton-cg", tol=1e-10, max_iter=10000, multi_class="multinomial", **kw).fit(
                X, y, **fit_kw)
        P_nv = softmax_objective(est.coef_, est.intercept_, X, y, est.classes_, 1.0, c)
        P_sk = softmax_objective(sk.coef_, sk.intercept_, X, y, sk.classes_, 1.0, c)
        assert P_nv <= P_sk * (1 + 1e-9), (kw, P_nv, P_sk)
        assert rel(est.coef_, sk.coef_) < 1e-5, (kw, rel(est.coef_, sk.coef_))
        if kw.get("fit_intercept") is False:
            assert np.all(est.intercept_ == 0)


def test_multinomial_check_estimator():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(nesvm.LogisticRegression(multi_class="multinomial"))
    skipped = [str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"]
    assert not skipped, skipped


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("kw,match", [
    ({"C": 0}, "C must be a positive finite number"),
    ({"C": -1.0}, "C must be a positive finite number"),
    ({"C": np.inf}, "C must be a positive finite number"),
    ({"C": np.nan}, "C must be a positive finite number"),
    ({"penalty": "elasticnet", "l1_ratio": 0.5}, "penalty='elasticnet': nesvm's elastic-net logistic regression is "
                                                 "not yet available"),
    ({"penalty": None}, r"penalty=None \(no regularization\) is C = inf, which nesvm does not take"),
    ({"penalty": "none"}, r"penalty='none' \(no regularization\) is C = inf"),
    ({"penalty": "l3"}, "penalty must be"),
    ({"multi_class": "ova"}, "multi_class must be"),
    ({"solver": "newton"}, "solver must be 'nesvm' or one of scikit-learn's"),
    ({"tol": 0.0}, r"tol must be a number in \[1e-15, 1\)"),
    ({"tol": 1.0}, r"tol must be a number in \[1e-15, 1\)"),
    ({"max_iter": 0}, "max_iter must be a positive integer"),
    ({"max_iter": 2.5}, "max_iter must be a positive integer"),
    ({"fit_intercept": "yes"}, "fit_intercept must be True or False"),
    ({"intercept_scaling": 0}, "intercept_scaling must be a positive finite number"),
    ({"l1_ratio": 2.0}, r"l1_ratio must be None or a number in \[0, 1\]"),
    ({"class_weight": {5: 1.0}}, "class_weight names the label 5, which is not in y"),
    ({"class_weight": "auto"}, "class_weight must be None, 'balanced' or a dict"),
])
def test_bad_parameters(cancer, kw, match):
    X, y = cancer
    est = nesvm.LogisticRegression(**kw)
    with pytest.raises(ValueError, match=match):
        est.fit(X, y)
    assert not hasattr(est, "coef_")


def test_bad_data(cancer):
    X, y = cancer
    with pytest.raises(ValueError, match="The number of classes has to be greater than one; got 1 class"):
        nesvm.LogisticRegression().fit(X, np.zeros(len(y)))
    Xn = X.copy()
    Xn[3, 4] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        nesvm.LogisticRegression().fit(Xn, y)
    with pytest.raises(ValueError, match="Input y contains NaN"):
        nesvm.LogisticRegression().fit(X, np.where(np.arange(len(y)) == 2, np.nan, y))
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        nesvm.LogisticRegression().fit(X, y, sample_weight=-np.ones(len(y)))
    est = nesvm.LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="X has 5 features"):
        est.predict_proba(X[:, :5])


def test_l1_penalty_is_sagas_problem(cancer):
    """penalty='l1' solves ||w||_1 + C sum log(1 + exp(-y f)) with the unpenalized
    intercept (scikit-learn's saga's problem; its liblinear penalizes the
    intercept): the objective recomputed with numpy at or below saga's (to 1e-6,
    nesvm's tol), exact zeros, and the model's certificate."""
    X, y = cancer
    for C in (0.05, 1.0):
        est = nesvm.LogisticRegression(penalty="l1", C=C, tol=1e-7, max_iter=1000).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk = SkLR(penalty="l1", C=C, solver="saga", tol=1e-12, max_iter=100000).fit(X, y)
        s = np.where(y == est.classes_[1], 1.0, -1.0)

        def P(w, b):
            return np.abs(w).sum() + C * np.logaddexp(0.0, -s * (X @ w + b)).sum()
        pn, ps = P(est.coef_[0], est.intercept_[0]), P(sk.coef_[0], sk.intercept_[0])
        assert est.fit_status_ == 0 and pn <= ps * (1 + 1e-6), (C, pn, ps)
        assert (est.coef_ == 0).sum() > 0  # exact zeros
        # the zeros where saga's weights are negligible
        assert np.all(np.abs(sk.coef_[est.coef_ == 0]) <= 1e-3), (C, sk.coef_[est.coef_ == 0])


def test_l1_ratio_warns_as_scikit_learn(cancer):
    X, y = cancer
    with pytest.warns(UserWarning, match="l1_ratio parameter is only used when penalty is 'elasticnet'"):
        nesvm.LogisticRegression(l1_ratio=0.5).fit(X, y)


# ------------------------------------------------- files, CLI, pickle, sklearn

def test_saved_model_predicts_in_the_cli(tmp_path, wine):
    """`nesvm predict -b 1` on the saved model gives predict_proba's numbers."""
    X, y = wine
    est = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    est.save_model(tmp_path / "m")
    nesvm.write_libsvm(tmp_path / "d", X, y)
    r = subprocess.run([BIN, "predict", "-b", "1", str(tmp_path / "d"), str(tmp_path / "m"), str(tmp_path / "o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "o").read_text().split("\n")
    labels = [float(v) for v in lines[0].split()[1:]]
    rows = np.array([[float(v) for v in line.split()] for line in lines[1:] if line])
    cols = [labels.index(float(c)) for c in est.classes_]
    np.testing.assert_allclose(rows[:, 1:][:, cols], est.predict_proba(X), rtol=1e-15, atol=1e-16)
    np.testing.assert_array_equal(rows[:, 0], est.predict(X))


def test_pickle_pipeline_gridsearch(cancer):
    X, y = cancer
    est = nesvm.LogisticRegression(tol=1e-8).fit(X, y)
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    np.testing.assert_array_equal(back.coef_, est.coef_)
    Xr, yr = load_breast_cancer(return_X_y=True)
    grid = GridSearchCV(make_pipeline(StandardScaler(), nesvm.LogisticRegression(tol=1e-8)),
                        {"logisticregression__C": [0.1, 1.0]}, cv=3).fit(Xr, yr)
    sk = GridSearchCV(make_pipeline(StandardScaler(), SkLR(solver="newton-cholesky", tol=1e-10)),
                      {"logisticregression__C": [0.1, 1.0]}, cv=3).fit(Xr, yr)
    np.testing.assert_allclose(grid.cv_results_["mean_test_score"], sk.cv_results_["mean_test_score"], atol=1e-12)


# ------------------------------------------------------------------ LinearSVC(penalty='l1')

def test_linear_svc_l1_is_liblinears_s5(cancer):
    """LinearSVC(penalty='l1', dual=False): ||w||_1 + C sum max(0, 1 - y f)^2,
    LIBLINEAR -s 5's problem, scikit-learn's own (its liblinear solver, tol
    1e-10) without an intercept and with one (the feature intercept_scaling in
    the L1 norm): the objective recomputed with numpy at or below
    scikit-learn's (to nesvm's tol), the zeros where its are, the intercept's
    included; scikit-learn's argument checks."""
    from sklearn.svm import LinearSVC as SkSVC
    X, y = cancer
    s = np.where(y == 1, 1.0, -1.0)
    for C, fit_intercept, scale in ((0.02, False, 1.0), (0.5, False, 1.0), (0.02, True, 1.0), (0.5, True, 2.0)):
        def P(w, b):
            r = np.maximum(0.0, 1 - s * (X @ w + b))
            return np.abs(w).sum() + abs(b) / scale + C * (r * r).sum()
        kw = dict(penalty="l1", dual=False, C=C, fit_intercept=fit_intercept, intercept_scaling=scale)
        est = nesvm.LinearSVC(tol=1e-8, **kw).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk = SkSVC(tol=1e-10, max_iter=100000, **kw).fit(X, y)
        b_sk = np.atleast_1d(sk.intercept_)[0]  # (scikit-learn: 0.0 without an intercept)
        pn, ps = P(est.coef_[0], est.intercept_[0]), P(sk.coef_[0], b_sk)
        assert est.fit_status_ == 0 and pn <= ps * (1 + 1e-8), (C, pn, ps)
        assert abs(pn - ps) <= 1e-5 * ps, (C, pn, ps)
        z_n = np.append(est.coef_[0], est.intercept_[0]) != 0
        z_s = np.abs(np.append(sk.coef_[0], b_sk)) > 1e-9
        assert np.array_equal(z_n, z_s), (C, est.coef_, sk.coef_, est.intercept_, sk.intercept_)
        if not fit_intercept:
            assert est.intercept_[0] == 0.0
    with pytest.raises(ValueError, match="when dual=True"):
        nesvm.LinearSVC(penalty="l1").fit(X, y)
    with pytest.raises(ValueError, match="penalty='l1' and loss='hinge' is not supported"):
        nesvm.LinearSVC(penalty="l1", loss="hinge", dual=False).fit(X, y)
    with pytest.raises(ValueError, match="penalty must be 'l1' or 'l2'"):
        nesvm.LinearSVC(penalty="l3").fit(X, y)


# ------------------------------------------ the subsampled-Hessian preconditioner

def test_large_dense_problem_by_the_sketched_newton_step():
    """A dense problem of the shape where Newton's CG takes the subsampled
    Hessian as its preconditioner (newton.c, sketch_build: n = 48,000 rows of
    d = 200 correlated features, the zone holding 8 d rows and more, the exact
    step's buffers beyond its memory floor, the factor within 50 CG steps'
    flops): its certified optimum at or below scipy's L-BFGS-B on the same
    objective, 1/2 ||w||^2 + C sum log(1 + exp(-y w.x)), and the weights
    within the certificate's bound of L-BFGS-B's."""
    from scipy.optimize import minimize
    rng = np.random.default_rng(5)
    n, d, C = 48000, 200, 1.0
    Z = rng.standard_normal((n, 20))
    X = Z @ rng.standard_normal((20, d)) / 4 + 0.3 * rng.standard_normal((n, d))  # correlated columns
    w_true = rng.standard_normal(d) / np.sqrt(d)
    y = np.where(X @ w_true + 0.5 * rng.standard_normal(n) > 0, 1, -1)
    est = nesvm.LogisticRegression(C=C, tol=1e-10, fit_intercept=False, max_iter=200).fit(X, y)
    s = np.where(y == est.classes_[1], 1.0, -1.0)

    def P(w):
        return 0.5 * w @ w + C * np.logaddexp(0, -s * (X @ w)).sum()

    def fg(w):
        m = s * (X @ w)
        return P(w), w - C * X.T @ (s * 0.5 * (1 - np.tanh(m / 2)))
    ref = minimize(fg, np.zeros(d), jac=True, method="L-BFGS-B", options={"maxiter": 20000, "ftol": 1e-15,
                                                                          "gtol": 1e-9})
    pn, ps = P(est.coef_[0]), ref.fun
    assert est.fit_status_ == 0 and est.gap_ <= 1e-10
    assert pn <= ps * (1 + 1e-9), (pn, ps)
    assert np.linalg.norm(est.coef_[0] - ref.x) <= np.sqrt(2 * est.gap_ * pn) + np.sqrt(2 * (ps - pn + 1e-9 * ps))
