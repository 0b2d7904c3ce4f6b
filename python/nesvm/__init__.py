"""nesvm: fast SVM training from Python, with scikit-learn estimators.

    from nesvm import SVC
    clf = SVC(C=10, gamma=0.02).fit(X_train, y_train)
    clf.score(X_test, y_test)

Estimators: SVC (NESVM: C-SVM, LP-SVM, LS-SVM, kernels), LinearSVC (the
fastest linear solver for the loss), HyperpassSVC, NewtonSVC (SSVM/NSSVM,
full or reduced kernel), GreedySVC (GS-SVM); LinearSVR and SVR (epsilon-SVR on
scikit-learn's LinearSVR and SVR problems); OneClassSVM (scikit-learn's and
LIBSVM's one-class SVM); NuSVC and NuSVR (scikit-learn's and LIBSVM's nu-SVC and
nu-SVR); LogisticRegression (scikit-learn's L2-regularized logistic regression,
LIBLINEAR's -s 0 problem with a free intercept, probabilities native).
Functions mirroring the CLI: train, cross_validate, cross_validate_path (grid's warm-started path),
read_libsvm, write_libsvm, load_model, import_model (LIBSVM/LIBLINEAR models;
Model.export writes them).
"""
from ._core import (Dataset, Model, NesvmError, Params, cross_validate, cross_validate_path, import_model,
                    load_model, read_libsvm, solver_info, solver_names, train, version, write_libsvm)

__all__ = ["Dataset", "Model", "NesvmError", "Params", "cross_validate", "cross_validate_path", "import_model",
           "load_model", "read_libsvm", "solver_info", "solver_names", "train", "version", "write_libsvm"]
from .estimators import SVC, GreedySVC, HyperpassSVC, LinearSVC, NewtonSVC  # noqa: E402

from .regressors import SVR, LinearSVR  # noqa: E402
from .novelty import OneClassSVM  # noqa: E402
from .nu import NuSVC, NuSVR  # noqa: E402
from .linear_model import LogisticRegression  # noqa: E402

__all__ += ["SVC", "GreedySVC", "HyperpassSVC", "LinearSVC", "LinearSVR", "LogisticRegression", "NewtonSVC", "NuSVC",
            "NuSVR", "OneClassSVM", "SVR"]
