"""test_novelty.py - nesvm.OneClassSVM (issue 33): scikit-learn's check_estimator,
the problem against scikit-learn's OneClassSVM (LIBSVM inside, the same
scaling), recomputed with numpy from dual_coef_, support_vectors_ and offset_:

    dual    min_a 1/2 a'K a,   0 <= a_i <= s_i,   sum a = nu sum_i s_i
    primal  P(w, rho) = 1/2 a'K a + sum_i s_i max(0, rho - (K a)_i) - nu (sum_i s_i) rho

(the decision value f(x) - rho, +1 where it is > 0); weak duality both ways,
the decision values within what the gaps allow (||w1 - w2|| <= sqrt(2 (P1 -
P*)) + sqrt(2 (P2 - P*)), P* at least the better lower bound, K(x, x) = 1 for
RBF), sample weights as repeated rows, the CLI's -s 2 model, pickling and
Pipeline, bad input.
"""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import OneClassSVM as SkOneClassSVM
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


def objectives(est, X, name, g, nu, sw=None):
    """(P, D) of est's solution: P at its own rho, D of its coefficients made
    feasible (the sum's rounding moved onto the one with the most room)."""
    S, a = dense(est.support_vectors_), dense(est.dual_coef_).ravel()
    s = np.ones(len(X)) if sw is None else sw
    nuw = nu * s.sum()
    f = kernel(X, S, name, g) @ a
    rho = float(np.ravel(est.offset_)[0])
    quad = a @ kernel(S, S, name, g) @ a
    P = 0.5 * quad + (s * np.maximum(rho - f, 0)).sum() - nuw * rho
    cap = s[est.support_]
    j = np.argmax(cap - a if a.sum() < nuw else a)
    af = a.copy()
    af[j] += nuw - a.sum()
    assert 0 <= af[j] <= cap[j]
    return P, -0.5 * af @ kernel(S, S, name, g) @ af


def heart():
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(HEART)
    return X.toarray(), y


