"""Fast, vectorized writer of LIBSVM-format text files.

Every number is turned into ASCII bytes with numpy arithmetic (no per-entry
Python formatting): a chunk of rows becomes one byte matrix whose rows are
tokens (a label, an " index:value" pair or a newline), each padded to a fixed
width, plus a mask of the bytes that are real; ``matrix[mask]`` is then the
chunk's text in order.

Values are written in fixed point with ``decimals`` digits after the point
(trailing zeros trimmed, no exponent); entries that round to zero are left
out, so the file holds exactly the rounded values.
"""
import os

import numpy as np

_ZERO = ord("0")


def _digits(a, width):
    """Decimal digits of non-negative int64 ``a``: (len(a), width) uint8
    ASCII matrix and a mask that drops leading zeros (keeps the last digit)."""
    pows = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    d = (a[:, None] // pows) % 10
    sig = np.cumsum(d != 0, axis=1) > 0
    sig[:, -1] = True
    return (d + _ZERO).astype(np.uint8), sig


def _ndigits(maxval):
    return max(1, len(str(int(maxval))))


def _label_tokens(labels, label_decimals):
    """(n, width) byte matrix and mask of the labels: integers as they are
    (label_decimals = 0), else real targets in fixed point with
    ``label_decimals`` digits after the point, trailing zeros trimmed ("0"
    for a target that rounds to zero)."""
    if label_decimals == 0:
        labels = np.asarray(labels, dtype=np.int64)
        n = labels.shape[0]
        wl = 1 + _ndigits(np.abs(labels).max() if n else 0)
        L = np.zeros((n, wl), dtype=np.uint8)
        ML = np.zeros((n, wl), dtype=bool)
        L[:, 0] = ord("-")
        ML[:, 0] = labels < 0
        L[:, 1:], ML[:, 1:] = _digits(np.abs(labels), wl - 1)
        return L, ML
    scale = 10 ** label_decimals
    q = np.rint(np.asarray(labels, dtype=np.float64) * scale).astype(np.int64)
    n = q.shape[0]
    aq = np.abs(q)
    ipart, fpart = aq // scale, aq % scale
    wn = _ndigits(ipart.max() if n else 0)
    wl = 1 + wn + 1 + label_decimals
    L = np.zeros((n, wl), dtype=np.uint8)
    ML = np.zeros((n, wl), dtype=bool)
    L[:, 0] = ord("-")
    ML[:, 0] = q < 0
    L[:, 1:1 + wn], ML[:, 1:1 + wn] = _digits(ipart, wn)
    fd = (fpart[:, None] // 10 ** np.arange(label_decimals - 1, -1, -1, dtype=np.int64)) % 10
    L[:, 1 + wn] = ord(".")
    ML[:, 1 + wn] = fpart != 0
    L[:, 2 + wn:] = (fd + _ZERO).astype(np.uint8)
    ML[:, 2 + wn:] = np.flip(np.cumsum(np.flip(fd != 0, axis=1), axis=1) > 0, axis=1)
    return L, ML


def format_rows(labels, indptr, indices, values, decimals=6, label_decimals=0):
    """Bytes of the LIBSVM text of rows given in CSR form.

    labels: integer array (n,), or real targets written in fixed point with
    ``label_decimals`` > 0 digits; indptr (n+1,) starting at any offset;
    indices: 0-based column indices (written +1), ascending within a row;
    values: floats.  Returns a ``bytes`` object ending with a newline.
    """
    n = np.asarray(labels).shape[0]
    indptr = np.asarray(indptr, dtype=np.int64)
    indptr = indptr - indptr[0]
    scale = 10 ** decimals
    q = np.rint(np.asarray(values, dtype=np.float64) * scale).astype(np.int64)
    keep = q != 0
    if not keep.all():  # drop entries that round to zero; fix the row pointers
        indptr = np.concatenate(([0], np.cumsum(keep)))[indptr]
        q = q[keep]
        indices = np.asarray(indices)[keep]
    idx = np.asarray(indices, dtype=np.int64) + 1
    nnz = q.shape[0]

    neg = q < 0
    aq = np.abs(q)
    ipart, fpart = aq // scale, aq % scale
    wi = _ndigits(idx.max()) if nnz else 1
    wn = _ndigits(ipart.max()) if nnz else 1
    # entry token: ' ' idx ':' '-' int '.' frac
    we = 1 + wi + 1 + 1 + wn + 1 + decimals
    E = np.zeros((nnz, we), dtype=np.uint8)
    ME = np.zeros((nnz, we), dtype=bool)
    E[:, 0] = ord(" ")
    ME[:, 0] = True
    c = 1
    E[:, c:c + wi], ME[:, c:c + wi] = _digits(idx, wi)
    c += wi
    E[:, c] = ord(":")
    ME[:, c] = True
    c += 1
    E[:, c] = ord("-")
    ME[:, c] = neg
    c += 1
    E[:, c:c + wn], ME[:, c:c + wn] = _digits(ipart, wn)
    c += wn
    if decimals > 0:
        fd = (fpart[:, None] // 10 ** np.arange(decimals - 1, -1, -1, dtype=np.int64)) % 10
        # keep fraction digits up to the last non-zero one
        keepf = np.flip(np.cumsum(np.flip(fd != 0, axis=1), axis=1) > 0, axis=1)
        E[:, c] = ord(".")
        ME[:, c] = fpart != 0
        E[:, c + 1:c + 1 + decimals] = (fd + _ZERO).astype(np.uint8)
        ME[:, c + 1:c + 1 + decimals] = keepf

    L, ML = _label_tokens(labels, label_decimals)
    wl = L.shape[1]

    w = max(we, wl)
    total = nnz + 2 * n
    B = np.zeros((total, w), dtype=np.uint8)
    M = np.zeros((total, w), dtype=bool)
    rows = np.arange(n, dtype=np.int64)
    lab_pos = indptr[:-1] + 2 * rows
    nl_pos = indptr[1:] + 2 * rows + 1
    ent_row = np.repeat(rows, np.diff(indptr))
    ent_pos = np.arange(nnz, dtype=np.int64) + 2 * ent_row + 1
    B[lab_pos, :wl], M[lab_pos, :wl] = L, ML
    B[ent_pos, :we], M[ent_pos, :we] = E, ME
    B[nl_pos, 0], M[nl_pos, 0] = ord("\n"), True
    return B[M].tobytes()


def write_libsvm(path, labels, X, decimals=6, chunk_nnz=2_000_000, label_decimals=0):
    """Write labels (ints; real targets with label_decimals > 0) and scipy
    CSR matrix X to ``path`` atomically."""
    X = X.tocsr()
    X.sort_indices()
    n = X.shape[0]
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        start = 0
        while start < n:
            # as many rows as fit in about chunk_nnz entries (at least one)
            stop = int(np.searchsorted(X.indptr, X.indptr[start] + chunk_nnz, side="right")) - 1
            stop = min(max(stop, start + 1), n)
            a, b = X.indptr[start], X.indptr[stop]
            f.write(format_rows(labels[start:stop], X.indptr[start:stop + 1],
                                X.indices[a:b], X.data[a:b], decimals, label_decimals))
            start = stop
    os.replace(tmp, path)


def write_dense(path, labels, A, decimals=6, chunk_rows=20000, label_decimals=0):
    """Write labels and a dense 2-D array (zeros left out) atomically."""
    import scipy.sparse as sp
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        for s in range(0, A.shape[0], chunk_rows):
            C = sp.csr_matrix(A[s:s + chunk_rows])
            f.write(format_rows(labels[s:s + chunk_rows], C.indptr, C.indices, C.data, decimals,
                                label_decimals))
    os.replace(tmp, path)
