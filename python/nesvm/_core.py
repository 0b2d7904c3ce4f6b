"""_core.py - the thin layer over the C library: datasets that borrow numpy and
scipy arrays, training with the GIL released and a progress callback that
carries Ctrl-C, models (predict, arrays, files, bytes), LIBSVM files and
cross-validation.  The estimators (estimators.py) are built on it.

Zero copy: a C-contiguous float64 or float32 numpy matrix, and a scipy CSR
matrix with sorted int32 or int64 indices and float64/float32 values, reach C
as the very buffers numpy holds (nesvm_dataset_wrap_*_ex borrows them); a
32-bit indptr is widened by the C side (n + 1 entries).  Anything else (other
dtypes, Fortran order, other sparse formats, unsorted indices) is converted
once, here, after the sparse matrix's arrays are checked against each other
(_check_sparse: scipy would walk a corrupt indptr out of bounds).
"""
import threading

import numpy as np
import scipy.sparse as sp

from ._nesvm import ffi, lib

__all__ = ["NesvmError", "Dataset", "Model", "Params", "train", "cross_validate", "cross_validate_path",
           "read_libsvm", "write_libsvm", "load_model", "import_model", "version"]


class NesvmError(Exception):
    """A status from the C library other than OK (with its message).  It is
    also a ValueError, MemoryError, OSError or ArithmeticError where the
    status is one of those kinds (see _raise)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class NesvmValueError(NesvmError, ValueError):
    pass


class NesvmMemoryError(NesvmError, MemoryError):
    pass


class NesvmOSError(NesvmError, OSError):
    pass


class NesvmArithmeticError(NesvmError, ArithmeticError):
    pass


_KIND = {
    lib.NESVM_ERR_NOMEM: NesvmMemoryError,
    lib.NESVM_ERR_IO: NesvmOSError,
    lib.NESVM_ERR_NUMERIC: NesvmArithmeticError,
}


def _raise(status, err):
    msg = ffi.string(err.message).decode("utf-8", "replace") if err is not None else ""
    if not msg:
        msg = ffi.string(lib.nesvm_status_str(status)).decode()
    raise _KIND.get(status, NesvmValueError)(status, msg)


def _check(status, err):
    if status != lib.NESVM_OK:
        _raise(status, err)


def version():
    """The C library's version string."""
    return ffi.string(lib.nesvm_version()).decode()


def _address(a):
    """The address of a numpy array's first byte (for the zero-copy checks)."""
    return a.__array_interface__["data"][0]


def _corrupt(X, what):
    raise ValueError("X (a scipy %s) is corrupt: %s" % (type(X).__name__, what))


def _check_int_array(X, name, a, length=None):
    a = np.asarray(a)
    if a.ndim != 1:
        _corrupt(X, "%s has %d dimensions, expected 1" % (name, a.ndim))
    if a.dtype.kind not in "iu":
        _corrupt(X, "%s has dtype %s, expected integers" % (name, a.dtype))
    if length is not None and a.shape[0] != length:
        _corrupt(X, "%s has %d entries, expected %d" % (name, a.shape[0], length))
    return a


def _check_range(X, name, a, bound, what):
    """Every entry of a in [0, bound)."""
    if a.size == 0 or (a.min() >= 0 and a.max() < bound):  # no temporary of a's size
        return
    i = int(np.flatnonzero((a < 0) | (a >= bound))[0])
    _corrupt(X, "%s[%d] is %d, outside [0, %d) (%s)" % (name, i, int(a[i]), bound, what))


