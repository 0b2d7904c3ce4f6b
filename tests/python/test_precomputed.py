"""test_precomputed.py - kernel='precomputed' (issue 33) for the kernel
estimators: check_estimator, the same model as the kernel computed by nesvm
(decision values, support_), scikit-learn's shapes and messages, the positive
semi-definite rule (docs/solvers.md), pickling, and the command-line tool on
the same model (`nesvm predict` on a -t 4 file).

Run by ctest (test `python`) with PYTHONPATH at the built package and
NESVM_BIN at the built command-line tool.
"""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file, make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import check_estimator

import nesvm

HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"
BIN = os.environ.get("NESVM_BIN", "nesvm")
GAMMA = 0.1


def rbf(A, B, gamma=GAMMA):
    """nesvm's rbf: exp(-gamma (|a|^2 + |b|^2 - 2 a.b)), clipped at 0, exactly 1 on equal rows."""
    sa, sb = (A * A).sum(1), (B * B).sum(1)
    d2 = np.maximum(sa[:, None] + sb[None, :] - 2 * A @ B.T, 0)
    d2[np.isclose(d2, 0, atol=1e-13)] = 0  # (the diagonal of a training matrix)
    return np.exp(-gamma * d2)


@pytest.fixture(scope="module")
def heart():
    X, y = load_svmlight_file(HEART)
    X = X.toarray()
    return X[:200], y[:200], X[200:], y[200:]


@pytest.mark.parametrize("est", [nesvm.SVC(kernel="precomputed"), nesvm.SVR(kernel="precomputed"),
                                 nesvm.NewtonSVC(kernel="precomputed"),
                                 nesvm.NewtonSVC(kernel="precomputed", kernel_norm="coef"),
                                 nesvm.GreedySVC(kernel="precomputed"),
                                 nesvm.OneClassSVM(kernel="precomputed")], ids=repr)
