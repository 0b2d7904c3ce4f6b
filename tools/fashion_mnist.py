#!/usr/bin/python3
"""Convert Fashion-MNIST (IDX, gzip) into LIBSVM text format for nesvm tests.

Run with Debian's /usr/bin/python3 (needs python3-numpy).
"""

import argparse
import gzip
import os
import sys

import numpy as np

DEFAULT_SRC = "/usr/share/datasets/fashion-mnist"
IMAGE_MAGIC = 2051
LABEL_MAGIC = 2049

SPLITS = {
    # split name: (images file, labels file)
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}
TASKS = ("all", "tshirt-shirt", "zero-rest")


class FormatError(Exception):
    pass


def read_gz(path):
    if not os.path.isfile(path):
        raise FormatError(f"missing source file: {path}")
    try:
        with gzip.open(path, "rb") as f:
            return f.read()
    except (OSError, EOFError) as e:
        raise FormatError(f"cannot decompress {path}: {e}") from None


def header(data, path, magic, ndims):
    need = 4 * (1 + ndims)
    if len(data) < need:
        raise FormatError(f"{path}: truncated IDX header ({len(data)} bytes)")
    fields = np.frombuffer(data, dtype=">u4", count=1 + ndims)
    if int(fields[0]) != magic:
        raise FormatError(
            f"{path}: bad IDX magic number {int(fields[0])} (expected {magic})")
    return [int(x) for x in fields[1:]], need


def load_images(path):
    data = read_gz(path)
    (n, rows, cols), off = header(data, path, IMAGE_MAGIC, 3)
    if rows != 28 or cols != 28:
        raise FormatError(f"{path}: image size {rows}x{cols}, expected 28x28")
    if len(data) != off + n * rows * cols:
        raise FormatError(
            f"{path}: size {len(data)} bytes does not match header "
            f"({n} images of {rows}x{cols} -> {off + n * rows * cols} bytes)")
    return np.frombuffer(data, dtype=np.uint8, offset=off).reshape(n, rows * cols)


def load_labels(path):
    data = read_gz(path)
    (n,), off = header(data, path, LABEL_MAGIC, 1)
    if len(data) != off + n:
        raise FormatError(
            f"{path}: size {len(data)} bytes does not match header "
            f"({n} labels -> {off + n} bytes)")
    labels = np.frombuffer(data, dtype=np.uint8, offset=off)
    if n and int(labels.max()) > 9:
        raise FormatError(f"{path}: label {int(labels.max())} outside 0..9")
    return labels


def load_split(src, split):
    img_name, lab_name = SPLITS[split]
    x = load_images(os.path.join(src, img_name))
    y = load_labels(os.path.join(src, lab_name))
    if x.shape[0] != y.shape[0]:
        raise FormatError(
            f"{split}: {x.shape[0]} images but {y.shape[0]} labels in {src}")
    return x, y


def apply_task(x, y, task):
    """Return (rows, label strings) for the task."""
    if task == "all":
        return x, np.array([str(c) for c in range(10)], dtype=object)[y]
    if task == "tshirt-shirt":
        keep = (y == 0) | (y == 6)
        x, y = x[keep], y[keep]
    # tshirt-shirt and zero-rest: class 0 -> +1, everything else -> -1
    return x, np.where(y == 0, "+1", "-1").astype(object)


# "index:value" token for every (feature column, pixel value) pair; value 0
# is never written.  Values are v/255 formatted with %.6g.
_TOKENS = np.array(
    [[""] + [f"{j + 1}:{v / 255:.6g}" for v in range(1, 256)] for j in range(784)],
    dtype=object)


def write_libsvm(path, x, labels, chunk=4096):
    join = " ".join
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        for base in range(0, x.shape[0], chunk):
            xb = x[base:base + chunk]
            rows, cols = np.nonzero(xb)  # row-major -> ascending cols per row
            tokens = _TOKENS[cols, xb[rows, cols]]
            ends = np.cumsum(np.bincount(rows, minlength=xb.shape[0])).tolist()
            starts = [0] + ends[:-1]
            f.writelines(
                f"{lab} {join(tokens[s:e])}\n" if e > s else f"{lab}\n"
                for lab, s, e in zip(labels[base:base + chunk], starts, ends))
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=(
            "Convert Fashion-MNIST (gzip IDX files) to LIBSVM text format. "
            "Pixels are divided by 255 and written with printf format %.6g "
            "(6 significant digits, chosen for file size); zero pixels are "
            "omitted; feature indices are 1-based (1..784) and strictly "
            "ascending. Writes OUT/fmnist-TASK.train and OUT/fmnist-TASK.test "
            "(the official 60000/10000 split)."),
        epilog=(
            "tasks: 'all' = 10 classes, labels 0..9 as in the IDX files; "
            "'tshirt-shirt' = only class 0 (T-shirt/top, label +1) and class 6 "
            "(Shirt, label -1); 'zero-rest' = class 0 as +1, all others -1."))
    ap.add_argument("--src", default=DEFAULT_SRC, metavar="DIR",
                    help="directory with the four *-ubyte.gz files "
                         "(default: %(default)s)")
    ap.add_argument("--out", required=True, metavar="DIR",
                    help="output directory (created if missing)")
    ap.add_argument("--task", choices=TASKS, default="all",
                    help="which problem to write (default: %(default)s)")
    ap.add_argument("--limit", type=int, metavar="N",
                    help="keep only the first N training rows (after task "
                         "filtering); the test file is always complete")
    args = ap.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be a positive integer")

    try:
        splits = {s: load_split(args.src, s) for s in ("train", "test")}
    except FormatError as e:
        print(f"fashion_mnist.py: error: {e}", file=sys.stderr)
        return 1

    try:
        os.makedirs(args.out, exist_ok=True)
        for split, (x, y) in splits.items():
            x, labels = apply_task(x, y, args.task)
            if split == "train" and args.limit is not None:
                x, labels = x[:args.limit], labels[:args.limit]
            path = os.path.join(args.out, f"fmnist-{args.task}.{split}")
            write_libsvm(path, x, labels)
            print(f"wrote {path}: {x.shape[0]} rows", file=sys.stderr)
    except OSError as e:
        print(f"fashion_mnist.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