def _check_sparse(X):
    """Check the structure of a scipy sparse matrix before anything walks it.

    scipy trusts its arrays: a CSR matrix whose indptr decreases, or points past
    its indices, makes sort_indices, sum, multiply or tocsr read out of bounds
    (a crash, a hang, or a std::vector error).  This checks, with numpy only:
    for CSR/CSC/BSR, indptr (integers, one entry per row (column, block row) and
    one more, starting at 0, non-decreasing, its last entry within indices and
    data) and indices (integers within the other dimension); for COO, row and
    col (as long as data, within the shape).  A ValueError names the first
    problem found.  Other formats (LIL, DOK, DIA) are Python-level structures
    that scipy converts safely.
    """
    if not sp.issparse(X):
        return
    fmt = X.format
    shape = X.shape
    if len(shape) != 2 or shape[0] < 0 or shape[1] < 0:
        _corrupt(X, "shape %r is not a pair of non-negative integers" % (shape,))
    if fmt in ("csr", "csc", "bsr"):
        if fmt == "bsr":
            R, C = X.blocksize
            major, minor = shape[0] // R, shape[1] // C
        elif fmt == "csr":
            major, minor = shape
        else:
            minor, major = shape
        indptr = _check_int_array(X, "indptr", X.indptr, major + 1)
        indices = _check_int_array(X, "indices", X.indices)
        data = np.asarray(X.data)
        if data.ndim != (3 if fmt == "bsr" else 1) or data.shape[0] != indices.shape[0]:
            _corrupt(X, "data has shape %r and indices %d entries, expected %s"
                     % (data.shape, indices.shape[0], "one block per index" if fmt == "bsr" else "as many"))
        if indptr[0] != 0:
            _corrupt(X, "indptr[0] is %d, expected 0" % int(indptr[0]))
        dec = np.flatnonzero(indptr[1:] < indptr[:-1])
        if dec.size:
            i = int(dec[0])
            _corrupt(X, "indptr decreases from indptr[%d] = %d to indptr[%d] = %d (it must be non-decreasing)"
                     % (i, int(indptr[i]), i + 1, int(indptr[i + 1])))
        if indptr[-1] > indices.shape[0]:
            _corrupt(X, "indptr[%d] (the last entry) is %d, but indices and data have %d entries"
                     % (major, int(indptr[-1]), indices.shape[0]))
        unit = {"csr": "columns", "csc": "rows", "bsr": "block columns"}[fmt]
        _check_range(X, "indices", indices[:int(indptr[-1])], minor, "the matrix has %d %s" % (minor, unit))
    elif fmt == "coo":
        row = _check_int_array(X, "row", X.row)
        col = _check_int_array(X, "col", X.col, row.shape[0])
        data = np.asarray(X.data)
        if data.ndim != 1 or data.shape[0] != row.shape[0]:
            _corrupt(X, "data has %d entries and row %d, expected as many"
                     % (data.shape[0] if data.ndim else 0, row.shape[0]))
        _check_range(X, "row", row, shape[0], "the matrix has %d rows" % shape[0])
        _check_range(X, "col", col, shape[1], "the matrix has %d columns" % shape[1])


