"""test_regressors.py - nesvm.LinearSVR and nesvm.SVR (issue 32): scikit-learn's
check_estimator, the objective against scikit-learn's LinearSVR (LIBLINEAR
inside) and SVR (LIBSVM inside) on the same problem, sample weights against
repeated rows, R^2, pickling, Pipeline and GridSearchCV.  LinearSVR's problem,
recomputed here with numpy from coef_ and intercept_ (the intercept a
regularized feature of value intercept_scaling):

    P = 1/2 (||coef_||^2 + (intercept_ / s)^2) + C sum_i w_i l(y_i - coef_.x_i - intercept_)

SVR's (the second half of this file) from dual_coef_, support_ and intercept_.
"""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR as SkSVR
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


# ------------------------------------------------------------------------- SVR
# scikit-learn's SVR problem (LIBSVM -s 3), f = sum_j beta_j K(x_j, .) over the
# training rows (beta from support_ and dual_coef_) and a free bias b:
#   P(beta, b) = 1/2 beta' K beta + C sum_i w_i max(0, |y_i - (K beta)_i - b| - epsilon)
#   D(beta)    = -1/2 beta' K beta + y' beta - epsilon ||beta||_1
#                on sum_i beta_i = 0, |beta_i| <= C w_i;  D(beta) <= P* <= P(beta', b')
# Both computed here with numpy from the fitted attributes, for either library.

GAMMA = 0.1
BIN = os.environ.get("NESVM_BIN", "nesvm")


def kernel(name, A, B, gamma=GAMMA, coef0=0.0, degree=3):
    """K(A, B) as scikit-learn and LIBSVM define it."""
    G = A @ B.T
    if name == "linear":
        return G
    if name == "poly":
        return (gamma * G + coef0) ** degree
    sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * G
    return np.exp(-gamma * np.maximum(sq, 0.0))


def expansion(est, n):
    """beta over the n training rows, from support_ and dual_coef_."""
    beta = np.zeros(n)
    dual = est.dual_coef_.toarray() if sp.issparse(est.dual_coef_) else est.dual_coef_
    np.add.at(beta, est.support_, np.ravel(dual))
    return beta


def svr_primal(beta, b, K, y, C, eps, w):
    f = K @ beta + b
    return 0.5 * beta @ K @ beta + C * (w * np.maximum(np.abs(y - f) - eps, 0.0)).sum()


def svr_dual(beta, K, y, C, eps, w):
    """D at beta made feasible: clipped to the box, the larger sign scaled down to sum 0."""
    beta = np.clip(beta, -C * w, C * w)
    pos, neg = beta[beta > 0].sum(), -beta[beta < 0].sum()
    if pos > neg:
        beta = np.where(beta > 0, beta * (neg / pos), beta)
    elif neg > pos:
        beta = np.where(beta < 0, beta * (pos / neg), beta)
    return -0.5 * beta @ K @ beta + y @ beta - eps * np.abs(beta).sum()


def bias_minimizers_width(r, eps, w):
    """The length of the set of b minimizing sum_i w_i max(0, |r_i - b| - eps): the
    pieces between breakpoints r_i -+ eps where the slope (sum of w_i right of the
    tube minus left of it) is 0."""
    t = np.sort(np.concatenate([r - eps, r + eps]))
    mid = 0.5 * (t[1:] + t[:-1])
    slope = (w * (mid[:, None] > r + eps)).sum(1) - (w * (mid[:, None] < r - eps)).sum(1)
    return float(np.diff(t)[slope == 0].sum())


