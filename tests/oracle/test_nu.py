#!/usr/bin/python3
"""Oracle test for nu-SVC and nu-SVR (issue 33; src/solvers/nesvm/expansion_wsn.c
and the SMO's nu mode, expansion_smon.c), LIBSVM's -s 1 and -s 4 problems in
LIBSVM's scaling, with sample weights s_i (1 without) and W = sum s_i:

  nu-SVC (each pair of classes, y = +1 for the model's first):
    dual    min 1/2 a'Q a,  0 <= a_i <= s_i,  each class's sum of a = R = nu W / 2
    primal  1/2 ||w||^2 + min_u [sum_{y=+1} s_i max(0, u - f_i) - R u]
                        + min_v [sum_{y=-1} s_i max(0, v + f_i) - R v]
    model   beta / rho and b / rho, rho = (u + v) / 2, b = (v - u) / 2
            (svm-train prints C = 1/rho and writes the scaled model)
  nu-SVR (the tube over 2 n variables, costs C s_i, R = C nu W / 2):
    dual    max y'beta - 1/2 beta'K beta,  beta = a - a*, each sum of a, a* = R
    primal  1/2 ||w||^2 + C min_u [sum s_i max(0, r_i - u) + nu W/2 u]
                        + C min_v [sum s_i max(0, v - r_i) - nu W/2 v],  r = y - f
    model   beta and b = (u + v) / 2, epsilon = (u - v) / 2

Every objective is recomputed here with numpy from the model files (nesvm's
basis, coefficients and nu_rho; LIBSVM's support vectors, coefficients and
rho, its nu-SVC scale r recovered from the coefficients' sum, nu W / r):

  - heart_scale, a generated 3-class set and a generated regression set
    (and 2,500-row sets: several working-set rounds), RBF and linear, nu in
    {0.1, 0.5, 0.8} where feasible, nu-SVR with C in {1, 10}, against
    svm-train -e 1e-6: LIBSVM's printed obj is its file's dual value; weak
    duality both ways (nesvm's P >= LIBSVM's dual value, LIBSVM's primal >=
    nesvm's certified bound); nesvm as good as LIBSVM; nesvm's certificate
    and its P the one recomputed from its file; ||w_n - w_L|| <=
    sqrt(2 (P_n - P*)) + sqrt(2 (P_L - P*)) with P* >= the better bound (the
    w-part of the decision values); LIBSVM's offsets nearly as good for
    nesvm's w as nesvm's own; the decision values and labels alike;
    LIBSVM's printed C = 1/rho and epsilon against nesvm's;
  - nu's properties on random problems: the fraction of margin errors (of
    rows outside the tube) <= nu <= the fraction of support vectors;
  - an infeasible nu refused with LIBSVM's meaning, nothing written; the
    largest feasible nu accepted;
  - sample weights: a weight of 2 is the row repeated;
  - export to svm-predict and import of svm-train's models: the same labels;
  - a precomputed kernel (-t 4) of the RBF matrix: -t 2's model.

    test_nu.py NESVM_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from test_regression import write_libsvm  # this folder's helper

HEART = '/usr/share/doc/liblinear-tools/examples/heart_scale'


def run(args, check=True):
    p = subprocess.run(args, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(args), p.returncode, p.stderr))
    return p


def rows_of(lines, d):
    S = np.zeros((len(lines), d))
    for i, ln in enumerate(lines):
        for tok in ln.split():
            if ':' not in tok:
                continue
            j, v = tok.split(':')
            if 0 < int(j) <= d:
                S[i, int(j) - 1] = float(v)
    return S


def read_data(path):
    lines = [ln for ln in open(path).read().splitlines() if ln.strip()]
    d = max(int(t.split(':')[0]) for ln in lines for t in ln.split()[1:])
    return rows_of([ln.split(None, 1)[1] for ln in lines], d), np.array([float(ln.split()[0]) for ln in lines])


def kern(A, B, kernel, g):
    if kernel == 'linear':
        return A @ B.T
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-g * np.maximum(d2, 0))


def nesvm_model(path, d):
    """(labels, S, subs): S the basis (a linear model: I, its weights the
    coefficients); subs a list of dicts pos, neg, b, beta, nu (nu_rho or
    nu_epsilon, nan without), exit, primal, gap."""
    lines = open(path).read().splitlines()
    labels = [float(x) for x in [ln for ln in lines if ln.startswith('labels')][0].split()[1:]]
    S = np.eye(d)
    if 'basis' in lines:
        nb = int([ln for ln in lines if ln.startswith('nr_basis')][0].split()[1])
        i = lines.index('basis')
        S = rows_of([ln[2:] for ln in lines[i + 1:i + 1 + nb]], d)
    subs = []
    for k, ln in enumerate(lines):
        if not ln.startswith('submodel '):
            continue
        f = ln.split()
        sub = dict(zip(f[2::2], f[3::2]))
        sub['b'], sub['nu'] = float(lines[k + 1].split()[1]), np.nan
        j = k + 2
        if lines[j].split()[0] in ('nu_rho', 'nu_epsilon'):
            sub['nu'] = float(lines[j].split()[1])
            j += 1
        if lines[j].startswith('prob'):
            j += 1
        sub['beta'] = np.array([float(x) for x in lines[j + 1:j + 1 + len(S)]])
        sub['pos'], sub['neg'] = int(sub['pos']), int(sub['neg'])
        subs.append(sub)
    return labels, S, subs


def libsvm_model(path, d):
    """(head, labels, svs by pair): for each pair (i, j) of label indices, the
    support vectors of both classes and their coefficients; a regression's
    one 'pair' (0, 1).  rho as written (decision = sum coef K - rho)."""
    lines = open(path).read().splitlines()
    k = lines.index('SV')
    head = dict(ln.split(None, 1) for ln in lines[:k] if ln.strip())
    nc = int(head['nr_class'])
    sv = [ln.split() for ln in lines[k + 1:] if ln.strip()]
    ncoef = 1 if 'label' not in head else nc - 1
    X = rows_of([' '.join(t[ncoef:]) for t in sv], d)
    coef = np.array([[float(x) for x in t[:ncoef]] for t in sv]).reshape(len(sv), ncoef)
    rho = [float(x) for x in head['rho'].split()]
    if 'label' not in head:
        return head, None, {(0, 1): (X, coef[:, 0], rho[0])}
    labels = [float(x) for x in head['label'].split()]
    nsv = [int(x) for x in head['nr_sv'].split()]
    start = np.concatenate([[0], np.cumsum(nsv)])
    pairs, p = {}, 0
    for i in range(nc):
        for j in range(i + 1, nc):
            si, sj = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
            pairs[(i, j)] = (np.vstack([X[si], X[sj]]), np.concatenate([coef[si, j - 1], coef[sj, i]]), rho[p])
            p += 1
    return head, labels, pairs


def min_hinge(G, c, R):
    """min over l of sum c_i max(0, l - G_i) - l R (R <= sum c: a breakpoint)."""
    o = np.argsort(G, kind='stable')
    Gs, cs = G[o], c[o]
    below = np.concatenate([[0], np.cumsum(cs)[:-1]])
    below_g = np.concatenate([[0], np.cumsum(cs * Gs)[:-1]])
    vals = Gs * below - below_g - R * Gs
    k = int(np.argmin(vals))
    return vals[k], Gs[k]


class NuProblem:
    """One binary nu-SVC pair (y = +-1) or a nu-SVR (y real), its objectives in numpy."""

    def __init__(self, X, y, kernel, g, nu, svr=False, C=1.0, s=None):
        self.X, self.y, self.kernel, self.g, self.nu, self.svr, self.C = X, y, kernel, g, nu, svr, C
        self.s = np.ones(len(X)) if s is None else s
        self.c = self.C * self.s if svr else self.s
        self.R = 0.5 * nu * self.c.sum()

    def k(self, A, B):
        return kern(A, B, self.kernel, self.g)

    def quad(self, S, beta):
        return beta @ self.k(S, S) @ beta

    def margins(self, S, beta, X=None):
        return self.k(self.X if X is None else X, S) @ beta

    def grads(self, f):
        """G of each sign's variables: nu-SVC y f per class; nu-SVR -r (upper) and r (lower)."""
        if self.svr:
            r = self.y - f
            return [(-r, self.c), (r, self.c)]
        return [(f[self.y > 0], self.c[self.y > 0]), (-f[self.y < 0], self.c[self.y < 0])]

    def primal(self, S, beta):
        f = self.margins(S, beta)
        return 0.5 * self.quad(S, beta) + sum(min_hinge(G, c, self.R)[0] for G, c in self.grads(f))

    def primal_at(self, S, beta, lam):
        """P with the offsets fixed: lam = (l_+, l_-) of grads' order."""
        f = self.margins(S, beta)
        return 0.5 * self.quad(S, beta) + sum((c * np.maximum(l - G, 0)).sum() - l * self.R
                                              for (G, c), l in zip(self.grads(f), lam))

    def intervals(self, S, beta):
        """Each sign's optimal offsets l for w (G's order of grads): [lo, hi],
        an interval where P is flat between two margins (the sign's costs sum
        to R exactly at a breakpoint, no free variable), else lo = hi."""
        f, res = self.margins(S, beta), []
        for G, c in self.grads(f):
            o = np.argsort(G, kind='stable')
            cum = np.cumsum(c[o])
            k = min(int(np.searchsorted(cum, self.R * (1 - 1e-12))), len(G) - 1)
            flat = k + 1 < len(G) and abs(cum[k] - self.R) <= 1e-12 * self.R
            res.append((G[o[k]], G[o[k + 1]] if flat else G[o[k]]))
        return res

    def lams(self, S, beta):
        f = self.margins(S, beta)
        return [min_hinge(G, c, self.R)[1] for G, c in self.grads(f)]

    def lin(self, S, beta):
        """y'beta of an expansion over rows S of X (matched by value: LIBSVM writes 8 digits)."""
        idx = [int(np.argmin(((self.X - row) ** 2).sum(1))) for row in S]
        return float(self.y[idx] @ beta)

    def dual(self, S, beta):
        """D: nu-SVC -1/2 beta'K beta; nu-SVR y'beta - 1/2 beta'K beta."""
        return (self.lin(S, beta) if self.svr else 0.0) - 0.5 * self.quad(S, beta)

    def dist(self, S1, b1, S2, b2):
        return np.sqrt(max(self.quad(S1, b1) + self.quad(S2, b2) - 2 * b1 @ self.k(S1, S2) @ b2, 0))

