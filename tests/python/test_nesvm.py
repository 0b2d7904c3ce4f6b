"""test_nesvm.py - the Python package: scikit-learn's check_estimator for every
estimator, zero copy, equality with the command-line tool, pickling, the
scikit-learn tools (clone, Pipeline, GridSearchCV, cross_val_score), sample
and class weights, label orientation, progress, the GIL and Ctrl-C.

Run by ctest (test `python`) with PYTHONPATH at the built package and
NESVM_BIN at the built command-line tool.
"""
import os
import pickle
import signal
import subprocess
import threading
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_classification
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator
from sklearn.utils.validation import check_is_fitted

import nesvm

HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"
BIN = os.environ.get("NESVM_BIN", "nesvm")
ESTIMATORS = [nesvm.SVC, nesvm.LinearSVC, nesvm.HyperpassSVC, nesvm.NewtonSVC, nesvm.GreedySVC]


def cli(*args, cwd=None):
    r = subprocess.run([BIN] + [str(a) for a in args], capture_output=True, text=True, cwd=cwd)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def heart():
    return nesvm.read_libsvm(HEART)


# ------------------------------------------------------------ check_estimator

@pytest.mark.parametrize("Est", ESTIMATORS, ids=lambda c: c.__name__)
def test_check_estimator(Est):
    # the only skip is check_sample_weights_invariance, which scikit-learn's own
    # SVC and LinearSVC skip too (docs/python.md)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(Est())
    skipped = {str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"}
    assert all("check_sample_weights_invariance" in m for m in skipped), skipped


# ------------------------------------------------------------------ zero copy

def test_zero_copy_dense():
    X = np.random.RandomState(0).rand(50, 4)
    ds = nesvm.Dataset(X, np.arange(50) % 2)
    assert ds.c_addresses()[0] == X.__array_interface__["data"][0]
    X32 = X.astype(np.float32)
    ds32 = nesvm.Dataset(X32, np.arange(50) % 2)
    assert ds32.c_addresses()[0] == X32.__array_interface__["data"][0]
    # a Fortran-ordered matrix is converted once: the C side sees the copy
    XF = np.asfortranarray(X)
    dsF = nesvm.Dataset(XF, np.arange(50) % 2)
    assert dsF.c_addresses()[0] != XF.__array_interface__["data"][0]


@pytest.mark.parametrize("itype", [np.int32, np.int64])
@pytest.mark.parametrize("vtype", [np.float64, np.float32])
def test_zero_copy_csr(itype, vtype):
    X = sp.random(60, 30, density=0.2, format="csr", random_state=1, dtype=vtype)
    X.indices = X.indices.astype(itype)
    X.indptr = X.indptr.astype(itype)
    y = np.arange(60) % 2.0
    ds = nesvm.Dataset(X, y)
    vals, ind, lab = ds.c_addresses()
    assert vals == X.data.__array_interface__["data"][0]  # values never copied
    assert lab == ds._keep[3].__array_interface__["data"][0]
    assert ind == X.indices.__array_interface__["data"][0]  # int32 or int64, never copied
    # the same model as from the dense matrix
    m1, _ = nesvm.train(X, y, {"c": 1})
    m2, _ = nesvm.train(X.toarray(), y, {"c": 1})
    np.testing.assert_allclose(m1.predict(X)[1], m2.predict(X)[1], rtol=1e-12, atol=1e-12)


def test_csr_unsorted_and_duplicates():
    """Unsorted indices are sorted once; duplicate entries (which scipy keeps in a
    CSR matrix it calls sorted) are summed, as scipy's own arithmetic reads them."""
    y = np.array([0.0, 1.0, 0.0, 1.0])
    dup = sp.csr_matrix((np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), np.array([0, 0, 2, 1, 1, 3]),
                         np.array([0, 2, 3, 5, 6])), shape=(4, 5))
    uns = sp.csr_matrix((np.array([3.0, 1.0, 2.0, 4.0, 5.0]), np.array([2, 0, 4, 1, 3]),
                         np.array([0, 2, 3, 4, 5])), shape=(4, 5))
    uns.has_sorted_indices = False
    for X in (dup, uns):
        m1, _ = nesvm.train(X, y, {"c": 1})
        m2, _ = nesvm.train(X.toarray(), y, {"c": 1})
        np.testing.assert_allclose(m1.predict(X.toarray())[1], m2.predict(X.toarray())[1], rtol=1e-12)
    # an index beyond n_features is refused before scipy or C read it
    bad = sp.csr_matrix((np.array([1.0]), np.array([7]), np.array([0, 1, 1, 1, 1])), shape=(4, 9))
    bad._shape = (4, 5)
    with pytest.raises(ValueError, match=r"indices\[0\] is 7, outside \[0, 5\) \(the matrix has 5 columns\)"):
        nesvm.Dataset(bad, y)


# ------------------------------------------------------------ equal to the CLI

