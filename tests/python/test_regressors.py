"""test_regressors.py - nesvm.LinearSVR (issue 32): scikit-learn's check_estimator,
the objective against scikit-learn's LinearSVR (LIBLINEAR inside) on the same
problem, sample weights against repeated rows, R^2, pickling, Pipeline and
GridSearchCV.  The problem, recomputed here with numpy from coef_ and
intercept_ (the intercept a regularized feature of value intercept_scaling):

    P = 1/2 (||coef_||^2 + (intercept_ / s)^2) + C sum_i w_i l(y_i - coef_.x_i - intercept_)
"""
import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVR as SkLinearSVR
from sklearn.utils.estimator_checks import check_estimator

import nesvm


def primal(est, X, y, C, p, squared, sw=None, s=1.0, intercept=True):
    b = float(np.ravel(est.intercept_)[0])
    r = np.maximum(np.abs(y - X @ est.coef_ - b) - p, 0.0)
    loss = r * r if squared else r
    w = np.ones(len(y)) if sw is None else sw
    reg = est.coef_ @ est.coef_ + ((b / s) ** 2 if intercept else 0.0)
    return 0.5 * reg + C * (w * loss).sum()


def data():
    d = load_diabetes()
    X = StandardScaler().fit_transform(d.data)
    return X, d.target / 100.0


def test_check_estimator():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check_estimator(nesvm.LinearSVR())


@pytest.mark.parametrize("loss", ["epsilon_insensitive", "squared_epsilon_insensitive"])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_objective_against_scikit_learn(loss, C, fit_intercept):
    """nesvm's certified optimum is at or below scikit-learn's (LIBLINEAR's) objective
    at its tightest tolerance, and within nesvm's own gap of it."""
    X, y = data()
    squared = loss.startswith("squared")
    ours = nesvm.LinearSVR(C=C, epsilon=0.1, loss=loss, fit_intercept=fit_intercept, tol=1e-8,
                           max_iter=100000).fit(X, y)
    assert ours.fit_status_ == 0 and ours.gap_ <= 1e-8
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = SkLinearSVR(C=C, epsilon=0.1, loss=loss, fit_intercept=fit_intercept, tol=1e-10,
                             max_iter=1000000, dual=True).fit(X, y)
    P = primal(ours, X, y, C, 0.1, squared, intercept=fit_intercept)
    Q = primal(theirs, X, y, C, 0.1, squared, intercept=fit_intercept)
    assert P <= Q * (1 + 1e-6), (P, Q)
    assert Q <= P * (1 + 1e-3), (P, Q)
    # the same types as scikit-learn's
    assert ours.coef_.shape == theirs.coef_.shape and np.shape(ours.intercept_) == np.shape(theirs.intercept_)


def test_sample_weight_as_repeated_rows():
    """Integer weights are repeated rows: the same problem, so the same objective
    (both certified to 1e-9) and nearly the same coefficients (strongly convex)."""
    X, y = data()
    rng = np.random.RandomState(0)
    sw = rng.randint(1, 4, size=len(y)).astype(float)
    a = nesvm.LinearSVR(C=1.0, epsilon=0.2, tol=1e-9, max_iter=100000).fit(X, y, sample_weight=sw)
    idx = np.repeat(np.arange(len(y)), sw.astype(int))
    b = nesvm.LinearSVR(C=1.0, epsilon=0.2, tol=1e-9, max_iter=100000).fit(X[idx], y[idx])
    Pa = primal(a, X, y, 1.0, 0.2, False, sw)
    Pb = primal(b, X, y, 1.0, 0.2, False, sw)
    assert abs(Pa - Pb) <= 1e-7 * Pb
    assert np.allclose(a.coef_, b.coef_, atol=1e-3) and abs(a.intercept_[0] - b.intercept_[0]) <= 1e-3
    # weight 0 removes a row
    sw0 = np.ones(len(y))
    sw0[:50] = 0
    c = nesvm.LinearSVR(C=1.0, epsilon=0.2, tol=1e-9, max_iter=100000).fit(X, y, sample_weight=sw0)
    d = nesvm.LinearSVR(C=1.0, epsilon=0.2, tol=1e-9, max_iter=100000).fit(X[50:], y[50:])
    assert np.array_equal(c.coef_, d.coef_) and np.array_equal(c.intercept_, d.intercept_)


def test_sparse_dense_score_pickle_pipeline():
    X, y = make_friedman1(n_samples=400, n_features=8, noise=0.5, random_state=1)
    dense = nesvm.LinearSVR(C=1.0, epsilon=0.1, tol=1e-9, max_iter=100000).fit(X, y)
    sparse = nesvm.LinearSVR(C=1.0, epsilon=0.1, tol=1e-9, max_iter=100000).fit(sp.csr_matrix(X), y)
    assert np.allclose(dense.coef_, sparse.coef_, rtol=1e-6, atol=1e-8)
    f = dense.predict(X)
    assert np.allclose(f, X @ dense.coef_ + dense.intercept_[0])
    r2 = 1 - ((y - f) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    assert dense.score(X, y) == pytest.approx(r2) and r2 > 0.6
    back = pickle.loads(pickle.dumps(dense))
    assert np.array_equal(back.predict(X), f)
    grid = GridSearchCV(make_pipeline(StandardScaler(), nesvm.LinearSVR(max_iter=100000)),
                        {"linearsvr__C": [0.1, 1.0], "linearsvr__epsilon": [0.0, 0.5]}, cv=3).fit(X, y)
    assert grid.best_score_ > 0.6


def test_bad_parameters():
    X, y = data()
    for kw, msg in [({"loss": "hinge"}, "loss must be"), ({"C": 0}, "C must be"), ({"epsilon": -1}, "epsilon must be"),
                    ({"C": np.inf}, "C must be"), ({"tol": np.nan}, "tol must be"),
                    ({"intercept_scaling": 0}, "intercept_scaling must be"), ({"max_iter": 0}, "max_iter must be")]:
        with pytest.raises(ValueError, match=msg):
            nesvm.LinearSVR(**kw).fit(X, y)
    with pytest.raises(ValueError, match="non-negative"):
        nesvm.LinearSVR().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError):
        nesvm.LinearSVR().fit(X, np.where(np.arange(len(y)) == 3, np.nan, y))


def test_max_iter_warns():
    X, y = data()
    with pytest.warns(ConvergenceWarning, match="stopped before its certificate"):
        est = nesvm.LinearSVR(C=100.0, tol=1e-12, max_iter=2).fit(X, y)
    assert est.fit_status_ == 1 and est.n_iter_ == 2