def prediction_bound(ka, kb, s_a, s_b, K, y, C, eps, w, kxx):
    """How far two solutions (fitted kernel parts ka = K beta_a, kb = K beta_b at
    the training rows) of suboptimality at most s_a, s_b may predict apart at
    points where K(x, x) = kxx, for integer weights w:
    - f: P is 1-strongly convex in f (RKHS norm), so ||f_a - f*|| <= sqrt(2 s_a)
      and |f_a(x) - f_b(x)| <= (sqrt(2 s_a) + sqrt(2 s_b)) sqrt(K(x, x));
    - b: for a fixed f, P is piecewise linear in b with slopes in multiples of C
      (integer weights), so b_a lies within s_a / C of the minimizers for f_a;
      moving every residual by at most delta = max_i |f_a(x_i) - f_b(x_i)| moves
      those by at most delta, so |b_a - b_b| <= (s_a + s_b)/C + delta + (their
      width for f_b)."""
    delta = float(np.abs(ka - kb).max())
    db = (s_a + s_b) / C + delta + bias_minimizers_width(y - kb, eps, w)
    return (np.sqrt(2 * s_a) + np.sqrt(2 * s_b)) * np.sqrt(kxx) + db


def friedman(n, random_state=0):
    return make_friedman1(n_samples=n, n_features=10, noise=1.0, random_state=random_state)


@pytest.mark.parametrize("kernel_name", ["rbf", "linear"])
def test_svr_check_estimator(kernel_name):
    # one check skipped, as scikit-learn's own SVR skips it (SVR._more_tags)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check_estimator(nesvm.SVR(kernel=kernel_name))


@pytest.mark.parametrize("kernel_name", ["rbf", "linear", "poly"])
def test_svr_against_scikit_learn(kernel_name):
    """On a small Friedman #1: nesvm's objective at or below scikit-learn's
    (LIBSVM's at tol=1e-8) up to nesvm's certified gap; that gap checked against
    an independent lower bound (the dual at either model's coefficients); the
    predictions within the distance the two suboptimalities allow
    (prediction_bound).  nesvm's tol is 1e-8, as scikit-learn's."""
    X, y = friedman(200)
    Xt, _ = friedman(100, random_state=1)
    C, eps, n, w = 1.0, 0.1, len(y), np.ones(len(y))
    ours = nesvm.SVR(kernel=kernel_name, gamma=GAMMA, C=C, epsilon=eps, tol=1e-8).fit(X, y)
    theirs = SkSVR(kernel=kernel_name, gamma=GAMMA, C=C, epsilon=eps, tol=1e-8).fit(X, y)
    assert ours.fit_status_ == 0 and 0 <= ours.gap_ <= 1e-8
    K = kernel(kernel_name, X, X)
    ba, bs = expansion(ours, n), expansion(theirs, n)
    Pa = svr_primal(ba, ours.intercept_[0], K, y, C, eps, w)
    Ps = svr_primal(bs, theirs.intercept_[0], K, y, C, eps, w)
    Ds = svr_dual(bs, K, y, C, eps, w)
    lower = max(svr_dual(ba, K, y, C, eps, w), Ds)
    rel = 1e-12 * Pa  # rounding in the sums here
    # Pa - P* <= gap_ Pa (nesvm's certificate) and P* <= Ps
    assert Pa <= Ps + ours.gap_ * Pa + rel, (Pa, Ps, ours.gap_)
    # the certificate against the independent bound: Pa - lower <= (Pa - P*) + (Ps - Ds)
    assert Pa - lower <= ours.gap_ * Pa + (Ps - Ds) + rel, (Pa, lower, ours.gap_, Ps - Ds)
    # predictions: the expansion's (as scikit-learn's layout says), then against scikit-learn's
    mine = ours.predict(Xt)
    Kt = kernel(kernel_name, Xt, ours.support_vectors_)
    np.testing.assert_allclose(mine, Kt @ ours.dual_coef_[0] + ours.intercept_[0], rtol=1e-12, atol=1e-12)
    kxx = np.diag(kernel(kernel_name, Xt, Xt))
    bound = prediction_bound(K @ ba, K @ bs, Pa - lower, Ps - lower, K, y, C, eps, w, kxx)
    diff = np.abs(mine - theirs.predict(Xt))
    assert (diff <= bound).all(), (diff.max(), bound.min())
    if kernel_name == "linear":
        # coef_ = dual_coef_ @ support_vectors_, within sqrt(2 s_a) + sqrt(2 s_b) of scikit-learn's
        assert ours.coef_.shape == theirs.coef_.shape == (1, X.shape[1])
        dw = np.linalg.norm(ours.coef_ - theirs.coef_)
        assert dw <= np.sqrt(2 * (Pa - lower)) + np.sqrt(2 * (Ps - lower)), dw