def test_train_equals_cli(tmp_path, heart):
    X, y = heart
    for args, params in [(["-c", "1"], {"c": 1}),
                         (["-t", "rbf", "-g", "0.1", "-c", "2"], {"kernel": "rbf", "gamma": 0.1, "c": 2}),
                         (["--solver", "hyperpass", "-c", "0.5"], {"solver": "hyperpass", "c": 0.5}),
                         (["--solver", "nssvm", "-t", "rbf", "-g", "0.2"],
                          {"solver": "nssvm", "kernel": "rbf", "gamma": 0.2})]:
        path = tmp_path / "cli.model"
        cli("train", "-q", *args, HEART, path)
        m, _ = nesvm.train(X, y, params)
        assert m.to_bytes() == path.read_bytes(), args


def test_estimator_equals_cli(tmp_path, heart):
    X, y = heart
    clf = nesvm.SVC(C=2, kernel="rbf", gamma=0.1).fit(X, y)
    path = tmp_path / "h.model"
    cli("train", "-q", "-t", "rbf", "-g", "0.1", "-c", "2", HEART, path)
    out = cli("predict", "--decision-values", HEART, path, tmp_path / "h.out")
    rows = [ln.split() for ln in (tmp_path / "h.out").read_text().splitlines()]
    labels = np.array([float(r[0]) for r in rows])
    dec = np.array([float(r[1]) for r in rows])
    # the CLI's model has label 1 first (first appearance); classes_ is [-1, 1]:
    # decision_function is positive for classes_[1] = 1, the same sign
    np.testing.assert_array_equal(clf.predict(X), labels)
    np.testing.assert_allclose(clf.decision_function(X), dec, rtol=1e-13, atol=1e-13)
    assert "Accuracy" in out
    # the model the estimator saves is the CLI's, byte for byte (labels too)
    clf.save_model(tmp_path / "e.model")
    assert (tmp_path / "e.model").read_bytes() == path.read_bytes()
    cli("predict", "--decision-values", HEART, tmp_path / "e.model", tmp_path / "e.out")
    rows = [ln.split() for ln in (tmp_path / "e.out").read_text().splitlines()]
    np.testing.assert_array_equal(np.array([float(r[0]) for r in rows]), labels)
    np.testing.assert_allclose(np.array([float(r[1]) for r in rows]), dec, rtol=1e-13, atol=1e-13)


def test_cross_validate_equals_cli(heart):
    X, y = heart
    out = cli("cv", "-q", "-v", "5", "-c", "1", HEART)
    want = float(out.split("=")[1].strip().rstrip("%")) / 100
    pred, acc = nesvm.cross_validate(X, y, {"c": 1}, folds=5, seed=1)
    assert abs(acc - want) < 1e-6 and abs(np.mean(pred == y) - acc) < 1e-12


def test_cv_metrics_equal_sklearn(tmp_path, heart):
    """`nesvm cv --metrics` against scikit-learn's metrics on the same out-of-fold
    predictions (nesvm.cross_validate: the CLI's folds and seed)."""
    from sklearn.metrics import confusion_matrix, precision_recall_fscore_support
    X, y = heart
    y3 = np.arange(len(y)) % 3 + 1.0
    path = tmp_path / "three.txt"
    nesvm.write_libsvm(path, X, y3)
    out = cli("cv", "-q", "-v", "5", "--metrics", "-t", "rbf", "-g", "0.5", path).splitlines()
    pred, _ = nesvm.cross_validate(X, y3, {"kernel": "rbf", "gamma": 0.5}, folds=5, seed=1)
    labels = list(dict.fromkeys(y3))  # the CLI's order: first appearance
    p, r, f, sup = precision_recall_fscore_support(y3, pred, labels=labels, zero_division=0)
    rows = [ln.split() for ln in out[2:2 + len(labels)]]
    for i, row in enumerate(rows):
        assert float(row[0]) == labels[i]
        np.testing.assert_allclose([float(v) for v in row[1:4]], [p[i], r[i], f[i]], atol=5e-5)
        assert int(row[4]) == sup[i]
    cm = confusion_matrix(y3, pred, labels=labels)
    got = np.array([[int(v) for v in ln.split()[1:]] for ln in out[-len(labels):]])
    np.testing.assert_array_equal(got, cm)


# a scipy matrix whose arrays contradict each other: scipy's sort_indices, sum,
# multiply and tocsr trust them and read out of bounds (crash, hang or a
# std::vector error), so the binding checks them first.  Each case runs in a
# child process so that a crash fails the test instead of killing pytest.
CORRUPT = r"""
import sys
import numpy as np, scipy.sparse as sp
import nesvm
X0 = sp.random(400, 30, density=0.3, format="csr", random_state=0)
y = np.arange(400) % 2
fitted = nesvm.LinearSVC().fit(X0, y)

def csr(indptr=None, indices=None, dtype=None):
    X = X0.copy()
    if indptr is not None:
        X.indptr = np.asarray(indptr, dtype=dtype or X.indptr.dtype)
    if indices is not None:
        X.indices = np.asarray(indices)
    return X

ip = X0.indptr
swapped = ip.copy(); swapped[200], swapped[201] = ip[201], ip[200]
huge = ip.copy(); huge[200] = 10**6
neg = ip.copy(); neg[3] = -5
late = ip.copy(); late[-1] = ip[-1] + 50
first = ip.copy(); first[0] = 1
far = X0.indices.copy(); far[17] = 30
csc = X0.tocsc(); csc.indptr = csc.indptr.copy(); csc.indptr[10] = 10**6
coo = X0.tocoo(); coo.row = coo.row.copy(); coo.row[5] = 400
cases = {
    "swapped": csr(swapped), "huge": csr(huge), "neg": csr(neg), "late": csr(late), "first": csr(first),
    "short": csr(ip[:-1]), "float": csr(ip, dtype=np.float64), "far": csr(indices=far),
    "csc": csc, "coo": coo,
}
calls = {
    "Dataset": lambda X: nesvm.Dataset(X, np.zeros(X.shape[0])),
    "train": lambda X: nesvm.train(X, y, {"c": 1}),
    "SVC.fit": lambda X: nesvm.SVC().fit(X, y),  # gamma='scale': X.sum, X.multiply
    "LinearSVC.fit": lambda X: nesvm.LinearSVC().fit(X, y),
    "predict": lambda X: fitted.predict(X),
    "decision_function": lambda X: fitted.decision_function(X),
}
for case, X in cases.items():
    for call, f in calls.items():
        print(case, call, end=" ", flush=True)
        try:
            f(X)
            print("accepted", flush=True)
        except Exception as e:
            print(type(e).__name__, str(e).replace("\\n", " "), flush=True)
"""

