"""test_nu.py - nesvm.NuSVC and nesvm.NuSVR (issue 33): scikit-learn's
check_estimator, the problems against scikit-learn's NuSVC and NuSVR (LIBSVM
inside, the same scaling), recomputed with numpy from dual_coef_,
support_vectors_ and intercept_ (nu-SVC's unscaled by rho: nesvm's rho_,
LIBSVM's r = nu W / sum |dual_coef_|):

    nu-SVC  P = 1/2 beta'K beta + sum_sign min_l [sum_{y=sign} s_i max(0, l - y_i f_i) - l nu W / 2],
            D = -1/2 beta'K beta
    nu-SVR  P = 1/2 beta'K beta + C sum_sign min_l [...] on the residuals,  D = y'beta - 1/2 beta'K beta

weak duality both ways, the w-part of the decision values within what the
gaps allow (||w1 - w2|| <= sqrt(2 (P1 - P*)) + sqrt(2 (P2 - P*))), the
decision values themselves; sample weights as repeated rows, the CLI's models,
class_weight ignored as scikit-learn's, pickling, bad input.
"""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file, make_blobs, make_friedman1
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import NuSVC as SkNuSVC
from sklearn.svm import NuSVR as SkNuSVR
from sklearn.utils.estimator_checks import check_estimator

import nesvm

HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"


def kernel(A, B, name, g):
    if name == "linear":
        return A @ B.T
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-g * np.maximum(d2, 0))


def dense(M):
    return M.toarray() if sp.issparse(M) else np.asarray(M)


def heart():
    X, y = load_svmlight_file(HEART)
    return X.toarray(), y


def min_hinge(G, c, R):
    """min_l sum c_i max(0, l - G_i) - l R, at a breakpoint."""
    o = np.argsort(G, kind="stable")
    Gs, cs = G[o], c[o]
    below = np.concatenate([[0], np.cumsum(cs)[:-1]])
    below_g = np.concatenate([[0], np.cumsum(cs * Gs)[:-1]])
    return (Gs * below - below_g - R * Gs).min()


def objectives(S, beta, X, y, name, g, nu, svr=False, C=1.0, s=None):
    """(P, -1/2 beta'K beta) of the expansion beta over S (unscaled) on (X, y):
    nu-SVC's D; nu-SVR's D adds y'beta."""
    s = np.ones(len(X)) if s is None else s
    c = C * s if svr else s
    R = 0.5 * nu * c.sum()
    f = kernel(X, S, name, g) @ beta
    quad = beta @ kernel(S, S, name, g) @ beta
    if svr:
        r = y - f
        grads = [(-r, c), (r, c)]
    else:
        grads = [(f[y > 0], c[y > 0]), (-f[y < 0], c[y < 0])]
    P = 0.5 * quad + sum(min_hinge(G, cc, R) for G, cc in grads)
    return P, -0.5 * quad


def rows_of(S, X):
    """Each row of S's index in X."""
    return np.array([int(np.argmin(((X - row) ** 2).sum(1))) for row in S])


@pytest.mark.parametrize("est", [nesvm.NuSVC(), nesvm.NuSVC(kernel="linear"), nesvm.NuSVC(kernel="precomputed"),
                                 nesvm.NuSVR(), nesvm.NuSVR(kernel="linear"), nesvm.NuSVR(kernel="precomputed")],
                         ids=lambda e: "%s-%s" % (type(e).__name__, e.kernel))