class Dataset:
    """A nesvm_dataset over numpy/scipy arrays (borrowed while this object lives).

    X: numpy 2-D array or scipy sparse matrix; y: labels (float64 after
    conversion; None = zeros, for prediction); sample_weight: None or n
    non-negative weights.
    """

    def __init__(self, X, y=None, sample_weight=None):
        self._keep = []
        self._ptr = None
        err = ffi.new("nesvm_error *")
        out = ffi.new("nesvm_dataset **")
        if sp.issparse(X):
            _check_sparse(X)  # before scipy walks its arrays (tocsr, sort_indices)
            X = X.tocsr() if X.format != "csr" else X
            if not X.has_sorted_indices:
                X = X.copy()
                X.sum_duplicates()  # sorts the indices too
            st = self._wrap_csr(X, y, out, err)
            if st == lib.NESVM_ERR_ARG and b"not ascending" in ffi.string(err.message):
                # sorted but with duplicate entries (the C side checks every row): merge them
                self._keep = []
                X = X.copy()
                X.sum_duplicates()
                st = self._wrap_csr(X, y, out, err)
            n, d = X.shape
        else:
            X = np.asarray(X)
            if X.ndim != 2:
                raise ValueError("X must be a 2-D array, got %d dimensions" % X.ndim)
            if X.dtype not in (np.float64, np.float32):
                X = X.astype(np.float64)
            X = np.ascontiguousarray(X)
            n, d = X.shape
            labels = self._labels(y, n)
            prec = lib.NESVM_FLOAT if X.dtype == np.float32 else lib.NESVM_DOUBLE
            self._keep += [X, labels]
            st = lib.nesvm_dataset_wrap_dense_ex(n, d, ffi.from_buffer(X), prec,
                                                 ffi.cast("const double *", ffi.from_buffer(labels)), out, err)
            self.values, self.indices, self.indptr = X, None, None
        _check(st, err)
        self._ptr = out[0]
        self.n_rows, self.n_features = n, d
        if sample_weight is not None:
            w = np.ascontiguousarray(sample_weight, dtype=np.float64)
            if w.shape != (n,):
                raise ValueError("sample_weight has shape %r, expected (%d,)" % (w.shape, n))
            self._keep.append(w)
            _check(lib.nesvm_dataset_set_weights(self._ptr, ffi.cast("const double *", ffi.from_buffer(w)), err),
                   err)

    def _wrap_csr(self, X, y, out, err):
        n, d = X.shape
        values = X.data
        if values.dtype not in (np.float64, np.float32):
            values = values.astype(np.float64)
        values = np.ascontiguousarray(values)
        indices = X.indices
        if indices.dtype not in (np.int32, np.int64):
            indices = indices.astype(np.int64)
        indices = np.ascontiguousarray(indices)
        ibits = 32 if indices.dtype == np.int32 else 64
        indptr = np.ascontiguousarray(X.indptr)
        if indptr.dtype not in (np.int32, np.int64):
            indptr = indptr.astype(np.int64)
        bits = 32 if indptr.dtype == np.int32 else 64
        labels = self._labels(y, n)
        prec = lib.NESVM_FLOAT if values.dtype == np.float32 else lib.NESVM_DOUBLE
        self._keep += [values, indices, indptr, labels]
        self.values, self.indices, self.indptr = values, indices, indptr
        return lib.nesvm_dataset_wrap_csr_ex(
            n, d, ffi.from_buffer(indptr), bits, ffi.from_buffer(indices), ibits, ffi.from_buffer(values), prec,
            ffi.cast("const double *", ffi.from_buffer(labels)), out, err)

    @staticmethod
    def _labels(y, n):
        if y is None:
            return np.zeros(n, dtype=np.float64)
        y = np.ascontiguousarray(y, dtype=np.float64)
        if y.shape != (n,):
            raise ValueError("y has shape %r, expected (%d,)" % (y.shape, n))
        return y

    def c_addresses(self):
        """What the C side holds: the addresses of its values, indices and labels."""
        vals = int(ffi.cast("intptr_t", lib.nesvm_dataset_values(self._ptr)))
        ind = int(ffi.cast("intptr_t", lib.nesvm_dataset_indices(self._ptr))) or \
            int(ffi.cast("intptr_t", lib.nesvm_dataset_indices64(self._ptr)))
        lab = int(ffi.cast("intptr_t", lib.nesvm_dataset_labels(self._ptr)))
        return vals, ind, lab

    def close(self):
        if self._ptr is not None:
            lib.nesvm_dataset_destroy(self._ptr)
            self._ptr = None

    def __del__(self):
        self.close()


class Params:
    """A nesvm_params built from {name: value} (values as nesvm_params_set takes them)."""

    def __init__(self, values=None, class_weight=None):
        err = ffi.new("nesvm_error *")
        out = ffi.new("nesvm_params **")
        _check(lib.nesvm_params_create(out, err), err)
        self._ptr = out[0]
        for name, value in (values or {}).items():
            self.set(name, value)
        for label, weight in (class_weight or {}).items():
            _check(lib.nesvm_params_set_class_weight(self._ptr, float(label), float(weight), err), err)

    def set(self, name, value):
        err = ffi.new("nesvm_error *")
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, float):
            value = repr(value)
        _check(lib.nesvm_params_set(self._ptr, name.encode(), str(value).encode(), err), err)

    def get(self, name):
        return _params_get(self._ptr, name)

    def __del__(self):
        if getattr(self, "_ptr", None) is not None:
            lib.nesvm_params_destroy(self._ptr)
            self._ptr = None


def solver_names():
    """The solver registry's names, in its order."""
    out, k = [], 0
    while lib.nesvm_solver_name(k) != ffi.NULL:
        out.append(ffi.string(lib.nesvm_solver_name(k)).decode())
        k += 1
    return out