CORRUPT_WANT = {
    "swapped": "X (a scipy csr_matrix) is corrupt: indptr decreases from indptr[200] = ",
    "huge": "X (a scipy csr_matrix) is corrupt: indptr decreases from indptr[200] = 1000000 to indptr[201] = ",
    "neg": "X (a scipy csr_matrix) is corrupt: indptr decreases from indptr[2] = ",
    "late": "X (a scipy csr_matrix) is corrupt: indptr[400] (the last entry) is ",
    "first": "X (a scipy csr_matrix) is corrupt: indptr[0] is 1, expected 0",
    "short": "X (a scipy csr_matrix) is corrupt: indptr has 400 entries, expected 401",
    "float": "X (a scipy csr_matrix) is corrupt: indptr has dtype float64, expected integers",
    "far": "X (a scipy csr_matrix) is corrupt: indices[17] is 30, outside [0, 30) (the matrix has 30 columns)",
    "csc": "X (a scipy csc_matrix) is corrupt: indptr decreases from indptr[10] = 1000000 to indptr[11] = ",
    "coo": "X (a scipy coo_matrix) is corrupt: row[5] is 400, outside [0, 400) (the matrix has 400 rows)",
}


def test_corrupt_sparse_refused_before_scipy():
    r = subprocess.run(["/usr/bin/python3", "-c", CORRUPT], capture_output=True, text=True, timeout=300)
    lines = r.stdout.splitlines()
    seen = set()
    for ln in lines:
        case, call, rest = ln.split(" ", 2)
        seen.add((case, call))
        assert rest.startswith("ValueError " + CORRUPT_WANT[case]), (case, call, rest)
    # every case reached every call: no crash and no hang on the way
    assert r.returncode == 0 and len(seen) == 60, (r.returncode, lines[-1:], r.stderr[-2000:])


def test_files_round_trip(tmp_path, heart):
    X, y = heart
    nesvm.write_libsvm(tmp_path / "h.txt", X, y)
    X2, y2 = nesvm.read_libsvm(tmp_path / "h.txt")
    assert (X2 != X).nnz == 0 and np.array_equal(y, y2)
    cli("train", "-q", HEART, tmp_path / "h.model")
    m = nesvm.load_model(tmp_path / "h.model")
    assert m.solver == "nesvm" and m.n_features == 13 and list(m.labels) == [1.0, -1.0]
    m.save(tmp_path / "again.model")
    assert (tmp_path / "again.model").read_bytes() == (tmp_path / "h.model").read_bytes()
    with pytest.raises(ValueError, match="bad.txt:1:7: index 1 is below the previous index 2"):
        (tmp_path / "bad.txt").write_text("1 2:1 1:1\n")
        nesvm.read_libsvm(tmp_path / "bad.txt")
    with pytest.raises(OSError):
        nesvm.load_model(tmp_path / "missing.model")


# ------------------------------------------------------------------- pickling

@pytest.mark.parametrize("Est", ESTIMATORS, ids=lambda c: c.__name__)
def test_pickle(Est):
    X, y = make_blobs(n_samples=120, centers=3, random_state=0)
    clf = Est().fit(X, y)
    clf2 = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(clf.decision_function(X), clf2.decision_function(X))
    np.testing.assert_array_equal(clf.predict(X), clf2.predict(X))


# ------------------------------------------------------------ scikit-learn tools

def test_pipeline_gridsearch_cross_val_score():
    X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    pipe = make_pipeline(StandardScaler(), nesvm.SVC())
    grid = GridSearchCV(pipe, {"svc__C": [0.1, 1, 10], "svc__gamma": [0.01, 0.1]}, cv=3).fit(X, y)
    assert grid.best_score_ > 0.8 and set(grid.best_params_) == {"svc__C", "svc__gamma"}
    scores = cross_val_score(make_pipeline(StandardScaler(), nesvm.LinearSVC()), X, y, cv=5)
    assert scores.mean() > 0.8
    clf = clone(nesvm.NewtonSVC(C=3, basis=50))
    assert clf.get_params()["C"] == 3 and clf.get_params()["basis"] == 50


