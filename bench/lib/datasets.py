"""The benchmark's data sets: how each is prepared (nothing is downloaded),
where its files are, and a cached loader for the harness's own computations.

Each data set lives in DATA_DIR/<name>/ as train.svm (and test.svm when it
has a test set) plus meta.json.  A data set is prepared only when its
meta.json or one of its files is missing.  Loading for objective and
accuracy computations goes through scikit-learn's load_svmlight_file once and
is then cached next to the text as .npz/.npy.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HEART_SCALE = "/usr/share/doc/liblinear-tools/examples/heart_scale"
FMNIST_SRC = "/usr/share/datasets/fashion-mnist"
SPLIT_SEED = 0


@dataclass
class Dataset:
    name: str
    description: str
    has_test: bool = True
    prepare: object = None      # prepare(dirpath) writes train.svm [test.svm]
    extra: dict = field(default_factory=dict)


def _fmnist(task):
    def prep(d):
        tmp = os.path.join(d, "tmp")
        subprocess.run([sys.executable, os.path.join(REPO, "tools", "fashion_mnist.py"),
                        "--src", FMNIST_SRC, "--out", tmp, "--task", task], check=True)
        os.replace(os.path.join(tmp, f"fmnist-{task}.train"), os.path.join(d, "train.svm"))
        os.replace(os.path.join(tmp, f"fmnist-{task}.test"), os.path.join(d, "test.svm"))
        os.rmdir(tmp)
    return prep


def _heart(d):
    shutil.copyfile(HEART_SCALE, os.path.join(d, "train.svm.tmp"))
    os.replace(os.path.join(d, "train.svm.tmp"), os.path.join(d, "train.svm"))


def _sklearn_split(loader, scale):
    def prep(d):
        from sklearn import datasets as skd
        from sklearn.model_selection import train_test_split
        import scipy.sparse as sp
        from lib.libsvm_write import write_libsvm
        X, y = getattr(skd, loader)(return_X_y=True)
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, stratify=y,
                                              random_state=SPLIT_SEED)
        if scale == "pm1":   # [-1, 1] by the training rows' min and max
            lo, hi = Xtr.min(axis=0), Xtr.max(axis=0)
            span = np.where(hi > lo, hi - lo, 1.0)
            f = lambda A: 2.0 * (A - lo) / span - 1.0  # noqa: E731
            ytr, yte = np.where(ytr == 1, 1, -1), np.where(yte == 1, 1, -1)
        else:                # digits: pixel values 0..16 -> [0, 1]
            f = lambda A: A / 16.0  # noqa: E731
        write_libsvm(os.path.join(d, "train.svm"), ytr.astype(int), sp.csr_matrix(f(Xtr)), decimals=8)
        write_libsvm(os.path.join(d, "test.svm"), yte.astype(int), sp.csr_matrix(f(Xte)), decimals=8)
    return prep


def _synthetic(kind, **kw):
    def prep(d):
        from lib.synthetic import generate
        generate(kind, d, **kw)
    return prep


def _checkerboard(m):
    def prep(d):
        from lib.synthetic import checkerboard_split, write_points
        (Xtr, ytr), te = checkerboard_split(m)
        write_points(os.path.join(d, "train.svm.tmp"), Xtr, ytr)
        os.replace(os.path.join(d, "train.svm.tmp"), os.path.join(d, "train.svm"))
        if te is not None:
            write_points(os.path.join(d, "test.svm.tmp"), *te)
            os.replace(os.path.join(d, "test.svm.tmp"), os.path.join(d, "test.svm"))
    return prep


def _first_rows(parent, n):
    """The first n training rows of data set ``parent`` (prepared first, in
    the same data folder) and its whole test set."""
    def prep(d):
        Data(os.path.dirname(d)).ensure(parent)
        src = os.path.join(os.path.dirname(d), parent)
        with open(os.path.join(src, "train.svm")) as f, open(os.path.join(d, "train.svm.tmp"), "w") as g:
            for i, line in enumerate(f):
                if i >= n:
                    break
                g.write(line)
        os.replace(os.path.join(d, "train.svm.tmp"), os.path.join(d, "train.svm"))
        shutil.copyfile(os.path.join(src, "test.svm"), os.path.join(d, "test.svm.tmp"))
        os.replace(os.path.join(d, "test.svm.tmp"), os.path.join(d, "test.svm"))
    return prep


def _checker_desc(m):
    base = ("the NSSVM paper's checkerboard: the 40,000 integer points of [0, 199]^2, label +1 where "
            "(x // 50 + y // 50) is even (4 x 4 squares); " + f"{m:,} training points drawn at random "
            "(bench/lib/synthetic.py checkerboard_split, seed 0: the first points of one permutation)")
    if m + 10_000 <= 40_000:
        return base + "; test: the last 10,000 points of the same permutation (the same for 8,000 and 18,000)"
    return base + "; no grid point is left for a test set: accuracy is **training** accuracy"


DATASETS = {ds.name: ds for ds in [
    Dataset("heart_scale", "LIBSVM's heart_scale (Debian liblinear-tools example), 270 x 13, "
            "labels +1/-1, already scaled to [-1, 1]; no test set: accuracy is training accuracy",
            has_test=False, prepare=_heart),
    Dataset("breast_cancer", "scikit-learn's bundled breast_cancer, 569 x 30; stratified 75/25 "
            "split (seed 0); features scaled to [-1, 1] by the training rows' min/max; "
            "benign = +1, malignant = -1", prepare=_sklearn_split("load_breast_cancer", "pm1")),
    Dataset("digits", "scikit-learn's bundled digits, 1797 x 64, 10 classes; stratified 75/25 "
            "split (seed 0); pixels / 16 in [0, 1]", prepare=_sklearn_split("load_digits", "01")),
    Dataset("fmnist-tshirt-shirt", "Fashion-MNIST T-shirt (0, +1) vs Shirt (6, -1), official split "
            "(12,000 / 2,000), pixels / 255, tools/fashion_mnist.py", prepare=_fmnist("tshirt-shirt")),
    Dataset("fmnist-tshirt-shirt-2k", "Fashion-MNIST T-shirt vs Shirt: the first 2,000 rows of "
            "fmnist-tshirt-shirt's training file (its order), its official 2,000 test rows",
            prepare=_first_rows("fmnist-tshirt-shirt", 2_000)),
    Dataset("fmnist-tshirt-shirt-4k", "Fashion-MNIST T-shirt vs Shirt: the first 4,000 rows of "
            "fmnist-tshirt-shirt's training file (its order), its official 2,000 test rows",
            prepare=_first_rows("fmnist-tshirt-shirt", 4_000)),
    Dataset("fmnist-zero-rest", "Fashion-MNIST class 0 (+1) vs the 9 others (-1), official split "
            "(60,000 / 10,000), pixels / 255, tools/fashion_mnist.py", prepare=_fmnist("zero-rest")),
    Dataset("fmnist-all", "Fashion-MNIST, 10 classes, official split (60,000 / 10,000), pixels / 255, "
            "tools/fashion_mnist.py", prepare=_fmnist("all")),
    Dataset("fmnist-all-10k", "Fashion-MNIST, 10 classes: the first 10,000 rows of fmnist-all's training "
            "file, the official 10,000 test rows", prepare=_first_rows("fmnist-all", 10_000)),
    Dataset("checkerboard-8000", _checker_desc(8000), prepare=_checkerboard(8000)),
    Dataset("checkerboard-18000", _checker_desc(18000), prepare=_checkerboard(18000)),
    Dataset("checkerboard-40000", _checker_desc(40000), has_test=False, prepare=_checkerboard(40000)),
    Dataset("synth-sparse", "seeded text-like sparse set (bench/lib/synthetic.py sparse: 200,000 + "
            "20,000 rows, 100,000 features, about 50 non-zeros per row, Zipf feature frequencies, "
            "unit-norm tf-idf rows, labels from a sparse linear model with 5% flipped)",
            prepare=_synthetic("sparse")),
    Dataset("synth-sparse-wide", "seeded text-like sparse set with more features than rows "
            "(bench/lib/synthetic.py sparse-wide: 5,000 + 1,000 rows, 100,000 features, about 500 "
            "non-zeros per row (0.5% density), otherwise as synth-sparse; seed 3)",
            prepare=_synthetic("sparse-wide")),
    Dataset("synth-sparse-reg", "seeded text-like sparse regression (bench/lib/synthetic.py sparse-reg: "
            "200,000 + 20,000 rows, 100,000 features, about 50 non-zeros per row, rows as synth-sparse's, "
            "real targets x.w* + N(0, 0.2^2) with a sparse w* (2,000 features) scaled to unit score "
            "deviation; seed 4)", prepare=_synthetic("sparse-reg"), extra={"task": "regression"}),
    Dataset("synth-sparse-reg-20k", "synth-sparse-reg's generator with 20,000 + 5,000 rows (seed 4; idf "
            "and the scale of w* from its own 20,000 training rows)", prepare=_synthetic("sparse-reg-20k"),
            extra={"task": "regression"}),
    *[Dataset(f"friedman1-{n // 1000}k", f"scikit-learn's make_friedman1({n:,}, n_features=10, noise=1.0, "
              "random_state=0); test: 5,000 rows with random_state=1 (bench/lib/synthetic.py friedman1)",
              prepare=_synthetic("friedman1", train=n), extra={"task": "regression"})
      for n in (2_000, 20_000, 100_000)],
    Dataset("synth-dense", "seeded dense set (bench/lib/synthetic.py dense: 50,000 + 10,000 rows, "
            "500 Gaussian features in 25 correlated clusters, labels from a linear model plus noise)",
            prepare=_synthetic("dense")),
]}


class Data:
    """Prepared files and cached matrices of the data sets under one folder."""

    def __init__(self, data_dir, log=print):
        self.dir = os.path.abspath(data_dir)
        self.log = log
        self._cache = {}

    def path(self, name, split):
        return os.path.join(self.dir, name, f"{split}.svm")

    def meta(self, name):
        return self.ensure(name)

    def ensure(self, name):
        """Prepare data set ``name`` if needed; return its meta dict."""
        ds = DATASETS[name]
        d = os.path.join(self.dir, name)
        mfile = os.path.join(d, "meta.json")
        splits = ["train"] + (["test"] if ds.has_test else [])
        if os.path.exists(mfile) and all(os.path.exists(self.path(name, s)) for s in splits):
            with open(mfile) as f:
                return json.load(f)
        os.makedirs(d, exist_ok=True)
        self.log(f"preparing data set {name} in {d}")
        t0 = time.time()
        ds.prepare(d)
        seconds = time.time() - t0
        meta = {"name": name, "description": ds.description, "has_test": ds.has_test,
                "prepare_seconds": round(seconds, 2)}
        dims = []
        for s in splits:
            X, y = self._load_text(name, s, None)
            meta[f"n_{s}"] = int(X.shape[0])
            meta[f"nnz_{s}"] = int(X.nnz)
            meta[f"bytes_{s}"] = os.path.getsize(self.path(name, s))
            dims.append(X.shape[1])
            if s == "train" and ds.extra.get("task") == "regression":
                meta["task"] = "regression"
                meta["target_mean"], meta["target_std"] = float(y.mean()), float(y.std())
            elif s == "train":
                meta["classes"] = sorted(float(c) for c in np.unique(y))
        meta["d"] = int(max(dims))
        with open(mfile + ".tmp", "w") as f:
            json.dump(meta, f, indent=1)
        os.replace(mfile + ".tmp", mfile)
        return meta

    def signature(self, name):
        st = os.stat(self.path(name, "train"))
        return f"{st.st_size}:{st.st_mtime_ns}"

    def _load_text(self, name, split, n_features):
        from sklearn.datasets import load_svmlight_file
        kw = {} if n_features is None else {"n_features": n_features}
        X, y = load_svmlight_file(self.path(name, split), **kw)
        return X.tocsr(), y

    def load(self, name, split):
        """(X as scipy CSR float64 with the data set's d columns, labels)."""
        key = (name, split)
        if key in self._cache:
            return self._cache[key]
        import scipy.sparse as sp
        meta = self.ensure(name)
        txt = self.path(name, split)
        xz = os.path.join(self.dir, name, f"{split}.X.npz")
        yz = os.path.join(self.dir, name, f"{split}.y.npy")
        if (os.path.exists(xz) and os.path.exists(yz)
                and os.path.getmtime(xz) >= os.path.getmtime(txt)):
            X, y = sp.load_npz(xz).tocsr(), np.load(yz)
        else:
            X, y = self._load_text(name, split, meta["d"])
            sp.save_npz(xz + ".tmp.npz", X, compressed=False)
            os.replace(xz + ".tmp.npz", xz)
            np.save(yz + ".tmp.npy", y)
            os.replace(yz + ".tmp.npy", yz)
        self._cache = {k: v for k, v in self._cache.items() if k[0] == name}  # keep one data set
        self._cache[key] = (X, y)
        return X, y