@pytest.mark.parametrize("kernel_name", ["rbf", "linear"])
def test_check_estimator(kernel_name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check_estimator(nesvm.OneClassSVM(kernel=kernel_name))


@pytest.mark.parametrize("kernel_name", ["rbf", "linear"])
@pytest.mark.parametrize("nu", [0.05, 0.3, 0.8])
def test_against_scikit_learn(kernel_name, nu):
    X, _ = heart()
    g = 0.0625
    ours = nesvm.OneClassSVM(kernel=kernel_name, gamma=g, nu=nu, tol=1e-9).fit(X)
    theirs = SkOneClassSVM(kernel=kernel_name, gamma=g, nu=nu, tol=1e-9).fit(X)
    a = dense(ours.dual_coef_).ravel()
    assert ours.fit_status_ == 0 and ours.gap_ <= 1e-9
    assert a.min() > 0 and a.max() <= 1 + 1e-12 and abs(a.sum() - nu * len(X)) <= 1e-9 * len(X)
    Pn, Dn = objectives(ours, X, kernel_name, g, nu)
    Ps, Ds = objectives(theirs, X, kernel_name, g, nu)
    scale = abs(Pn)
    assert Pn >= Ds - 1e-9 * scale and Ps >= Dn - 1e-9 * scale  # weak duality, each against the other
    assert Pn - Dn <= 2e-9 * scale  # nesvm's certificate, recomputed
    star = max(Dn, Ds)
    bound = np.sqrt(2 * max(Pn - star, 0)) + np.sqrt(2 * max(Ps - star, 0))
    dn, ds = ours.decision_function(X), theirs.decision_function(X)
    rho_n, rho_s = float(ours.offset_[0]), float(theirs.offset_[0])
    # the w-part (score_samples) within the gaps' bound (||phi(x)|| <= max ||x|| for linear)
    r = 1.0 if kernel_name == "rbf" else np.sqrt((X * X).sum(1).max())
    assert np.abs(ours.score_samples(X) - theirs.score_samples(X)).max() <= bound * r + 1e-9 * rho_n
    assert abs(rho_n - rho_s) <= 1e-5 * abs(rho_n)
    assert np.allclose(ours.score_samples(X) - ours.offset_, dn, rtol=0, atol=1e-12 * abs(rho_n))
    pred = ours.predict(X)
    assert pred.dtype.kind == "i" and set(np.unique(pred)) <= {-1, 1}
    assert np.array_equal(pred, np.where(dn > 0, 1, -1))
    # nu's bounds: rows outside at most nu n, support vectors at least nu n
    assert (dn < -1e-7 * rho_n).sum() <= nu * len(X) <= ours.n_support_[0]
    assert np.array_equal(ours.intercept_, -ours.offset_)
    if kernel_name == "linear":
        assert np.allclose(ours.coef_, a @ dense(ours.support_vectors_))
    else:
        with pytest.raises(AttributeError):
            ours.coef_


def test_sample_weight_as_repeated_rows():
    X, _ = heart()
    X = X[:150]
    sw = np.where(np.arange(150) < 20, 2.0, 1.0)
    a = nesvm.OneClassSVM(gamma=0.0625, nu=0.3, tol=1e-10).fit(X, sample_weight=sw)
    b = nesvm.OneClassSVM(gamma=0.0625, nu=0.3, tol=1e-10).fit(np.vstack([X, X[:20]]))
    Pa, _ = objectives(a, X, "rbf", 0.0625, 0.3, sw)
    Pb, _ = objectives(b, np.vstack([X, X[:20]]), "rbf", 0.0625, 0.3)
    assert abs(Pa - Pb) <= 1e-8 * abs(Pb)
    assert np.allclose(a.decision_function(X), b.decision_function(X), rtol=0, atol=1e-5)
    assert dense(a.dual_coef_).max() <= 2 + 1e-12


def test_equals_cli(tmp_path):
    X, _ = heart()
    est = nesvm.OneClassSVM(gamma=0.0625, nu=0.3, tol=1e-6).fit(X)
    binary = os.environ.get("NESVM_BIN")
    if not binary:
        pytest.skip("NESVM_BIN not set")
    model = str(tmp_path / "oc.model")
    subprocess.run([binary, "train", "-q", "-s", "2", "-t", "rbf", "-g", "0.0625", "-n", "0.3", "-e", "1e-6", HEART,
                    model], check=True)
    _, dec = nesvm.load_model(model).predict(X)
    assert np.array_equal(dec[:, 0], est.decision_function(X))


def test_sparse_pickle_pipeline():
    X, _ = heart()
    dense_fit = nesvm.OneClassSVM(gamma=0.1, nu=0.2).fit(X)
    sparse_fit = nesvm.OneClassSVM(gamma=0.1, nu=0.2).fit(sp.csr_matrix(X))
    assert np.allclose(dense_fit.decision_function(X), sparse_fit.decision_function(sp.csr_matrix(X)), atol=1e-12)
    back = pickle.loads(pickle.dumps(dense_fit))
    assert np.array_equal(back.decision_function(X), dense_fit.decision_function(X))
    pipe = make_pipeline(StandardScaler(), nesvm.OneClassSVM(nu=0.1)).fit(X)
    assert set(np.unique(pipe.predict(X))) == {-1, 1}
    assert np.array_equal(nesvm.OneClassSVM(nu=0.1).fit_predict(X), nesvm.OneClassSVM(nu=0.1).fit(X).predict(X))


def test_bad_input():
    X, _ = heart()
    for nu in (0, 1.5, -0.1, float("nan"), "half"):
        with pytest.raises(ValueError, match="nu must be in"):
            nesvm.OneClassSVM(nu=nu).fit(X)
    with pytest.raises(ValueError, match="not positive semi-definite"):
        nesvm.OneClassSVM(kernel="sigmoid").fit(X)
    with pytest.raises(ValueError, match="Precomputed matrix must be a square matrix. Input is a 270x13 matrix."):
        nesvm.OneClassSVM(kernel="precomputed").fit(X)  # (test_precomputed.py: the kernel itself)
    with pytest.raises(NotFittedError):
        nesvm.OneClassSVM().predict(X)
    est = nesvm.OneClassSVM().fit(X)
    with pytest.raises(ValueError):
        est.predict(X[:, :5])


def test_max_iter_warns():
    X, _ = heart()
    with pytest.warns(ConvergenceWarning, match="stopped before its certificate"):
        est = nesvm.OneClassSVM(tol=1e-12, max_iter=1, nu=0.5).fit(X)
    assert est.fit_status_ == 1