def test_same_as_sklearn_svc():
    """The same C-SVM problem as scikit-learn's SVC: the same predictions."""
    from sklearn.svm import SVC
    X, y = make_classification(n_samples=200, n_features=6, random_state=3)
    a = nesvm.SVC(C=1, gamma=0.1, tol=1e-6).fit(X, y)
    b = SVC(C=1, gamma=0.1, tol=1e-6).fit(X, y)
    assert np.mean(a.predict(X) == b.predict(X)) >= 0.99
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=2e-3)


# ----------------------------------------------------- labels and orientation

def test_string_labels_orientation():
    X, y = make_blobs(n_samples=80, centers=2, random_state=2)
    labels = np.where(y == 1, "b", "a")
    order = np.argsort(-y, kind="stable")  # 'b' rows first: the C side sees 'b' first
    clf = nesvm.SVC(kernel="linear").fit(X[order], labels[order])
    assert list(clf.classes_) == ["a", "b"]
    d = clf.decision_function(X)
    np.testing.assert_array_equal(np.where(d > 0, "b", "a"), clf.predict(X))
    assert clf.coef_.shape == (1, 2) and clf.intercept_.shape == (1,)
    np.testing.assert_allclose(X @ clf.coef_[0] + clf.intercept_[0], d, rtol=1e-10, atol=1e-10)


def test_saved_model_keeps_the_labels(tmp_path):
    """A model saved from Python stores the data's own labels: `nesvm predict` on
    the original file scores what the estimator's score does (issue 29: with the
    class indices stored, heart_scale scored 37.8% instead of 88.5%)."""
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(HEART)
    for clf in (nesvm.SVC(C=2, gamma=0.1), nesvm.LinearSVC(), nesvm.NewtonSVC(probability=True),
                nesvm.GreedySVC(cap=1.0)):
        clf.fit(X, y)
        path = tmp_path / "m.model"
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numeric labels: no warning
            clf.save_model(path)
        # with probabilities, predict is their argmax: `nesvm predict -b 1`'s
        b = ["-b", "1"] if getattr(clf, "probability", False) else []
        out = cli("predict", *b, HEART, path, tmp_path / "m.out")
        hits = int(out.split("(")[1].split("/")[0])
        assert hits == round(clf.score(X, y) * len(y)) and hits > 0.8 * len(y), (clf, out)
        lines = (tmp_path / "m.out").read_text().splitlines()[1 if b else 0:]
        printed = np.array([float(ln.split()[0]) for ln in lines])
        np.testing.assert_array_equal(printed, clf.predict(X))
        # the file reloads in Python with the same labels
        m = nesvm.load_model(path)
        assert sorted(m.labels) == [-1.0, 1.0]
        labels = m.predict_proba(X)[0] if m.has_probability else m.predict(X)[0]
        np.testing.assert_array_equal(labels, clf.predict(X))


def test_saved_model_numeric_labels_multiclass(tmp_path):
    """Integers and integer-valued floats (scikit-learn calls others continuous
    targets) are stored as themselves; the CLI predicts
    the labels of the file written from the same data."""
    X, yi = make_blobs(n_samples=150, centers=3, random_state=4)
    for values in ([7, -3, 12], [2.0, -7.0, 1e15], np.array([7, 3, 12], dtype=np.uint16)):
        y = np.asarray(values)[yi]
        clf = nesvm.SVC(C=1, gamma=0.5).fit(X, y)
        path = tmp_path / "m.model"
        clf.save_model(path)
        assert sorted(nesvm.load_model(path).labels) == sorted(float(v) for v in values)
        nesvm.write_libsvm(tmp_path / "d.txt", X, y.astype(np.float64))
        cli("predict", tmp_path / "d.txt", path, tmp_path / "m.out")
        printed = np.array([float(t) for t in (tmp_path / "m.out").read_text().split()])
        np.testing.assert_array_equal(printed, clf.predict(X).astype(np.float64))
        assert np.mean(printed == y) > 0.9


def test_saved_model_string_labels_are_indices(tmp_path):
    """Labels a model file cannot hold (strings, integers beyond 2**53) are stored
    as their indices into classes_, and save_model says so."""
    X, yi = make_blobs(n_samples=120, centers=3, random_state=6)
    for values in (np.array(["b", "c", "a"]), np.array([2**60 + 1, 2**60 + 3, 2**60], dtype=np.int64)):
        y = values[yi]
        clf = nesvm.LinearSVC().fit(X, y)
        np.testing.assert_array_equal(clf.classes_, np.sort(values))
        assert np.mean(clf.predict(X) == y) > 0.9 and clf.predict(X).dtype == values.dtype
        path = tmp_path / "s.model"
        with pytest.warns(UserWarning, match=r"stores the classes as their indices 0\.\.2 into classes_"):
            clf.save_model(path)
        assert sorted(nesvm.load_model(path).labels) == [0.0, 1.0, 2.0]
        nesvm.write_libsvm(tmp_path / "d.txt", X, np.zeros(len(y)))
        cli("predict", tmp_path / "d.txt", path, tmp_path / "s.out")
        printed = [int(float(t)) for t in (tmp_path / "s.out").read_text().split()]
        np.testing.assert_array_equal(clf.classes_[printed], clf.predict(X))
        back = pickle.loads(pickle.dumps(clf))
        np.testing.assert_array_equal(back.predict(X), clf.predict(X))