def test_check_estimator(est):
    # skipped: check_sample_weights_invariance (as for every kernel), and where a
    # fit refuses a matrix that is not positive semi-definite the checks whose
    # matrices are X X^T computed in float32 or rounded to integers
    refuses = not isinstance(est, nesvm.GreedySVC) and getattr(est, "kernel_norm", "rkhs") != "coef" and \
        not (isinstance(est, nesvm.SVC) and est.svm_type == "c")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(est)
    skipped = {str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"}
    allowed = {"check_sample_weights_invariance"}
    if isinstance(est, nesvm.OneClassSVM):  # scikit-learn's give X, not K (its own OneClassSVM fails them)
        allowed |= {"check_outliers_fit_predict", "check_outliers_train"}
    if refuses:
        allowed |= {"check_estimators_dtypes", "check_classifiers_train", "check_regressors_train"}
    assert all(any(a in m for a in allowed) for m in skipped), skipped
    assert refuses == any("check_estimators_dtypes" in str(w.message) for w in caught
                          if w.category.__name__ == "SkipTestWarning")


@pytest.mark.parametrize("Est,kw", [(nesvm.SVC, {}), (nesvm.SVC, {"svm_type": "ls"}),
                                    (nesvm.NewtonSVC, {"basis": 0}), (nesvm.GreedySVC, {})],
                         ids=["svc", "ls", "newton", "gs"])
def test_same_model_as_rbf(heart, Est, kw):
    X, y, Xt, _ = heart
    a = Est(kernel="precomputed", **kw).fit(rbf(X, X), y)
    b = Est(kernel="rbf", gamma=GAMMA, **kw).fit(X, y)
    np.testing.assert_allclose(a.decision_function(rbf(Xt, X)), b.decision_function(Xt), rtol=0, atol=1e-9)
    assert np.array_equal(a.predict(rbf(Xt, X)), b.predict(Xt))
    assert np.array_equal(a.support_, b.support_) and np.array_equal(a.n_support_, b.n_support_)
    np.testing.assert_allclose(a.dual_coef_, b.dual_coef_, rtol=0, atol=1e-9)
    assert a.support_vectors_.shape == (0, 0) and a.n_features_in_ == X.shape[0]


def test_svr_same_model_as_rbf():
    X, y = make_friedman1(n_samples=150, n_features=6, noise=1.0, random_state=1)
    Xt = X[100:]
    X, y = X[:100], y[:100]
    a = nesvm.SVR(kernel="precomputed", C=10, tol=1e-8).fit(rbf(X, X, 0.2), y)
    b = nesvm.SVR(kernel="rbf", gamma=0.2, C=10, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(a.predict(rbf(Xt, X, 0.2)), b.predict(Xt), rtol=0, atol=1e-8)
    assert np.array_equal(a.support_, b.support_) and a.support_vectors_.shape == (0, 0)
    assert a.gap_ <= 1e-8 and a.fit_status_ == 0


def test_oneclass_same_model_as_rbf(heart):
    X, _, Xt, _ = heart
    a = nesvm.OneClassSVM(kernel="precomputed", nu=0.3, tol=1e-10).fit(rbf(X, X))
    b = nesvm.OneClassSVM(kernel="rbf", gamma=GAMMA, nu=0.3, tol=1e-10).fit(X)
    np.testing.assert_allclose(a.decision_function(rbf(Xt, X)), b.decision_function(Xt), rtol=0, atol=1e-9)
    np.testing.assert_allclose(a.score_samples(rbf(Xt, X)), b.score_samples(Xt), rtol=0, atol=1e-9)
    assert np.array_equal(a.support_, b.support_) and a.support_vectors_.shape == (0, 0)
    np.testing.assert_allclose(a.dual_coef_, b.dual_coef_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(a.dual_coef_.sum(), 0.3 * X.shape[0], rtol=1e-12)
    assert a.gap_ <= 1e-10 and a.fit_status_ == 0
    with pytest.raises(ValueError, match=r"the precomputed kernel matrix is not positive semi-definite"):
        nesvm.OneClassSVM(kernel="precomputed").fit(np.tanh(0.5 * X @ X.T - 1.0))


def test_shapes_and_messages(heart):
    X, y, Xt, _ = heart
    K = rbf(X, X)
    with pytest.raises(ValueError, match="Precomputed matrix must be a square matrix. Input is a 200x13 matrix."):
        nesvm.SVC(kernel="precomputed").fit(X, y)
    with pytest.raises(TypeError, match="Sparse precomputed kernels are not supported."):
        nesvm.SVC(kernel="precomputed").fit(sp.csr_matrix(K), y)
    est = nesvm.SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="X has 199 features, but SVC is expecting 200 features as input"):
        est.predict(rbf(Xt, X)[:, :199])
    with pytest.raises(ValueError, match=r"callable kernel.*kernel='precomputed'"):
        nesvm.SVC(kernel=lambda a, b: a @ b.T).fit(X, y)


def test_not_positive_semi_definite(heart):
    """The rule: the C-SVM takes the matrix (LIBSVM's dual, a stationary point,
    no certificate: gap_ NaN, no ConvergenceWarning); the problems that need
    convexity refuse it, saying why."""
    X, y, Xt, _ = heart
    S = np.tanh(0.5 * X @ X.T - 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = nesvm.SVC(kernel="precomputed").fit(S, y)
    assert np.isnan(est.gap_) and est.fit_status_ == 0
    ref = nesvm.SVC(kernel="sigmoid", gamma=0.5, coef0=-1.0).fit(X, y)  # the same dual by SMO
    np.testing.assert_allclose(est.decision_function(np.tanh(0.5 * Xt @ X.T - 1.0)), ref.decision_function(Xt),
                               rtol=0, atol=1e-9)
    for bad in [nesvm.SVR(kernel="precomputed"), nesvm.SVC(kernel="precomputed", svm_type="ls"),
                nesvm.NewtonSVC(kernel="precomputed")]:
        with pytest.raises(ValueError, match=r"the precomputed kernel matrix is not positive semi-definite \(its "
                                             r"smallest eigenvalue is -\d"):
            bad.fit(S, y)


def test_pickle_and_cli(heart, tmp_path):
    X, y, Xt, yt = heart
    est = nesvm.SVC(kernel="precomputed").fit(rbf(X, X), y)
    Kt = rbf(Xt, X)
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.decision_function(Kt), est.decision_function(Kt))
    model = tmp_path / "pc.model"
    est.save_model(str(model))
    data = tmp_path / "test.txt"
    with open(data, "w") as f:
        for i in range(Kt.shape[0]):
            f.write("%g 0:0 %s\n" % (yt[i], " ".join("%d:%.17g" % (j + 1, v) for j, v in enumerate(Kt[i]))))
    out = tmp_path / "out.txt"
    r = subprocess.run([BIN, "predict", "-q", str(data), str(model), str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.loadtxt(out), est.predict(Kt))