def pair_problem(X, y, labels, llabels, lpairs, sub, kernel, g, nu, svr, C):
    """nesvm sub-model sub's problem, its name, and LIBSVM's solution of it
    in nesvm's orientation: (S, beta, b, r, p) with beta and b unscaled
    (nu-SVC: r = nu W / sum |coef|, the scale svm-train printed C = 1/r of;
    nu-SVR: r = 1), p the pair's index in LIBSVM's order."""
    if svr:
        SL, cL, rhoL = lpairs[(0, 1)]
        return NuProblem(X, y, kernel, g, nu, True, C), 'regression', (SL, cL, -rhoL, 1.0, 0)
    i, j = sub['pos'], sub['neg']
    rows = (y == labels[i]) | (y == labels[j])
    pb = NuProblem(X[rows], np.where(y[rows] == labels[i], 1.0, -1.0), kernel, g, nu)
    li, lj = llabels.index(labels[i]), llabels.index(labels[j])
    key = (min(li, lj), max(li, lj))
    SL, cL, rhoL = lpairs[key]
    if li > lj:
        cL, rhoL = -cL, -rhoL
    r = 2 * pb.R / np.abs(cL).sum()
    return pb, 'pair %g/%g' % (labels[i], labels[j]), (SL, cL * r, -rhoL * r, r, sorted(lpairs).index(key))