def test_pickle_of_index_labelled_model_still_loads():
    """Estimators pickled before issue 29 hold models labelled with classes_
    indices; they unpickle and predict the labels."""
    X, yi = make_blobs(n_samples=100, centers=2, random_state=1)
    old = nesvm.SVC().fit(X, yi)  # classes 0, 1: model labels 0, 1 as before
    state = old.__getstate__()
    state["classes_"] = np.array([-1.0, 1.0])  # as an old pickle of labels -1, +1
    state["_model_labels"], state["_orient"] = np.array([0, 1]), [(0, 1)]
    clf = nesvm.SVC.__new__(nesvm.SVC)
    clf.__setstate__(state)
    np.testing.assert_array_equal(clf.predict(X), np.array([-1.0, 1.0])[old.predict(X)])
    np.testing.assert_array_equal(clf.decision_function(X), old.decision_function(X))


def test_multiclass_shapes_and_attributes():
    X, y = make_blobs(n_samples=150, centers=4, random_state=5)
    clf = nesvm.SVC(decision_function_shape="ovo").fit(X, y)
    assert clf.decision_function(X).shape == (150, 6)
    clf.set_params(decision_function_shape="ovr", break_ties=True)
    d = clf.decision_function(X)
    assert d.shape == (150, 4)
    np.testing.assert_array_equal(clf.classes_[np.argmax(d, axis=1)], clf.predict(X))
    # the expansion reproduces each sub-model's decision values
    K = np.exp(-clf._gamma_value(X) * ((X[:, None, :] - clf.support_vectors_[None]) ** 2).sum(-1))
    np.testing.assert_allclose(clf.support_vectors_, X[clf.support_], rtol=0, atol=0)
    assert clf.n_support_.sum() == len(clf.support_)
    _, dec = clf._model.predict(X)
    signs = np.array([clf._sign(i, j) for i, j in clf._orient])
    np.testing.assert_allclose(K @ clf.dual_coef_.T + clf.intercept_, dec * signs, rtol=1e-9, atol=1e-9)
    lin = nesvm.LinearSVC().fit(X, y)
    assert lin.coef_.shape == (4, 2) and lin.decision_function(X).shape == (150, 4)
    assert np.all(lin.n_iter_ >= 1) and np.isfinite(lin.gap_)