def solver_info(name):
    """What solver `name` can do (nesvm_solver_describe): {has_c, losses (a list), loss_specific,
    tasks (a list), kernels, memory, distributed, certificate}."""
    err = ffi.new("nesvm_error *")
    si = ffi.new("nesvm_solver_info *")
    si.size = ffi.sizeof("nesvm_solver_info")
    _check(lib.nesvm_solver_describe(str(name).encode(), si, err), err)
    text = lambda p: ffi.string(p).decode()  # noqa: E731
    return {"name": text(si.name), "has_c": bool(si.has_c), "losses": text(si.losses).split(),
            "loss_specific": bool(si.loss_specific), "tasks": text(si.tasks).split(), "kernels": text(si.kernels),
            "memory": text(si.memory), "distributed": bool(si.distributed), "certificate": bool(si.certificate)}


def _params_get(ptr, name):
    err = ffi.new("nesvm_error *")
    buf = ffi.new("char[]", 128)
    _check(lib.nesvm_params_get(ptr, name.encode(), buf, 128, err), err)
    return ffi.string(buf).decode()


# ------------------------------------------------------------------ progress

_tls = threading.local()


class _Run:
    """One training's progress callback: the user's function, and an exception
    raised inside it (KeyboardInterrupt from Ctrl-C among them) to re-raise
    once the C call has returned."""

    def __init__(self, fn):
        self.fn = fn
        self.exc = None


def _on_error(exc_type, exc_value, tb):
    run = getattr(_tls, "run", None)
    if run is not None and run.exc is None:
        run.exc = exc_value if exc_value is not None else exc_type()
    return 1  # cancel the training


@ffi.def_extern(onerror=_on_error)
def _nesvm_progress(p, user):
    run = ffi.from_handle(user)
    if run.fn is None:
        return 0
    info = {"submodel": p.submodel, "n_submodels": p.n_submodels, "iteration": p.iteration,
            "elapsed": p.elapsed, "primal": p.primal, "best_primal": p.best_primal,
            "lower_bound": p.lower_bound, "gap": p.gap}
    return 1 if run.fn(info) else 0


def _call_with_progress(fn, call):
    """call(progress_fn, user) with the GIL released in C; a callback that
    raised (or Ctrl-C) cancels the training and is re-raised here."""
    run = _Run(fn)
    handle = ffi.new_handle(run)
    prev = getattr(_tls, "run", None)
    _tls.run = run
    try:
        st = call(lib._nesvm_progress, handle)
    finally:
        _tls.run = prev
    if run.exc is not None:
        raise run.exc
    return st


# --------------------------------------------------------------------- model