def test_svr_fitted_attributes():
    """scikit-learn's layout, types and shapes; coef_ only for the linear kernel."""
    X, y = friedman(120)
    for kname in ["rbf", "linear"]:
        ours = nesvm.SVR(kernel=kname, C=2.0, epsilon=0.2).fit(X, y)
        theirs = SkSVR(kernel=kname, C=2.0, epsilon=0.2).fit(X, y)
        for a in ["support_", "support_vectors_", "dual_coef_", "intercept_", "n_support_"]:
            mine, want = getattr(ours, a), getattr(theirs, a)
            assert type(mine) is type(want) and mine.dtype == want.dtype and mine.ndim == want.ndim, a
        nsv = ours.support_.size
        assert ours.dual_coef_.shape == (1, nsv) and ours.support_vectors_.shape == (nsv, X.shape[1])
        assert ours.intercept_.shape == (1,) and list(ours.n_support_) == [nsv]
        assert np.array_equal(ours.support_vectors_, X[ours.support_])
        assert np.all(np.diff(ours.support_) > 0)  # ascending training rows, as LIBSVM's
        assert np.all(ours.dual_coef_ != 0)
        # the dual's beta (the working set's): in the box |beta_i| <= C and summing to
        # 0 (the free bias), for the singular linear kernel (rank 10 < n_SV) too
        assert np.all(np.abs(ours.dual_coef_) <= 2.0)
        assert abs(ours.dual_coef_.sum()) <= 1e-12 * nsv * 2.0
        assert ours.shape_fit_ == theirs.shape_fit_ == X.shape and ours.n_features_in_ == 10
        assert type(ours.n_iter_) is int and ours.n_iter_ >= 1 and ours.fit_status_ == 0
        assert isinstance(ours.gap_, float) and ours.gap_ <= 1e-3
        if kname == "linear":
            coef = ours.coef_
            np.testing.assert_allclose(coef, ours.dual_coef_ @ ours.support_vectors_, rtol=1e-14)
            assert not coef.flags.writeable
            np.testing.assert_allclose(ours.predict(X), X @ coef[0] + ours.intercept_[0], rtol=1e-10)
        else:
            with pytest.raises(AttributeError, match="only available when using a linear kernel"):
                ours.coef_
    # sparse input: sparse support vectors and dual coefficients (scikit-learn's), the same model
    dense = nesvm.SVR(gamma=GAMMA).fit(X, y)
    sparse = nesvm.SVR(gamma=GAMMA).fit(sp.csr_matrix(X), y)
    assert sp.issparse(sparse.support_vectors_) and sp.issparse(sparse.dual_coef_)
    assert np.array_equal(sparse.support_, dense.support_)
    np.testing.assert_allclose(sparse.predict(X), dense.predict(X), rtol=1e-9)
    with pytest.raises(NotFittedError):
        nesvm.SVR().predict(X)


def test_svr_gamma_and_wide_tube():
    """gamma='scale' is 1 / (n_features X.var()) (scikit-learn's): the same model as
    that number.  A tube wider than the targets' spread: the optimum is f = 0 with
    every target inside the tube, no support vector (scikit-learn's empty layout)."""
    X, y = friedman(100)
    a = nesvm.SVR(gamma="scale").fit(X, y)
    b = nesvm.SVR(gamma=1.0 / (X.shape[1] * X.var())).fit(X, y)
    assert np.array_equal(a.predict(X), b.predict(X))
    eps = (y.max() - y.min()) / 2 + 0.5
    est = nesvm.SVR(epsilon=eps).fit(X, y)
    assert est.support_.shape == (0,) and est.dual_coef_.shape == (1, 0) and list(est.n_support_) == [0]
    assert est.support_vectors_.shape == (0, 10) and est.fit_status_ == 0
    f = est.predict(X)
    assert np.all(f == est.intercept_[0]) and np.all(np.abs(y - f) <= eps)