def test_one_vs_rest_rows_in_classes_order():
    """One-vs-rest: coef_, intercept_ and dual_coef_ have one row per class in
    classes_ order, as decision_function's columns, though the C library orders
    its sub-models by the labels' first appearance (here 2, 0, 1)."""
    X, y = make_blobs(n_samples=90, centers=3, random_state=0)
    y = np.array([2, 0, 1])[y][::-1]
    X = X[::-1]
    assert list(dict.fromkeys(y)) != sorted(set(y))
    for est in (nesvm.LinearSVC(), nesvm.HyperpassSVC(), nesvm.SVC(kernel="linear", multiclass="ovr")):
        est.fit(X, y)
        d = est.decision_function(X)
        np.testing.assert_allclose(X @ est.coef_.T + est.intercept_, d, rtol=1e-9, atol=1e-9)
        assert [ci for ci, _ in sorted(est._orient)] == [0, 1, 2]
    rbf = nesvm.SVC(multiclass="ovr").fit(X, y)
    K = np.exp(-rbf._gamma_value(X) * ((X[:, None, :] - rbf.support_vectors_[None]) ** 2).sum(-1))
    np.testing.assert_allclose(K @ rbf.dual_coef_.T + rbf.intercept_, rbf.decision_function(X), rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------- probabilities

@pytest.mark.parametrize("Est", [nesvm.SVC, nesvm.NewtonSVC, nesvm.GreedySVC], ids=lambda c: c.__name__)
def test_check_estimator_probability(Est):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(Est(probability=True))
    skipped = {str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"}
    assert all("check_sample_weights_invariance" in m for m in skipped), skipped


def test_predict_proba():
    X, y = make_blobs(n_samples=200, centers=3, cluster_std=3.0, random_state=7)
    clf = nesvm.SVC(probability=True).fit(X, y)
    P = clf.predict_proba(X)
    assert P.shape == (200, 3)
    np.testing.assert_allclose(P.sum(axis=1), 1, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(clf.classes_[np.argmax(P, axis=1)], clf.predict(X))
    np.testing.assert_allclose(np.log(P), clf.predict_log_proba(X))
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict_proba(X), P)
    assert not hasattr(nesvm.SVC(), "predict_proba")


@pytest.mark.parametrize("C", [0.01, 100])
def test_calibration_against_libsvm(C):
    """Held-out log-loss: nesvm's probabilities beat the uncalibrated sigmoid of
    the decision value and are within 0.03 of LIBSVM's (scikit-learn's SVC,
    the same Platt scaling on 5-fold decision values), on noisy labels."""
    from sklearn.metrics import log_loss
    from sklearn.svm import SVC as LibsvmSVC
    rng = np.random.default_rng(5)

    def make(n):
        t = np.where(rng.random(n) < 0.5, 1, -1)
        X = (rng.random((n, 6)) - 0.5) * 2
        X[:, :2] += 0.5 * t[:, None]
        return X, np.where(rng.random(n) < 0.2, -t, t)

    Xt, yt = make(600)
    Xh, yh = make(400)
    ours = nesvm.SVC(C=C, gamma=0.5, probability=True).fit(Xt, yt)
    peer = LibsvmSVC(C=C, gamma=0.5, probability=True, random_state=0).fit(Xt, yt)
    f = nesvm.SVC(C=C, gamma=0.5).fit(Xt, yt).decision_function(Xh)
    raw = 1 / (1 + np.exp(-f))
    ll_ours = log_loss(yh, ours.predict_proba(Xh))
    ll_peer = log_loss(yh, peer.predict_proba(Xh))
    ll_raw = log_loss(yh, np.c_[1 - raw, raw])
    assert ll_ours < ll_raw, (ll_ours, ll_raw)
    assert abs(ll_ours - ll_peer) < 0.03, (ll_ours, ll_peer)


def test_cross_validate_path(heart):
    """The warm path's accuracies against cross_validate at each C (cold: equal;
    warm: within 2 points), for the default method and Newton; fewer Newton
    iterations warm (the kernel dual method's iterations on folds of 180 rows
    are its few certificate checks, warm or cold); GS-SVM along max_iter."""
    X, y = heart
    cs = [0.25, 1, 4, 16]
    for method in ("auto", "newton"):
        prm = {"kernel": "rbf", "gamma": 0.1, "method": method}
        cold, it_cold = nesvm.cross_validate_path(X, y, "c", cs, prm, folds=3, warm=False)
        warm, it_warm = nesvm.cross_validate_path(X, y, "c", cs, prm, folds=3)
        for c, a in zip(cs, cold):
            assert nesvm.cross_validate(X, y, dict(prm, c=c), folds=3)[1] == a
        assert np.all(np.abs(warm - cold) <= 0.02)
        assert it_warm[0] == it_cold[0]
    assert it_warm[1:].sum() < it_cold[1:].sum()
    acc, its = nesvm.cross_validate_path(X, y, "max_iter", [4, 16, 100000], {"solver": "gs", "kernel": "rbf"}, 3)
    assert acc[0] == nesvm.cross_validate(X, y, {"solver": "gs", "kernel": "rbf", "max_iter": 4}, folds=3)[1]
    with pytest.raises(nesvm.NesvmError, match="value 1 of the path: invalid value '0' for c"):
        nesvm.cross_validate_path(X, y, "c", [0.0], prm)


def test_import_export(tmp_path, heart):
    """A model exported for LIBSVM and imported back predicts the same decision
    values; the CLI's import gives the same model bytes."""
    X, y = heart
    m, _ = nesvm.train(X, y, {"kernel": "rbf", "gamma": 0.1})
    m.export(tmp_path / "m.libsvm", "libsvm")
    back = nesvm.import_model(tmp_path / "m.libsvm")
    ds = nesvm.Dataset(X, y)
    np.testing.assert_allclose(back.predict(ds)[1], m.predict(ds)[1], rtol=1e-12, atol=1e-12)
    cli("import", tmp_path / "m.libsvm", tmp_path / "cli.model")
    assert back.to_bytes() == (tmp_path / "cli.model").read_bytes()
    with pytest.raises(nesvm.NesvmError, match="neither a LIBSVM model"):
        nesvm.import_model(HEART)


def test_probability_equals_cli(tmp_path, heart):
    X, y = heart
    cli("train", "-q", "-b", "1", "-t", "rbf", "-g", "0.1", HEART, tmp_path / "p.model")
    cli("predict", "-b", "1", HEART, tmp_path / "p.model", tmp_path / "p.out")
    lines = (tmp_path / "p.out").read_text().splitlines()
    assert lines[0] == "labels 1 -1"
    rows = np.array([[float(v) for v in ln.split()] for ln in lines[1:]])
    m, _ = nesvm.train(X, y, {"probability": 1, "kernel": "rbf", "gamma": 0.1})
    labels, proba = m.predict_proba(X)
    np.testing.assert_array_equal(rows[:, 0], labels)
    np.testing.assert_allclose(rows[:, 1:], proba, rtol=1e-15, atol=0)
    assert m.to_bytes() == (tmp_path / "p.model").read_bytes()


# ------------------------------------------------------------------- weights

def test_sample_and_class_weights():
    X, y = make_classification(n_samples=120, n_features=5, random_state=4)
    a = nesvm.SVC().fit(X, y)
    b = nesvm.SVC().fit(X, y, sample_weight=np.ones(len(y)))
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    # weight 0 = the rows removed (same order): the same decision values, bit for bit
    w = (np.arange(len(y)) % 3 != 0).astype(float)
    c = nesvm.SVC(gamma=0.2).fit(X, y, sample_weight=w)
    d = nesvm.SVC(gamma=0.2).fit(X[w > 0], y[w > 0])
    np.testing.assert_array_equal(c.decision_function(X), d.decision_function(X))
    # weights 3 = C x 3
    e = nesvm.SVC(C=3, kernel="linear").fit(X, y)
    f = nesvm.SVC(C=1, kernel="linear").fit(X, y, sample_weight=np.full(len(y), 3.0))
    np.testing.assert_array_equal(e.decision_function(X), f.decision_function(X))
    # class weights move the boundary toward the light class
    g = nesvm.SVC(kernel="linear", class_weight={0: 100, 1: 0.01}).fit(X, y)
    assert np.mean(g.predict(X) == 0) > np.mean(e.predict(X) == 0)
    nesvm.SVC(class_weight="balanced").fit(X, y)
    with pytest.raises(ValueError, match="not in y"):
        nesvm.SVC(class_weight={7: 2}).fit(X, y)
    with pytest.raises(ValueError, match="non-negative"):
        nesvm.SVC().fit(X, y, sample_weight=-np.ones(len(y)))


# --------------------------------------------------- progress, GIL and Ctrl-C

def big_problem():
    X, y = make_classification(n_samples=6000, n_features=40, flip_y=0.2, random_state=0)
    return X, y


def test_verbose_progress(capsys):
    X, y = make_classification(n_samples=100, random_state=0)
    nesvm.SVC(verbose=1).fit(X, y)
    assert "[nesvm] sub-model 1/1 iteration 1 " in capsys.readouterr().err


def test_progress_callback_cancels():
    X, y = make_classification(n_samples=200, random_state=0)
    seen = []

    def cb(p):
        seen.append(p["iteration"])
        return p["iteration"] >= 3

    with pytest.raises(ValueError, match="cancel"):
        nesvm.train(X, y, {"eps": 1e-12}, progress=cb)
    assert seen[-1] == 3


def test_gil_released_during_fit():
    X, y = big_problem()
    done = threading.Event()
    ticks = []

    def fit():
        nesvm.SVC(C=100, gamma=0.05, tol=1e-6).fit(X, y)
        done.set()

    t = threading.Thread(target=fit)
    t.start()
    while not done.is_set():
        ticks.append(time.monotonic())
        time.sleep(0.001)
    t.join()
    # the main thread kept running Python while C trained
    assert len(ticks) > 50


def test_predict_during_refit_uses_old_or_new_model():
    """A predict in one thread while another refits the same estimator gets the
    old model's answers or the new one's, never an error or a mix (the old
    fitted state stays until the new one is complete)."""
    X, yb = make_classification(n_samples=1500, n_features=20, random_state=0)
    y_old = np.where(yb == 1, 1.0, -1.0)
    y_new = np.array([10, 20, 30])[np.arange(1500) % 3]
    y_new[yb == 1] = 30
    fits = [nesvm.SVC(C=10, gamma=0.05, tol=1e-6).fit(X, yy) for yy in (y_old, y_new)]
    want = [f.predict(X[:50]) for f in fits]
    want_dec = [f.decision_function(X[:50]) for f in fits]
    assert not np.array_equal(want[0], want[1])
    clf = nesvm.SVC(C=10, gamma=0.05, tol=1e-6).fit(X, y_old)
    done = threading.Event()
    errors = []

    def refit():
        try:
            for r in range(6):
                clf.fit(X, y_new if r % 2 == 0 else y_old)
        except BaseException as e:  # noqa: B902 - reported below
            errors.append(e)
        done.set()

    t = threading.Thread(target=refit)
    t.start()
    seen = set()
    try:
        while not done.is_set():
            p = clf.predict(X[:50])
            d = clf.decision_function(X[:50])
            hit = [k for k in (0, 1) if np.array_equal(p, want[k])]
            assert hit, p
            seen.add(hit[0])
            assert any(np.array_equal(d, w) for w in want_dec)
    finally:
        done.wait()
        t.join()
    assert not errors, errors
    assert seen == {0, 1}
    np.testing.assert_array_equal(clf.predict(X[:50]), want[0])


def test_ctrl_c_cancels_and_leaves_unfitted():
    X, y = big_problem()
    clf = nesvm.SVC(C=1000, gamma=0.05, tol=1e-9)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        clf.fit(X, y)
    timer.cancel()
    assert time.monotonic() - t0 < 20
    with pytest.raises(NotFittedError):
        check_is_fitted(clf)
    with pytest.raises(NotFittedError):
        clf.predict(X[:3])
    # the estimator still trains afterwards
    clf.set_params(C=1, tol=1e-3).fit(X[:300], y[:300])
    check_is_fitted(clf)


def test_convergence_warning_when_the_certificate_is_missed():
    """Issue 29: a model that stopped before its certified gap (max_iter here) raises
    scikit-learn's ConvergenceWarning and has fit_status_ 1; a certified one neither; a
    kernel without a certificate (sigmoid: LIBSVM's dual, a stationary point) neither."""
    from sklearn.exceptions import ConvergenceWarning
    X, y = make_classification(n_samples=200, n_features=8, random_state=3)
    with pytest.warns(ConvergenceWarning, match="stopped before their certificate"):
        short = nesvm.SVC(kernel="linear", max_iter=2).fit(X, y)
    assert short.fit_status_ == 1
    for est in (nesvm.SVC(kernel="linear"), nesvm.SVC(kernel="sigmoid"), nesvm.LinearSVC()):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            est.fit(X, y)
        assert est.fit_status_ == 0


def test_solver_registry():
    """The registry's description (nesvm_solver_describe) through the binding, and the
    estimators that ask it: NewtonSVC takes the solvers of the squared hinge."""
    # the families of the papers, first and in this order (unit_api pins the whole list)
    assert nesvm.solver_names()[:6] == ["nesvm", "hyperpass", "pegasos", "ssvm", "nssvm", "gs"]
    gs = nesvm.solver_info("gs")
    assert not gs["has_c"] and not gs["certificate"] and gs["losses"] == [] and gs["memory"] == "cache_size"
    assert nesvm.solver_info("nesvm")["losses"] == ["hinge", "squared", "epsilon_insensitive", "logistic",
                                                    "squared_hinge", "squared_epsilon_insensitive"]
    assert nesvm.solver_info("ssvm")["kernels"] == "features"
    with pytest.raises(nesvm.NesvmError, match="unknown solver 'svmlight'"):
        nesvm.solver_info("svmlight")
    with pytest.raises(ValueError, match=r"^solver must be 'ssvm' or 'nssvm', got 'gs'$"):
        nesvm.NewtonSVC(solver="gs").fit(np.eye(4), [0, 1, 0, 1])


# ----------------------------------------------------- Crammer and Singer

def _cs_objective(coef, intercept, X, y, classes, C, scaling, fit_intercept):
    """LIBLINEAR -s 4's objective with the intercept a regularized feature of
    value `scaling` (scikit-learn's LinearSVC(multi_class='crammer_singer')),
    from one row per class (two classes: the rows of classes_ 0 and 1 are not
    recoverable from w_1 - w_0, so the caller passes both)."""
    F = X @ coef.T + intercept
    yi = np.searchsorted(classes, y)
    k = len(classes)
    Z = 1.0 - np.eye(k)[yi] + F - F[np.arange(len(y)), yi][:, None]
    reg = 0.5 * np.sum(coef * coef) + (0.5 * np.sum((intercept / scaling) ** 2) if fit_intercept else 0.0)
    return reg + C * np.sum(Z.max(axis=1))


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_linear_svc_crammer_singer(C, fit_intercept):
    """LinearSVC(multi_class='crammer_singer') is scikit-learn's (LIBLINEAR -s 4
    with its intercept feature): nesvm's objective at or below scikit-learn's
    (1 + 1e-6; nesvm's certified gap 1e-7, scikit-learn at tol 1e-8), the same
    predictions, the decision values close; the model file's problem is Crammer
    and Singer's."""
    from sklearn.datasets import load_iris
    from sklearn.svm import LinearSVC as SkLinearSVC
    from sklearn.preprocessing import MinMaxScaler
    X, y = load_iris(return_X_y=True)
    X = MinMaxScaler((-1, 1)).fit_transform(X)
    est = nesvm.LinearSVC(multi_class="crammer_singer", C=C, tol=1e-7, fit_intercept=fit_intercept,
                          intercept_scaling=2.0, max_iter=100000).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkLinearSVC(multi_class="crammer_singer", C=C, tol=1e-8, max_iter=1000000, fit_intercept=fit_intercept,
                         intercept_scaling=2.0).fit(X, y)
    assert est.fit_status_ == 0 and est.coef_.shape == sk.coef_.shape == (3, 4)
    assert est._model.problem.startswith("crammer_singer_svm_hinge_l2")
    P_nv = _cs_objective(est.coef_, est.intercept_, X, y, est.classes_, C, 2.0, fit_intercept)
    sk_b = sk.intercept_ if fit_intercept else np.zeros(3)
    P_sk = _cs_objective(sk.coef_, sk_b, X, y, sk.classes_, C, 2.0, fit_intercept)
    assert P_nv <= P_sk * (1 + 1e-6), (P_nv, P_sk)
    assert np.mean(est.predict(X) == sk.predict(X)) >= 0.99
    np.testing.assert_allclose(est.decision_function(X), sk.decision_function(X), rtol=0, atol=1e-3)


def test_linear_svc_crammer_singer_binary():
    """Two classes: one row, w_1 - w_0, as scikit-learn's; the decision function
    its value, predict its sign."""
    from sklearn.svm import LinearSVC as SkLinearSVC
    X0, y = make_classification(n_samples=300, n_features=8, random_state=2)
    est = nesvm.LinearSVC(multi_class="crammer_singer", tol=1e-7, max_iter=100000).fit(X0, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkLinearSVC(multi_class="crammer_singer", tol=1e-8, max_iter=1000000).fit(X0, y)
    assert est.coef_.shape == sk.coef_.shape and est.intercept_.shape == sk.intercept_.shape
    np.testing.assert_allclose(est.coef_, sk.coef_, rtol=0, atol=1e-3 * np.max(np.abs(sk.coef_)))
    d = est.decision_function(X0)
    np.testing.assert_allclose(d, X0 @ est.coef_[0] + est.intercept_[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(est.predict(X0), est.classes_[(d > 0).astype(int)])


def test_linear_svc_crammer_singer_check_estimator():
    # the one skip is LinearSVC's own (test_check_estimator)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(nesvm.LinearSVC(multi_class="crammer_singer"))
    skipped = {str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"}
    assert all("check_sample_weights_invariance" in m for m in skipped), skipped


def test_linear_svc_bad_multi_class():
    X0, y = make_classification(n_samples=60, n_features=4, random_state=2)
    with pytest.raises(ValueError, match="multi_class must be 'ovr' or 'crammer_singer'"):
        nesvm.LinearSVC(multi_class="multinomial").fit(X0, y)