def refused_pair(X, y, stderr, peer, kernel, g, nu):
    """The pair of classes nesvm refused (w = 0 at the optimum): LIBSVM's
    primal value of it, an upper bound on the optimum whatever its
    coefficients (below 0, it would show w* != 0), and its file's fuzz."""
    a, b = (float(v) for v in re.search(r'classes (\S+) and (\S+):', stderr).groups())
    head, llabels, lpairs = libsvm_model(peer, X.shape[1])
    sub = {'pos': 0, 'neg': 1}
    pb, _, (SL, betaL, _, _, _) = pair_problem(X, y, [a, b], llabels, lpairs, sub, kernel, g, nu, False, None)
    fuzz = 1e-7 * (np.abs(betaL) @ np.abs(pb.k(SL, SL)) @ np.abs(betaL)) + 1e-12
    return pb.primal(SL, betaL), fuzz


def main():
    nesvm = sys.argv[1]
    tmp = tempfile.mkdtemp()
    data, model, peer, wfile = (os.path.join(tmp, f) for f in ('d.txt', 'm.model', 'p.model', 'w.txt'))
    passed = failed = 0

    def report(ok, msg):
        nonlocal passed, failed
        print('%s - %s' % ('ok' if ok else 'not ok', msg))
        passed += bool(ok)
        failed += not ok

    def nesvm_train(args, path=None):
        out = run([nesvm, 'train'] + args + [path or data, model]).stdout
        lb = re.search(r'^lower bound (\S+)', out, re.M)
        return out, float(lb.group(1)) if lb else np.nan

    # ---- 1. against svm-train -e 1e-6
    rng = np.random.default_rng(331)
    Xh, yh = read_data(HEART)
    X3 = np.vstack([rng.normal(size=(n, 4)) + mu for n, mu in ((60, 0), (80, 1.5), (100, -1.2))])
    y3 = np.repeat([2.0, 1.0, 3.0], [60, 80, 100])
    p3 = rng.permutation(len(y3))
    X3, y3 = X3[p3], y3[p3]
    Xb = rng.normal(size=(2500, 6))
    yb = np.where(Xb[:, 0] + 0.5 * Xb[:, 1] ** 2 - 0.5 + 0.8 * rng.normal(size=2500) > 0, 1.0, -1.0)
    from sklearn.datasets import make_friedman1
    Xr, yr = make_friedman1(400, 5, noise=1.0, random_state=3)
    Xr2, yr2 = make_friedman1(2500, 6, noise=1.0, random_state=4)
    # gammas LIBSVM's float holds exactly: both solve the same problem
    svc_sets = [('heart_scale', Xh, yh, 0.0625, (0.1, 0.5, 0.8)), ('3 classes', X3, y3, 0.25, (0.1, 0.5, 0.8)),
                ('generated 2500x6', Xb, yb, 0.125, (0.5,))]
    svr_sets = [('friedman 400', Xr, yr, 0.25, (1, 10)), ('friedman 2500', Xr2, yr2, 0.125, (1,))]
    cases = [(s, 'svc', kernel, nu, None) for s in svc_sets for kernel in ('rbf', 'linear') for nu in s[4]]
    cases += [(s, 'svr', kernel, nu, C) for s in svr_sets for kernel in ('rbf', 'linear') for nu in (0.1, 0.5, 0.8)
              for C in s[4]]
    for (name, X, y, g, _), kind, kernel, nu, C in cases:
        if (name.startswith('generated') and kernel == 'linear') or (name == 'friedman 2500' and nu != 0.5):
            continue
        svr = kind == 'svr'
        what = '%s nu-%s %s nu %g%s' % (name, kind.upper(), kernel, nu, ' C %g' % C if svr else '')
        write_libsvm(data, X, y)
        targs = ['-s', '4' if svr else '1', '-t', '2' if kernel == 'rbf' else '0', '-g', repr(g), '-n', repr(nu)]
        targs += ['-c', repr(C)] if svr else []
        lp_ = run(['svm-train'] + targs + ['-e', '1e-6', data, peer], check=False)
        lout = lp_.stdout
        if os.path.exists(model):
            os.unlink(model)
        pn = run([nesvm, 'train'] + targs + ['-e', '1e-8', data, model], check=False)
        if 'specified nu is infeasible' in lp_.stdout + lp_.stderr:  # LIBSVM's refusal: nesvm's too
            report(pn.returncode == 1 and 'specified nu is infeasible' in pn.stderr and not os.path.exists(model),
                   '%s: infeasible nu refused as svm-train refuses it: %s' % (what, pn.stderr.strip()[:90]))
            continue
        if 'its optimum is w = 0' in pn.stderr:  # nu below the smallest of a separating optimum
            PL = refused_pair(X, y, pn.stderr, peer, kernel, g, nu)
            report(not svr and pn.returncode == 1 and not os.path.exists(model) and PL[0] >= -PL[1],
                   '%s: refused, w = 0 at the optimum or too near it, and svm-train\'s solution shows no better: its '
                   'primal %.3g not below 0 (fuzz %.2g)' % (what, PL[0], PL[1]))
            continue
        nout, lb = pn.stdout, float(re.search(r'^lower bound (\S+)', pn.stdout, re.M).group(1))
        labels, S, subs = nesvm_model(model, X.shape[1])
        head, llabels, lpairs = libsvm_model(peer, X.shape[1])
        objs = [float(v) for v in re.findall(r'obj = (\S+),', lout)]
        lprint = [float(v) for v in re.findall(r'(?:C|epsilon) = (\S+)', lout)]
        for sub in subs:
            pb, pw, (SL, betaL, bL, rL, lp) = pair_problem(X, y, labels, llabels, lpairs, sub, kernel, g, nu, svr, C)
            pw = '%s [%s]' % (what, pw)
            rho_n = sub['nu'] if not svr else 1.0
            beta, b = sub['beta'] * rho_n, sub['b'] * rho_n
            Sn, beta = (beta[None, :], np.array([1.0])) if kernel == 'linear' else (S, beta)
            # LIBSVM's file: its support vectors to 8 digits, so that its
            # values carry 1e-7 of the terms' magnitudes (fuzz)
            fuzz = 1e-7 * (np.abs(betaL) @ np.abs(pb.k(SL, SL)) @ np.abs(betaL) + pb.lin(SL, np.abs(betaL)) * svr)
            objL = -pb.dual(SL, betaL) if svr else 0.5 * pb.quad(SL, betaL) / rL ** 2
            report(abs(objL - objs[lp]) <= 1e-6 * abs(objs[lp]) + fuzz / (1 if svr else rL ** 2) + 1e-6,
                   '%s: LIBSVM\'s obj %.10g is its file\'s (%.10g)' % (pw, objs[lp], objL))
            Pn, PL, DL = pb.primal(Sn, beta), pb.primal(SL, betaL), pb.dual(SL, betaL)
            # nesvm's dual value: its file's (a linear nu-SVR's weights hide y'beta: its printed bound)
            Dn = lb if svr and kernel == 'linear' else pb.dual(Sn, beta)
            P, tiny = float(sub['primal']), 1e-9 * abs(Pn) + 1e-9
            report(sub['exit'] == 'converged' and abs(Pn - P) <= 1e-7 * abs(P) + 1e-9 and
                   float(sub['gap']) <= 1e-8 and Pn - Dn <= 1e-7 * abs(Pn) + tiny,
                   '%s: nesvm converged, P %.12g (file %.12g), its dual value %.12g' % (pw, Pn, P, Dn))
            report(Pn >= DL - tiny - fuzz and PL >= Dn - tiny - fuzz,
                   '%s: weak duality: P_nesvm %.12g >= D_libsvm %.12g, P_libsvm %.12g >= D_nesvm %.12g' %
                   (pw, Pn, DL, PL, Dn))
            report(Pn <= PL + 1e-6 * abs(PL) + fuzz + 1e-9, '%s: as good as LIBSVM: P %.10g, LIBSVM\'s %.10g' % (pw, Pn, PL))
            star = max(Dn, DL - fuzz)
            bound = np.sqrt(2 * max(Pn - star, 0)) + np.sqrt(2 * max(PL - star, 0))
            dw = pb.dist(Sn, beta, SL, betaL)
            report(dw <= bound + 1e-7 * np.sqrt(pb.quad(Sn, beta)) + 1e-9,
                   '%s: ||w_nesvm - w_libsvm|| %.3g <= %.3g from the gaps' % (pw, dw, bound))
            # the offsets: nesvm's the best for its w, LIBSVM's nearly as good:
            # optimal for its own margins to its KKT tolerance 1e-6 (and its
            # epsilon printed to 6 decimals), which differ from nesvm's by at
            # most ||w_n - w_L|| sqrt(max K_ii): each offset's P moves by at
            # most the costs' sum times its error
            lam_n = [-(b + sub['nu']), b - sub['nu']] if svr else [rho_n - b, rho_n + b]
            epsL = lprint[lp] if svr else np.nan
            lamL = [-(bL + epsL), bL - epsL] if svr else [rL - bL, rL + bL]
            Pbest, Pmine, PLam = (pb.primal_at(Sn, beta, lam) for lam in (pb.lams(Sn, beta), lam_n, lamL))
            kmax = np.sqrt(max(1.0, pb.k(pb.X, pb.X).diagonal().max()) if kernel == 'rbf' else (pb.X ** 2).sum(1).max())
            tol_off = pb.c.sum() * (1 + svr) * (2e-6 + 2 * dw * kmax) + fuzz
            report(Pmine - Pbest <= 1e-9 * abs(Pbest) + 1e-9 and PLam - Pmine <= tol_off,
                   '%s: offsets: nesvm\'s optimal for its w (P %.12g, best %.12g), LIBSVM\'s %.3g higher' %
                   (pw, Pmine, Pbest, PLam - Pmine))
            # the printed C = 1/rho or epsilon, and the decision values, where
            # the offsets are unique (a flat P leaves them to each solver's
            # rounding: LIBSVM's at R = nu W / 2 integral takes an end)
            ivs = pb.intervals(Sn, beta)
            width = max(hi - lo for lo, hi in ivs)
            if width > 1e-4 * (abs(lam_n[0]) + abs(lam_n[1])):  # (within the comparisons' 1e-3: compared)
                mid = all(abs(l - 0.5 * (lo + hi)) <= 1e-9 * (abs(lo) + abs(hi)) + 1e-12
                          for l, (lo, hi) in zip(lam_n, ivs) if hi > lo)
                report(mid, '%s: the offsets are not unique (P flat over %.3g): nesvm\'s in the middle of each flat '
                       'stretch (LIBSVM\'s rule without a free vector: (ub + lb) / 2); C, epsilon and the decision '
                       'values not compared' % (pw, width))
                continue
            if svr:
                report(abs(epsL - sub['nu']) <= 1e-3 * abs(epsL) + 2e-6,
                       '%s: epsilon %.6f = svm-train\'s %.6f' % (pw, sub['nu'], epsL))
                dn, dl = pb.margins(Sn, beta) + b, pb.margins(SL, betaL) + bL
            else:
                report(abs(lprint[lp] - 1 / rho_n) <= 1e-3 * lprint[lp] + 2e-6 and abs(rL - rho_n) <= 1e-3 * rho_n,
                       '%s: C = 1/rho %.6f = svm-train\'s %.6f (its r %.8g, nesvm\'s rho %.8g)' %
                       (pw, 1 / rho_n, lprint[lp], rL, rho_n))
                dn, dl = (pb.margins(Sn, beta) + b) / rho_n, (pb.margins(SL, betaL) + bL) / rL
            scale = max(np.abs(dl).max(), 1e-300)
            diff = np.abs(dn - dl).max()
            same = (np.sign(dn) == np.sign(dl)) | (np.abs(dl) <= 1e-3 * scale)
            report(diff <= 1e-3 * scale and (svr or same.all()),
                   '%s: decision values alike (max |difference| %.3g, scale %.3g; labels alike where |d| > 1e-3)' %
                   (pw, diff, scale))

    more_checks(nesvm, tmp, report, rng)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def decisions(nesvm, data, model, out):
    run([nesvm, 'predict', '-q', '--decision-values', data, model, out])
    return np.loadtxt(out, ndmin=2)