def test_svr_equals_cli(tmp_path):
    """SVR's parameters are the CLI's -s 3 -p -c -t -g -e: the same predictions
    as `nesvm predict` on the model `nesvm train` writes from the same rows."""
    X, y = friedman(150)
    data = tmp_path / "fr.txt"
    nesvm.write_libsvm(data, X, y)
    model = tmp_path / "fr.model"
    subprocess.run([BIN, "train", "-q", "-s", "3", "-p", "0.2", "-c", "3", "-t", "2", "-g", "0.05", "-e", "1e-6",
                    str(data), str(model)], check=True, capture_output=True)
    subprocess.run([BIN, "predict", str(data), str(model), str(tmp_path / "out")], check=True, capture_output=True)
    cli = np.loadtxt(tmp_path / "out")
    Xf, yf = nesvm.read_libsvm(data)
    est = nesvm.SVR(C=3.0, epsilon=0.2, gamma=0.05, tol=1e-6).fit(Xf.toarray(), yf)
    np.testing.assert_allclose(est.predict(Xf.toarray()), cli, rtol=1e-12, atol=1e-12)


def test_svr_sample_weight_as_repeated_rows():
    """Weights 1 and 2 against rows given once and twice: the same problem, so the
    same objective within both certified gaps, predictions within
    prediction_bound; the unweighted model is worse on the weighted problem (so
    the weights are used); weight 0 is the row removed, exactly, with support_
    indexing the rows given."""
    X, y = friedman(150, random_state=2)
    C, eps, n = 1.0, 0.1, len(y)
    w = np.random.RandomState(0).randint(1, 3, size=n).astype(float)
    idx = np.repeat(np.arange(n), w.astype(int))
    kw = dict(gamma=GAMMA, C=C, epsilon=eps, tol=1e-7)
    a = nesvm.SVR(**kw).fit(X, y, sample_weight=w)
    b = nesvm.SVR(**kw).fit(X[idx], y[idx])
    u = nesvm.SVR(**kw).fit(X, y)
    K = kernel("rbf", X, X)
    ba = expansion(a, n)
    bb = np.bincount(idx[b.support_], weights=b.dual_coef_[0], minlength=n)
    Pa = svr_primal(ba, a.intercept_[0], K, y, C, eps, w)
    Pb = svr_primal(bb, b.intercept_[0], K, y, C, eps, w)
    Pu = svr_primal(expansion(u, n), u.intercept_[0], K, y, C, eps, w)
    assert abs(Pa - Pb) <= max(a.gap_ * Pa, b.gap_ * Pb) + 1e-12 * Pa, (Pa, Pb)
    assert Pu > Pa + a.gap_ * Pa, (Pu, Pa)
    bound = prediction_bound(K @ ba, K @ bb, a.gap_ * Pa, b.gap_ * Pb, K, y, C, eps, w, np.ones(n))
    assert (np.abs(a.predict(X) - b.predict(X)) <= bound).all()
    w0 = np.ones(n)
    w0[:30] = 0
    c = nesvm.SVR(**kw).fit(X, y, sample_weight=w0)
    d = nesvm.SVR(**kw).fit(X[30:], y[30:])
    assert np.array_equal(c.predict(X), d.predict(X))
    assert np.array_equal(c.support_, d.support_ + 30) and np.array_equal(c.dual_coef_, d.dual_coef_)