class Model:
    """A trained nesvm model (owns the C object)."""

    def __init__(self, ptr):
        self._ptr = ptr

    @classmethod
    def load(cls, path):
        err = ffi.new("nesvm_error *")
        out = ffi.new("nesvm_model **")
        _check(lib.nesvm_model_load(str(path).encode(), out, err), err)
        return cls(out[0])

    @classmethod
    def from_bytes(cls, data):
        err = ffi.new("nesvm_error *")
        out = ffi.new("nesvm_model **")
        data = bytes(data)
        _check(lib.nesvm_model_load_buffer(data, len(data), out, err), err)
        return cls(out[0])

    @classmethod
    def import_file(cls, path, format=None):
        """A LIBSVM (svm-train -s 0) or LIBLINEAR (-s 1, 2, 3) model file as a
        nesvm model; format "libsvm", "liblinear" or None (told by the file)."""
        err = ffi.new("nesvm_error *")
        out = ffi.new("nesvm_model **")
        fmt = ffi.NULL if format is None else str(format).encode()
        _check(lib.nesvm_model_import(str(path).encode(), fmt, out, err), err)
        return cls(out[0])

    def save(self, path):
        err = ffi.new("nesvm_error *")
        _check(lib.nesvm_model_save(self._ptr, str(path).encode(), err), err)

    def export(self, path, format):
        """Write the model as a LIBSVM ("libsvm") or LIBLINEAR ("liblinear")
        model file that their predict programs read."""
        err = ffi.new("nesvm_error *")
        _check(lib.nesvm_model_export(self._ptr, str(format).encode(), str(path).encode(), err), err)

    def to_bytes(self):
        err = ffi.new("nesvm_error *")
        buf = ffi.new("char **")
        n = ffi.new("size_t *")
        _check(lib.nesvm_model_save_buffer(self._ptr, buf, n, err), err)
        try:
            return ffi.buffer(buf[0], n[0])[:]
        finally:
            lib.nesvm_free(buf[0])

    # what the model holds
    @property
    def labels(self):
        k = lib.nesvm_model_classes(self._ptr)
        return np.frombuffer(ffi.buffer(lib.nesvm_model_labels(self._ptr), 8 * k), dtype=np.float64).copy()

    @property
    def n_features(self):
        return lib.nesvm_model_features(self._ptr)

    @property
    def n_submodels(self):
        return lib.nesvm_model_submodels(self._ptr)

    @property
    def solver(self):
        return ffi.string(lib.nesvm_model_solver(self._ptr)).decode()

    @property
    def multiclass(self):
        return ffi.string(lib.nesvm_model_multiclass(self._ptr)).decode()

    @property
    def kernel(self):
        return ffi.string(lib.nesvm_model_kernel(self._ptr)).decode()

    @property
    def problem(self):
        return ffi.string(lib.nesvm_model_problem(self._ptr)).decode()

    def param(self, name):
        return _params_get(lib.nesvm_model_params(self._ptr), name)

    def submodel(self, k):
        """(coefficients, bias, pos, neg): the weight vector (linear) or the expansion's
        coefficients over the basis (kernel); pos/neg index labels (neg -1: the rest)."""
        err = ffi.new("nesvm_error *")
        beta = ffi.new("double **")
        nb = ffi.new("int64_t *")
        b = ffi.new("double *")
        pos = ffi.new("int *")
        neg = ffi.new("int *")
        _check(lib.nesvm_model_expansion(self._ptr, k, beta, nb, b, pos, neg, err), err)
        w = np.frombuffer(ffi.buffer(beta[0], 8 * nb[0]), dtype=np.float64).copy() if nb[0] else np.zeros(0)
        return w, b[0], pos[0], neg[0]

    def certified(self, k):
        """Did sub-model k reach its certificate?  1 yes, 0 no (it stopped at max_iter,
        a time limit, stalled, or by eps_abs: the model may be far from the optimum),
        2 its solver has none (GS-SVM; a kernel that is not positive semi-definite)."""
        return int(lib.nesvm_model_certified(self._ptr, k))

    def nu_value(self, k):
        """nu-SVC's margin rho (its model is its problem's divided by rho: C = 1/rho) or
        nu-SVR's tube half-width epsilon of sub-model k; nan for other models or
        where unknown."""
        return float(lib.nesvm_model_nu_value(self._ptr, k))

    def training(self, k):
        """(exit reason, iterations, primal, gap) of sub-model k."""
        err = ffi.new("nesvm_error *")
        ex = ffi.new("nesvm_exit *")
        it = ffi.new("int64_t *")
        pr = ffi.new("double *")
        gp = ffi.new("double *")
        _check(lib.nesvm_model_training(self._ptr, k, ex, it, pr, gp, err), err)
        return ffi.string(lib.nesvm_exit_str(ex[0])).decode(), it[0], pr[0], gp[0]

    def basis(self):
        """The basis vectors as a scipy CSR matrix (kernel models), else None."""
        B = lib.nesvm_model_basis(self._ptr)
        if B == ffi.NULL:
            return None
        return _dataset_to_scipy(B)[0]

    def basis_rows(self):
        """Each basis vector's row in the training data (models trained in this
        process), else None."""
        p = lib.nesvm_model_basis_rows(self._ptr)
        B = lib.nesvm_model_basis(self._ptr)
        if p == ffi.NULL or B == ffi.NULL:
            return None
        n = lib.nesvm_dataset_rows(B)
        return np.frombuffer(ffi.buffer(p, 8 * n), dtype=np.int64).copy()

    def predict(self, X, threads=1):
        """(labels, decision values n x n_submodels) for X (numpy or scipy)."""
        ds = X if isinstance(X, Dataset) else Dataset(X)
        n = ds.n_rows
        labels = np.empty(n, dtype=np.float64)
        dec = np.empty((n, self.n_submodels), dtype=np.float64)
        err = ffi.new("nesvm_error *")
        st = lib.nesvm_model_predict(self._ptr, ds._ptr, int(threads), ffi.from_buffer("double[]", labels),
                                     ffi.from_buffer("double[]", dec), err)
        _check(st, err)
        return labels, dec

    @property
    def has_probability(self):
        return bool(lib.nesvm_model_has_probability(self._ptr))

    def sigmoid(self, k):
        """(A, B) of sub-model k: P(pos | f) = 1 / (1 + exp(A f + B))."""
        err = ffi.new("nesvm_error *")
        a = ffi.new("double *")
        b = ffi.new("double *")
        _check(lib.nesvm_model_probability(self._ptr, k, a, b, err), err)
        return a[0], b[0]

    def predict_proba(self, X, threads=1):
        """(labels, probabilities n x n_classes in model label order) for a model
        trained with probability 1, or a logistic regression's (its own)."""
        ds = X if isinstance(X, Dataset) else Dataset(X)
        n = ds.n_rows
        labels = np.empty(n, dtype=np.float64)
        proba = np.empty((n, len(self.labels)), dtype=np.float64)
        err = ffi.new("nesvm_error *")
        st = lib.nesvm_model_predict_proba(self._ptr, ds._ptr, int(threads), ffi.from_buffer("double[]", labels),
                                           ffi.from_buffer("double[]", proba), err)
        _check(st, err)
        return labels, proba

    def __del__(self):
        if getattr(self, "_ptr", None) is not None:
            lib.nesvm_model_destroy(self._ptr)
            self._ptr = None