def test_check_estimator(est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check_estimator(est)


@pytest.mark.parametrize("kernel_name,nu", [("rbf", 0.1), ("rbf", 0.5), ("rbf", 0.8), ("linear", 0.5)])
def test_nusvc_against_scikit_learn(kernel_name, nu):
    X, y = heart()
    g = 0.0625
    ours = nesvm.NuSVC(kernel=kernel_name, gamma=g, nu=nu, tol=1e-9).fit(X, y)
    theirs = SkNuSVC(kernel=kernel_name, gamma=g, nu=nu, tol=1e-9).fit(X, y)
    yy = np.where(y == ours.classes_[1], 1.0, -1.0)
    # the models as their decision functions: dual_coef_ @ K + intercept_
    for est in (ours, theirs):
        dec = kernel(X, dense(est.support_vectors_), kernel_name, g) @ dense(est.dual_coef_).ravel() + est.intercept_
        assert np.allclose(dec, est.decision_function(X), rtol=0, atol=1e-9)
    rho = float(ours.rho_[0])
    cs = dense(theirs.dual_coef_).ravel()
    r = nu * len(X) / np.abs(cs).sum()  # LIBSVM's scale: sum |a| = nu W
    Sn, bn = dense(ours.support_vectors_), dense(ours.dual_coef_).ravel() * rho
    Ss, bs = dense(theirs.support_vectors_), cs * r
    assert ours.fit_status_ == 0 and ours.gap_ <= 1e-9 and abs(rho - r) <= 1e-4 * r
    assert np.abs(bn).max() <= 1 + 1e-9 and abs(np.abs(bn).sum() - nu * len(X)) <= 1e-9 * len(X)
    Pn, Dn = objectives(Sn, bn, X, yy, kernel_name, g, nu)
    Ps, Ds = objectives(Ss, bs, X, yy, kernel_name, g, nu)
    fuzz = 1e-9 * abs(Pn) + 1e-7 * (np.abs(bs) @ np.abs(kernel(Ss, Ss, kernel_name, g)) @ np.abs(bs))
    assert Pn >= Ds - fuzz and Ps >= Dn - fuzz  # weak duality, each against the other
    assert Pn - Dn <= 2e-9 * abs(Pn) + 1e-12  # nesvm's certificate, recomputed
    star = max(Dn, Ds - fuzz)
    bound = np.sqrt(2 * max(Pn - star, 0)) + np.sqrt(2 * max(Ps - star, 0))
    rad = 1.0 if kernel_name == "rbf" else np.sqrt((X * X).sum(1).max())
    wn, ws = kernel(X, Sn, kernel_name, g) @ bn, kernel(X, Ss, kernel_name, g) @ bs
    assert np.abs(wn - ws).max() <= bound * rad + 1e-9
    dn, ds = ours.decision_function(X), theirs.decision_function(X)
    assert np.abs(dn - ds).max() <= 1e-3 * np.abs(ds).max()
    keep = np.abs(ds) > 1e-3 * np.abs(ds).max()
    assert np.array_equal(ours.predict(X)[keep], theirs.predict(X)[keep])
    # nu's bounds: margin errors at most nu n, support vectors at least nu n
    assert (yy * dn < 1 - 1e-6).sum() <= nu * len(X) <= ours.n_support_.sum()
    if kernel_name == "linear":
        assert np.allclose(ours.coef_, dense(ours.dual_coef_) @ Sn)
    else:
        with pytest.raises(AttributeError):
            ours.coef_


def test_nusvc_multiclass():
    X, y = make_blobs(240, 3, centers=3, cluster_std=2.5, random_state=5)
    y = np.array(["a", "b", "c"])[y]
    ours = nesvm.NuSVC(nu=0.3, gamma=0.3, tol=1e-9, decision_function_shape="ovo").fit(X, y)
    theirs = SkNuSVC(nu=0.3, gamma=0.3, tol=1e-9, decision_function_shape="ovo").fit(X, y)
    dn, ds = ours.decision_function(X), theirs.decision_function(X)
    assert dn.shape == ds.shape == (240, 3) and ours.rho_.shape == (3,) and (ours.rho_ > 0).all()
    assert np.abs(dn - ds).max() <= 1e-3 * np.abs(ds).max()
    ours.set_params(decision_function_shape="ovr")
    theirs.set_params(decision_function_shape="ovr")
    assert np.abs(ours.decision_function(X) - theirs.decision_function(X)).max() <= 1e-3 * 3
    sure = np.sort(np.abs(ds), axis=1)[:, 0] > 1e-3
    assert np.array_equal(ours.predict(X)[sure], theirs.predict(X)[sure])
    assert list(ours.classes_) == ["a", "b", "c"]


@pytest.mark.parametrize("kernel_name,nu,C", [("rbf", 0.1, 1.0), ("rbf", 0.5, 10.0), ("linear", 0.5, 1.0)])
def test_nusvr_against_scikit_learn(kernel_name, nu, C):
    X, y = make_friedman1(300, 5, noise=1.0, random_state=2)
    g = 0.25
    ours = nesvm.NuSVR(kernel=kernel_name, gamma=g, nu=nu, C=C, tol=1e-9).fit(X, y)
    theirs = SkNuSVR(kernel=kernel_name, gamma=g, nu=nu, C=C, tol=1e-9).fit(X, y)
    Sn, bn = dense(ours.support_vectors_), dense(ours.dual_coef_).ravel()
    Ss, bs = dense(theirs.support_vectors_), dense(theirs.dual_coef_).ravel()
    assert ours.fit_status_ == 0 and ours.gap_ <= 1e-9 and np.abs(bn).max() <= C * (1 + 1e-12)
    Pn, qn = objectives(Sn, bn, X, y, kernel_name, g, nu, True, C)
    Ps, qs = objectives(Ss, bs, X, y, kernel_name, g, nu, True, C)
    Dn = y[ours.support_] @ bn + qn
    Ds = y[rows_of(Ss, X)] @ bs + qs
    fuzz = 1e-9 * abs(Pn)
    assert Pn >= Ds - fuzz and Ps >= Dn - fuzz
    assert Pn - Dn <= 2e-9 * abs(Pn)
    star = max(Dn, Ds)
    bound = np.sqrt(2 * max(Pn - star, 0)) + np.sqrt(2 * max(Ps - star, 0))
    rad = 1.0 if kernel_name == "rbf" else np.sqrt((X * X).sum(1).max())
    wn, ws = kernel(X, Sn, kernel_name, g) @ bn, kernel(X, Ss, kernel_name, g) @ bs
    assert np.abs(wn - ws).max() <= bound * rad + 1e-9
    pn, ps = ours.predict(X), theirs.predict(X)
    assert np.abs(pn - ps).max() <= 1e-3 * np.abs(ps).max()
    # nu's bounds on the tube: rows outside at most nu n, support vectors at least nu n
    eps = ours.epsilon_
    assert eps > 0 and (np.abs(y - pn) > eps + 1e-6).sum() <= nu * len(X) <= ours.n_support_[0]
    if kernel_name == "linear":
        assert np.allclose(ours.coef_, bn @ Sn)


@pytest.mark.parametrize("kind", ["svc", "svr"])
def test_sample_weight_as_repeated_rows(kind):
    X, y = heart()
    X, y = X[:160], y[:160]
    if kind == "svr":
        y = X[:, 0] * 2 + X[:, 1] ** 2
    sw = np.where(np.arange(160) % 6 == 0, 2.0, 1.0)
    rep = np.flatnonzero(sw == 2)
    Xr, yr = np.vstack([X, X[rep]]), np.concatenate([y, y[rep]])
    make = (lambda: nesvm.NuSVC(gamma=0.1, nu=0.4, tol=1e-10)) if kind == "svc" else \
        (lambda: nesvm.NuSVR(gamma=0.1, nu=0.4, C=2, tol=1e-10))
    a, b = make().fit(X, y, sample_weight=sw), make().fit(Xr, yr)
    da = a.decision_function(X) if kind == "svc" else a.predict(X)
    db = b.decision_function(X) if kind == "svc" else b.predict(X)
    assert np.abs(da - db).max() <= 1e-6 * np.abs(db).max()
    assert dense(a.dual_coef_).max() * (a.rho_[0] if kind == "svc" else 0.5) <= 2 + 1e-9


def test_equals_cli(tmp_path):
    binary = os.environ.get("NESVM_BIN")
    if not binary:
        pytest.skip("NESVM_BIN not set")
    X, y = heart()
    est = nesvm.NuSVC(gamma=0.0625, nu=0.3, tol=1e-6).fit(X, y)
    model = str(tmp_path / "nu.model")
    subprocess.run([binary, "train", "-q", "-s", "1", "-t", "rbf", "-g", "0.0625", "-n", "0.3", "-e", "1e-6", HEART,
                    model], check=True)
    m = nesvm.load_model(model)
    _, dec = m.predict(X)
    # the model's positive class is heart_scale's first label (+1): classes_[1]
    assert np.array_equal(dec[:, 0], est.decision_function(X)) and m.nu_value(0) == est.rho_[0]


def test_class_weight_ignored_pickle_pipeline():
    X, y = heart()
    a = nesvm.NuSVC(nu=0.3).fit(X, y)
    b = nesvm.NuSVC(nu=0.3, class_weight={1.0: 5.0}).fit(X, y)
    c = nesvm.NuSVC(nu=0.3, class_weight="balanced").fit(X, y)
    assert np.array_equal(a.decision_function(X), b.decision_function(X))
    assert np.array_equal(a.decision_function(X), c.decision_function(X))
    with pytest.raises(ValueError, match="class_weight names the label 7"):
        nesvm.NuSVC(class_weight={7: 2.0}).fit(X, y)
    back = pickle.loads(pickle.dumps(a))
    assert np.array_equal(back.decision_function(X), a.decision_function(X)) and np.array_equal(back.rho_, a.rho_)
    s = nesvm.NuSVC(nu=0.3, gamma=0.1, tol=1e-10).fit(sp.csr_matrix(X), y)
    d = nesvm.NuSVC(nu=0.3, gamma=0.1, tol=1e-10).fit(X, y)
    assert np.allclose(s.decision_function(sp.csr_matrix(X)), d.decision_function(X), rtol=0, atol=1e-6)
    pipe = make_pipeline(StandardScaler(), nesvm.NuSVR(nu=0.2)).fit(X, y)
    assert pipe.predict(X).shape == (270,)
    K = kernel(X, X, "rbf", 0.0625)
    pc = nesvm.NuSVC(kernel="precomputed", nu=0.3, tol=1e-9).fit(K, y)
    rb = nesvm.NuSVC(gamma=0.0625, nu=0.3, tol=1e-9).fit(X, y)
    assert np.abs(pc.decision_function(K) - rb.decision_function(X)).max() <= 1e-6


def test_bad_input():
    X, y = heart()
    for est in (nesvm.NuSVC, nesvm.NuSVR):
        for nu in (0, 1.5, -0.1, float("nan"), "half"):
            with pytest.raises(ValueError, match="nu must be in"):
                est(nu=nu).fit(X, y)
        with pytest.raises(ValueError, match="not positive semi-definite"):
            est(kernel="sigmoid").fit(X, y)
        with pytest.raises(NotFittedError):
            est().predict(X)
    with pytest.raises(ValueError, match="specified nu is infeasible .* the largest feasible nu for them is 0.888888"):
        nesvm.NuSVC(nu=0.95).fit(X, y)
    Xs = np.vstack([X[:20], X[:20]])
    with pytest.raises(ValueError, match="its optimum is w = 0"):  # identical classes: w = 0 at every nu
        nesvm.NuSVC(nu=0.5).fit(Xs, np.repeat([1, -1], 20))
    est = nesvm.NuSVR().fit(X, y)
    with pytest.raises(ValueError):
        est.predict(X[:, :5])


def test_max_iter_warns():
    X, y = heart()
    with pytest.warns(ConvergenceWarning, match="stopped before its certificate"):
        est = nesvm.NuSVR(tol=1e-12, max_iter=1, nu=0.5).fit(X, y)
    assert est.fit_status_ == 1