def test_svr_pipeline_grid_score_pickle():
    """In a Pipeline under GridSearchCV: the cross-validated R^2 of every grid point
    within 1e-3 of scikit-learn's SVR on the same grid (the scores of different
    grid points lie 7e-3 and more apart; at these tolerances they agree to 3e-5),
    so the same choice; score is R^2; a pickled estimator predicts the same."""
    X, y = friedman(300, random_state=3)
    grid = {"svr__C": [1.0, 10.0], "svr__epsilon": [0.1, 0.5], "svr__gamma": ["scale", 0.05]}
    ours = GridSearchCV(make_pipeline(StandardScaler(), nesvm.SVR(tol=1e-5)), grid, cv=3).fit(X, y)
    theirs = GridSearchCV(make_pipeline(StandardScaler(), SkSVR(tol=1e-6)), grid, cv=3).fit(X, y)
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"], theirs.cv_results_["mean_test_score"],
                               atol=1e-3)
    assert ours.best_params_ == theirs.best_params_ and ours.best_score_ > 0.6
    est = ours.best_estimator_
    f = est.predict(X)
    assert est.score(X, y) == pytest.approx(1 - ((y - f) ** 2).sum() / ((y - y.mean()) ** 2).sum())
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.predict(X), f)
    svr = est[-1]
    assert np.array_equal(back[-1].dual_coef_, svr.dual_coef_) and back[-1].gap_ == svr.gap_


def test_svr_bad_input():
    X, y = friedman(60)
    for kw, msg in [({"epsilon": -0.1}, "epsilon must be"), ({"epsilon": np.nan}, "epsilon must be"),
                    ({"kernel": "precomputed"}, "Precomputed matrix must be a square matrix. Input is a 60x10 matrix"),
                    ({"kernel": lambda a, b: a @ b.T}, "callable kernel.*sklearn.svm.SVR"),
                    ({"kernel": "sigmoid"}, "kernel='sigmoid' is not positive semi-definite.*sklearn.svm.SVR"),
                    ({"kernel": "poly", "coef0": -1.0},
                     "kernel='poly' with coef0 < 0 is not positive semi-definite.*sklearn.svm.SVR"),
                    ({"kernel": "laplacian"}, "kernel must be one of"),
                    ({"C": 0}, "C must be"), ({"C": -1.0}, "C must be"), ({"C": np.inf}, "C must be"),
                    ({"tol": 0}, "tol must be"), ({"tol": 1.0}, r"tol must be in \[1e-15, 1\)"),
                    ({"gamma": -1.0}, "gamma must be"), ({"gamma": "big"}, "gamma must be"),
                    ({"degree": -1}, "degree must be"), ({"degree": 2.5}, "degree must be"),
                    ({"coef0": np.nan}, "coef0 must be"), ({"max_iter": 0}, "max_iter must be"),
                    ({"max_iter": 2.5}, "max_iter must be"), ({"cache_size": 0}, "cache_size must be"),
                    ({"shrinking": "yes"}, "shrinking must be"), ({"n_jobs": 0}, "n_jobs must be"),
                    ({"kernel_memory": 0}, "kernel_memory must be")]:
        with pytest.raises(ValueError, match=msg):
            nesvm.SVR(**kw).fit(X, y)
    for bad in [np.nan, np.inf]:
        yb = y.copy()
        yb[3] = bad
        with pytest.raises(ValueError, match="NaN|infinity"):
            nesvm.SVR().fit(X, yb)
    with pytest.raises(ValueError, match="non-negative"):
        nesvm.SVR().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="zero for every sample"):
        nesvm.SVR().fit(X, y, sample_weight=np.zeros(len(y)))
    # a fit that fails leaves the estimator unfitted, not with the previous model
    est = nesvm.SVR().fit(X, y)
    est.set_params(epsilon=-1.0)
    with pytest.raises(ValueError):
        est.fit(X, y)
    with pytest.raises(NotFittedError):
        est.predict(X)


def test_svr_max_iter():
    X, y = friedman(100)
    with pytest.warns(ConvergenceWarning, match="stopped before its certificate"):
        est = nesvm.SVR(C=100.0, tol=1e-12, max_iter=1).fit(X, y)
    assert est.fit_status_ == 1 and est.n_iter_ == 1
    # -1: no limit (nesvm's own default stops at 100000 iterations)
    assert int(nesvm.SVR().fit(X, y)._fitted.model.param("max_iter")) >= 2**62