def more_checks(nesvm, tmp, report, rng):
    """Sections 2 to 6: nu's properties, infeasible nu, weights, LIBSVM both
    ways, a precomputed kernel."""
    data, model, peer, wfile, out = (os.path.join(tmp, f) for f in ('d2.txt', 'm2.model', 'p2.model', 'w2.txt',
                                                                     'o2.txt'))
    # ---- 2. nu's properties on random problems: margin errors (nu-SVC: y d < 1;
    # nu-SVR: |y - d| > epsilon) <= nu n <= support vectors (the free ones
    # on the margin to the solver's accuracy)
    for t in range(8):
        svr = t % 2 == 1
        n, d = int(rng.integers(80, 400)), int(rng.integers(2, 8))
        X = rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d)
        # (nu-SVC: classes that part at the drawn nu; near its smallest nu, where
        # w* tends to 0, both solvers crawl: LIBSVM prints a C of 1e7 and more)
        y = X[:, 0] + np.sin(X[:, -1]) + rng.normal(scale=1.0 if svr else 0.4, size=n)
        y = y if svr else np.where(y > np.median(y), 1.0, -1.0)
        nu, g = float(rng.uniform(0.05, 0.95) if svr else rng.uniform(0.3, 0.9)), float(rng.uniform(0.05, 0.5))
        write_libsvm(data, X, y)
        args = ['-s', '4' if svr else '1', '-t', 'rbf', '-g', repr(g), '-n', repr(nu), '-e', '1e-9']
        args += ['-c', repr(float(rng.uniform(0.2, 4)))] if svr else []
        p = run([nesvm, 'train'] + args + [data, model], check=False)
        if p.returncode != 0:  # nu-SVC below its smallest nu: svm-train's solution no better
            run(['svm-train', '-s', '1', '-g', repr(g), '-n', repr(nu), '-e', '1e-6', data, peer])
            PL = refused_pair(X, y, p.stderr, peer, 'rbf', g, nu)
            report('its optimum is w = 0' in p.stderr and not svr and PL[0] >= -PL[1],
                   'random %d: refused, w = 0 at the optimum or too near it (svm-train\'s primal %.3g, fuzz %.2g)' %
                   (t, PL[0], PL[1]))
            continue
        labels, S, subs = nesvm_model(model, d)
        dv = decisions(nesvm, data, model, out)[:, 1]
        nsv = int((subs[0]['beta'] != 0).sum())
        if svr:
            tol = 1e-6 * (1 + np.abs(y).max())
            errs = int((np.abs(y - dv) > subs[0]['nu'] + tol).sum())
            on = int((np.abs(y - dv) >= subs[0]['nu'] - tol).sum())
        else:
            yy = np.where(y == labels[0], 1.0, -1.0)
            errs, on = int((yy * dv < 1 - 1e-6).sum()), int((yy * dv <= 1 + 1e-6).sum())
        report(subs[0]['exit'] == 'converged' and errs <= nu * n <= nsv and nu * n <= on,
               'random nu-%s %d (n %d, d %d, nu %.3f): errors %d <= nu n %.1f <= support vectors %d, at or beyond '
               'the margin %d%s' % ('SVR' if svr else 'SVC', t, n, d, nu, errs, nu * n, nsv, on,
                                    ' (epsilon %.3g)' % subs[0]['nu'] if svr else ''))

    # ---- 3. infeasible nu: 2 min(W+, W-) / W the largest accepted, nothing written above
    Xh, yh = read_data(HEART)
    write_libsvm(data, Xh, yh)
    npos, nneg = int((yh > 0).sum()), int((yh < 0).sum())
    top = 2.0 * min(npos, nneg) / len(yh)
    p = run([nesvm, 'train', '-q', '-s', '1', '-t', 'rbf', '-n', repr(top), data, model], check=False)
    report(p.returncode == 0 and os.path.exists(model), 'nu %.17g = 2 min(n+, n-) / n accepted' % top)
    for nu in (top * (1 + 1e-12), 0.95, 1.0):
        os.unlink(model) if os.path.exists(model) else None
        p = run([nesvm, 'train', '-s', '1', '-t', 'rbf', '-n', repr(nu), data, model], check=False)
        pl = run(['svm-train', '-s', '1', '-n', repr(nu), data, peer], check=False)
        report(p.returncode == 1 and 'specified nu is infeasible' in p.stderr and 'classes 1 and -1' in p.stderr and
               'the largest feasible nu for them is 0.888888' in p.stderr and not os.path.exists(model) and
               'specified nu is infeasible' in pl.stdout + pl.stderr,
               'nu %.17g refused, nothing written (svm-train refuses it too): %s' % (nu, p.stderr.strip()[-60:]))
    for nu in ('0', '1.5'):
        p = run([nesvm, 'train', '-s', '1', '-n', nu, data, model], check=False)
        report(p.returncode == 2 and "for svm_nu: expected a number in (0, 1]" in p.stderr,
               '-n %s refused by its range (exit %d)' % (nu, p.returncode))

    # ---- 4. sample weights: a weight of 2 is the row repeated
    for svr in (0, 1):
        Xw, yw = (Xh[:150], yh[:150]) if not svr else (Xh[:150], Xh[:150, 0] * 3 + Xh[:150, 1] ** 2)
        write_libsvm(data, Xw, yw)
        with open(wfile, 'w') as f:
            f.write(''.join('%d\n' % (2 if i % 7 == 0 else 1) for i in range(150)))
        rep = os.path.join(tmp, 'rep.txt')
        extra = [i for i in range(150) if i % 7 == 0]
        write_libsvm(rep, np.vstack([Xw, Xw[extra]]), np.concatenate([yw, yw[extra]]))
        args = ['-q', '-s', '4' if svr else '1', '-t', 'rbf', '-g', '0.125', '-n', '0.4', '-e', '1e-10']
        run([nesvm, 'train'] + args + ['-W', wfile, data, model])
        dw_ = decisions(nesvm, data, model, out)[:, 1]
        (_, _, sw), pw_ = nesvm_model(model, 13), None
        run([nesvm, 'train'] + args + [rep, model])
        dr = decisions(nesvm, data, model, out)[:, 1]
        (_, _, sr) = nesvm_model(model, 13)
        report(abs(float(sw[0]['primal']) - float(sr[0]['primal'])) <= 1e-8 * abs(float(sr[0]['primal'])) and
               np.abs(dw_ - dr).max() <= 1e-4 * np.abs(dr).max() and abs(sw[0]['nu'] - sr[0]['nu']) <= 1e-4 * sr[0]['nu'],
               'nu-%s weights: a weight of 2 = the row twice (P %s vs %s, rho/epsilon %.8g vs %.8g, decision values '
               'within %.2g)' % ('SVR' if svr else 'SVC', sw[0]['primal'], sr[0]['primal'], sw[0]['nu'],
                                  sr[0]['nu'], np.abs(dw_ - dr).max()))

    # ---- 5. LIBSVM both ways: svm-predict reads nesvm's exports, nesvm
    # svm-train's models, with the same labels
    X3 = np.vstack([rng.normal(size=(70, 3)) + m for m in (0, 2, -2)])
    y3 = np.repeat([5.0, 7.0, 6.0], 70)
    from sklearn.datasets import make_friedman1
    Xr, yr = make_friedman1(300, 5, noise=1.0, random_state=7)
    for name, X, y, args in (('nu-SVC 3 classes rbf', X3, y3, ['-s', '1', '-t', 'rbf', '-n', '0.3']),
                             ('nu-SVC heart poly', Xh, yh, ['-s', '1', '-t', 'poly', '-g', '0.1', '-n', '0.4']),
                             ('nu-SVR rbf', Xr, yr, ['-s', '4', '-t', 'rbf', '-c', '4', '-n', '0.4']),
                             ('nu-SVR linear', Xr, yr, ['-s', '4', '-t', 'linear', '-n', '0.6'])):
        write_libsvm(data, X, y)
        run([nesvm, 'train', '-q'] + args + [data, model])
        run([nesvm, 'export', '--format', 'libsvm', model, peer])
        head = open(peer).readline().split()
        run([nesvm, 'predict', '-q', data, model, out])
        mine = np.loadtxt(out)
        run(['svm-predict', data, peer, out])
        theirs = np.loadtxt(out)
        tol = 0 if name.startswith('nu-SVC') else 1e-9 * np.abs(theirs).max()
        report(head == ['svm_type', 'nu_%s' % name[3:6].lower()] and np.abs(mine - theirs).max() <= tol,
               '%s: exported as %s, svm-predict\'s predictions nesvm\'s (max |difference| %.3g)' %
               (name, ' '.join(head), np.abs(mine - theirs).max()))
        lt = ['-t', {'rbf': '2', 'poly': '1', 'linear': '0'}[args[3]]] + args[4:] + (['-g', '0.1'] if 'poly' in args
                                                                                   else [])
        run(['svm-train', '-q', '-s', args[1]] + lt + [data, peer])
        run([nesvm, 'import', '--format', 'libsvm', peer, model])
        run([nesvm, 'predict', '-q', data, model, out])
        mine = np.loadtxt(out)
        run(['svm-predict', data, peer, out])
        theirs = np.loadtxt(out)
        info = run([nesvm, 'info', model]).stdout
        report(np.abs(mine - theirs).max() <= tol and 'nu_s' in info and 'unknown (not in the file)' in info,
               '%s: svm-train\'s model imported, nesvm\'s predictions svm-predict\'s' % name)

    # ---- 6. a precomputed kernel (-t 4) of the RBF matrix is -t 2's model
    for svr in (0, 1):
        X, y = (Xh, yh) if not svr else (Xr, yr)
        g = 0.0625
        K = kern(X, X, 'rbf', g)
        write_libsvm(data, X, y)
        pc = os.path.join(tmp, 'pc.txt')
        with open(pc, 'w') as f:
            for i in range(len(y)):
                f.write('%.17g 0:%d ' % (y[i], i + 1) + ' '.join('%d:%.17g' % (j + 1, K[i, j]) for j in range(len(y)))
                        + '\n')
        args = ['-q', '-s', '4' if svr else '1', '-n', '0.35', '-e', '1e-9']
        run([nesvm, 'train'] + args + ['-t', 'rbf', '-g', repr(g), data, model])
        d2 = decisions(nesvm, data, model, out)[:, 1]
        run([nesvm, 'train'] + args + ['-t', '4', pc, model])
        d4 = decisions(nesvm, pc, model, out)[:, 1]
        report(np.abs(d2 - d4).max() <= 1e-6 * np.abs(d2).max(),
               'nu-%s -t 4 (the RBF matrix) = -t 2: decision values within %.3g' %
               ('SVR' if svr else 'SVC', np.abs(d2 - d4).max()))
        Kb = K.copy()
        Kb[0, 1] = Kb[1, 0] = 3.0
        with open(pc, 'w') as f:
            for i in range(len(y)):
                f.write('%.17g 0:%d ' % (y[i], i + 1) + ' '.join('%d:%.17g' % (j + 1, Kb[i, j]) for j in range(len(y)))
                        + '\n')
        os.unlink(model)
        p = run([nesvm, 'train'] + args + ['-t', '4', pc, model], check=False)
        report(p.returncode == 1 and 'is not positive semi-definite' in p.stderr and not os.path.exists(model),
               'nu-%s: an indefinite precomputed matrix refused, nothing written' % ('SVR' if svr else 'SVC'))


if __name__ == '__main__':
    sys.exit(main())