def load_model(path):
    """A model file written by `nesvm train` or Model.save."""
    return Model.load(path)


def train(X, y, params=None, sample_weight=None, class_weight=None, progress=None, init=None):
    """Train on X (numpy/scipy) and labels y with nesvm parameters {name: value}
    (nesvm_params_set names: c, kernel, gamma, solver, ...).  progress(info) is
    called at every iteration (return True to cancel); Ctrl-C cancels cleanly
    and raises KeyboardInterrupt.  init: a Model whose weights and biases start
    every binary sub-model (nesvm_train_warm: the same class labels and, with
    more than two classes, the same multiclass scheme), None for a cold start.
    Returns (Model, stats dict)."""
    ds = X if isinstance(X, Dataset) else Dataset(X, y, sample_weight)
    prm = params if isinstance(params, Params) else Params(params, class_weight)
    out = ffi.new("nesvm_model **")
    stats = ffi.new("nesvm_stats *")
    stats.size = ffi.sizeof("nesvm_stats")
    err = ffi.new("nesvm_error *")
    start = ffi.NULL if init is None else init._ptr
    st = _call_with_progress(progress, lambda fn, user: lib.nesvm_train_warm(ds._ptr, prm._ptr, start, fn, user, out,
                                                                             stats, err))
    _check(st, err)
    return Model(out[0]), {"iterations": stats.iterations, "seconds": stats.seconds, "primal": stats.primal,
                           "lower_bound": stats.lower_bound, "gap": stats.gap,
                           "exit": ffi.string(lib.nesvm_exit_str(stats.exit_reason)).decode(),
                           "n_sv": stats.n_sv, "kernel_evals": stats.kernel_evals}


def cross_validate(X, y, params=None, folds=5, seed=1, sample_weight=None, class_weight=None, progress=None):
    """Stratified k-fold cross-validation as `nesvm cv`: (predicted labels, accuracy)."""
    ds = X if isinstance(X, Dataset) else Dataset(X, y, sample_weight)
    prm = params if isinstance(params, Params) else Params(params, class_weight)
    pred = np.empty(ds.n_rows, dtype=np.float64)
    acc = ffi.new("double *")
    err = ffi.new("nesvm_error *")
    st = _call_with_progress(progress, lambda fn, user: lib.nesvm_cross_validate(
        ds._ptr, prm._ptr, int(folds), int(seed), fn, user, ffi.from_buffer("double[]", pred), acc, err))
    _check(st, err)
    return pred, acc[0]


