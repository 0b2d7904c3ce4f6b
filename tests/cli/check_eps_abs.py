"""check_eps_abs.py - does a --trace show --eps-abs stopping where the paper's rule says?

Usage (test_cli.sh):
  check_eps_abs.py nesvm TRACE E MU_STAR PAPER_MU0 [... EXIT]
      NESVM (Algorithm 1): a row is flat when |F_mu - F_mu of the previous row|
      < E, both rows in the same mu stage (the column `smoothed`).  Every stage
      ends no later than its first flat row, and the training ends at the
      first flat row of the final stage.  MU_STAR > 0: the final stage is
      mu = MU_STAR (homotopy NESVM, Algorithm 2, goes on down to mu*);
      MU_STAR = 0: the first flat row of the whole trace ends the training.
      PAPER_MU0 > 0: the stages' mu are PAPER_MU0/(t+1), t = 0, 1, 2, ...
      with none skipped, down to MU_STAR.  EXIT (the run's exit word, the
      last argument of every kind) converged: the final stage may end at its
      smoothed problem's certificate before a flat row.
  check_eps_abs.py hyperpass TRACE E CSUM
      Hyperpass: the first row with (primal - lower_bound)/CSUM < E is the last
      iteration (the paper's gap f(w_t) - v_t < eps in f's units; CSUM =
      sum_i C_i); the trace's last row is the finish (step nan) after it.
  check_eps_abs.py pegasos TRACE E CSUM
      Pegasos: the same with the best primal.
  check_eps_abs.py nssvm|ssvm TRACE E DATA MODEL
      NSSVM (Algorithm 1, Step 1): the first row with residual ||G_p|| < E is
      the last; and the residual of that row is ||G_p(z)|| recomputed here
      from the model's z = [w, b] and DATA (SSVM: ||grad f_p(z)||).
Exit 0 when the trace agrees, else 1 with the reason on stdout.
"""
import csv
import math
import sys


def rows(path):
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def fail(msg):
    print(msg)
    sys.exit(1)


def first(rs, rule, what):
    hits = [j for j in range(len(rs)) if rule(j)]
    if not hits:
        fail("no row satisfies %s; the last is iteration %d" % (what, rs[-1]["iteration"]))
    if hits[0] != len(rs) - 1:
        fail("%s first holds at iteration %d but training went on to %d" %
             (what, rs[hits[0]]["iteration"], rs[-1]["iteration"]))


def nesvm(rs, E, mu_star, mu0, converged):
    stages = []  # [first row, last row] of each run of equal mu
    for j, r in enumerate(rs):
        if j and r["mu"] == rs[j - 1]["mu"]:
            stages[-1][1] = j
        else:
            stages.append([j, j])

    def flat(j):
        return j > 0 and rs[j]["mu"] == rs[j - 1]["mu"] and abs(rs[j]["smoothed"] - rs[j - 1]["smoothed"]) < E

    for a, b in stages:
        early = [j for j in range(a, b) if flat(j)]
        if early:
            fail("stage mu = %r: flat at iteration %d but the stage went on to %d" %
                 (rs[a]["mu"], rs[early[0]]["iteration"], rs[b]["iteration"]))
    # the final stage (mu*) may end first by its smoothed problem's
    # certificate (exit converged): an exact Newton step solves that
    # piecewise quadratic at once, before a second row could be flat
    if not flat(len(rs) - 1) and not (converged and mu_star > 0 and rs[-1]["mu"] == mu_star):
        fail("the last row (iteration %d, mu %r) is not flat" % (rs[-1]["iteration"], rs[-1]["mu"]))
    if mu_star > 0:
        if rs[-1]["mu"] != mu_star:
            fail("stopped at mu = %r, not at mu* = %r (gap %r)" % (rs[-1]["mu"], mu_star, rs[-1]["gap"]))
    else:
        firsts = [j for j in range(len(rs)) if flat(j)]
        if firsts[0] != len(rs) - 1:
            fail("without mu* the first flat row (iteration %d) ends training" % rs[firsts[0]]["iteration"])
    if mu0 > 0:
        for t, (a, b) in enumerate(stages):
            if rs[a]["mu"] != mu0 / (t + 1) and not (t == len(stages) - 1 and rs[a]["mu"] == mu_star):
                fail("stage %d has mu = %r, not mu0/(t+1) = %r" % (t, rs[a]["mu"], mu0 / (t + 1)))
        if mu_star > 0 and not mu0 / len(stages) <= mu_star < mu0 / (len(stages) - 1):
            fail("%d stages: the homotopy did not end at the first mu0/(t+1) <= mu*" % len(stages))


def read_data(path):
    X, y = [], []
    for line in open(path):
        t = line.split()
        if not t:
            continue
        y.append(float(t[0]))
        X.append({int(k): float(v) for k, v in (p.split(":") for p in t[1:])})
    return X, y


def gp_norm(solver, data, model):
    lines = open(model).read().split("\n")
    # a parameter at its default has no line (docs/format.md): c 1, smooth_p 1e8 (nesvm params)
    prm = {"c": "1", "smooth_p": "1e8"}
    prm.update({l.split()[1]: l.split()[2] for l in lines if l.startswith("param ")})
    labels = [float(v) for v in next(l for l in lines if l.startswith("labels ")).split()[1:]]
    b = float(next(l for l in lines if l.startswith("b ")).split()[1])
    i = lines.index("w")
    w = [float(v) for v in lines[i + 1:lines.index("end")]]
    C, p, B = float(prm["c"]), float(prm["smooth_p"]), float(prm["bias"])
    z = w + [b / B]  # the bias is the feature B: b = B z_B
    X, y = read_data(data)
    g = list(z)
    for x, lab in zip(X, y):
        s = 1.0 if lab == labels[0] else -1.0  # the first label is the positive class
        r = 1.0 - s * (sum(w[k - 1] * v for k, v in x.items()) + b)
        e = math.exp(-p * abs(r))
        psi = max(r, 0.0) + math.log1p(e) / p
        a = C * psi if solver == "nssvm" else C * psi * ((1.0 if r > 0 else e) / (1.0 + e))
        for k, v in x.items():
            g[k - 1] -= a * s * v
        g[-1] -= a * s * B
    return math.sqrt(sum(v * v for v in g))


def main():
    kind, trace, E = sys.argv[1], sys.argv[2], float(sys.argv[3])
    rs = rows(trace)
    if not rs:
        fail("empty trace")
    if kind == "nesvm":
        nesvm(rs, E, float(sys.argv[4]), float(sys.argv[5]), sys.argv[-1] == "converged")
    elif kind in ("hyperpass", "pegasos"):
        csum = float(sys.argv[4])
        if kind == "hyperpass":
            if not (len(rs) > 1 and math.isnan(rs[-1]["step"]) and not any(math.isnan(r["step"]) for r in rs[:-1])):
                fail("the last row is not Hyperpass's finish (step nan) or another row is")
            rs = rs[:-1]
        col = "primal" if kind == "hyperpass" else "best_primal"
        first(rs, lambda j: (rs[j][col] - rs[j]["lower_bound"]) / csum < E, "(%s - lower_bound)/%g < %g" % (col, csum, E))
    elif kind in ("ssvm", "nssvm"):
        first(rs, lambda j: rs[j]["residual"] < E, "||G_p|| < %g" % E)
        g = gp_norm(kind, sys.argv[4], sys.argv[5])
        if not abs(g - rs[-1]["residual"]) <= 1e-6 * max(1.0, g):
            fail("the model's ||G_p|| is %r, the trace's last residual %r" % (g, rs[-1]["residual"]))
    else:
        fail("unknown kind " + kind)


main()