def cross_validate_path(X, y, name, values, params=None, folds=5, seed=1, warm=True, sample_weight=None,
                        class_weight=None, progress=None):
    """Cross-validate every value of parameter `name` ("c", "max_iter",
    "gamma", ...) on the folds of cross_validate: (accuracies, iterations),
    numpy arrays of len(values).  Along "c" with warm=True each fold starts
    from its solution at the previous value (give them ascending)."""
    ds = X if isinstance(X, Dataset) else Dataset(X, y, sample_weight)
    prm = params if isinstance(params, Params) else Params(params, class_weight)
    vals = np.ascontiguousarray(values, dtype=np.float64)
    acc = np.empty(len(vals), dtype=np.float64)
    its = np.empty(len(vals), dtype=np.int64)
    err = ffi.new("nesvm_error *")
    st = _call_with_progress(progress, lambda fn, user: lib.nesvm_cross_validate_path(
        ds._ptr, prm._ptr, int(folds), int(seed), str(name).encode(), ffi.from_buffer("double[]", vals),
        len(vals), 1 if warm else 0, fn, user, ffi.from_buffer("double[]", acc),
        ffi.from_buffer("int64_t[]", its), err))
    _check(st, err)
    return acc, its


def import_model(path, format=None):
    """A LIBSVM or LIBLINEAR model file as a nesvm Model (Model.import_file)."""
    return Model.import_file(path, format)


def _dataset_to_scipy(ptr):
    n = lib.nesvm_dataset_rows(ptr)
    d = lib.nesvm_dataset_features(ptr)
    nnz = lib.nesvm_dataset_nnz(ptr)
    fl = lib.nesvm_dataset_precision(ptr) == lib.NESVM_FLOAT
    vt, vs = (np.float32, 4) if fl else (np.float64, 8)
    vals = lib.nesvm_dataset_values(ptr)
    values = np.frombuffer(ffi.buffer(vals, vs * nnz), dtype=vt).copy() if nnz else np.zeros(0, vt)
    labels = np.frombuffer(ffi.buffer(lib.nesvm_dataset_labels(ptr), 8 * n), dtype=np.float64).copy() \
        if n else np.zeros(0)
    if lib.nesvm_dataset_storage(ptr) == lib.NESVM_STORAGE_DENSE:
        X = sp.csr_matrix(values.reshape(n, d))
    else:
        indptr = np.frombuffer(ffi.buffer(lib.nesvm_dataset_indptr(ptr), 8 * (n + 1)), dtype=np.int64).copy()
        indices = np.frombuffer(ffi.buffer(lib.nesvm_dataset_indices(ptr), 4 * nnz), dtype=np.int32).copy() \
            if nnz else np.zeros(0, np.int32)
        X = sp.csr_matrix((values, indices, indptr), shape=(n, d))
    return X, labels


def read_libsvm(path, n_features=0, threads=1):
    """Read a LIBSVM-format file (gzip too) with nesvm's reader: (scipy CSR X, labels y)."""
    err = ffi.new("nesvm_error *")
    opt = ffi.new("nesvm_read_options *")
    lib.nesvm_read_options_init(opt)
    opt.storage = lib.NESVM_STORAGE_CSR
    opt.min_features = int(n_features)
    opt.threads = int(threads)
    out = ffi.new("nesvm_dataset **")
    _check(lib.nesvm_dataset_read(str(path).encode(), opt, out, err), err)
    try:
        return _dataset_to_scipy(out[0])
    finally:
        lib.nesvm_dataset_destroy(out[0])


def write_libsvm(path, X, y):
    """Write X (numpy/scipy) and labels y as a LIBSVM-format file, atomically."""
    ds = Dataset(X, y)
    err = ffi.new("nesvm_error *")
    _check(lib.nesvm_dataset_write(ds._ptr, str(path).encode(), err), err)
