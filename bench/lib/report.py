"""RESULTS.md and the PNG plots, from the analysis (never edited by hand)."""
import os
import re

from lib import cases as cfg
from lib.analysis import GAPS
from lib.objectives import FAMILY_FORMULAS

GAP_FLOOR = 1e-7    # plotted gaps below this (0 for the run that set P_best) sit on the floor


# ------------------------------------------------------------- formatting

def ft(x):
    """Seconds with 3 significant digits."""
    if x is None:
        return "—"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3g" % x


def fgap(g):
    if g is None:
        return "—"
    if g <= 0:
        return "0 (best)"
    return "%.1e" % g


def fmb(x):
    return "—" if x is None else ("%.1f" % x if x < 100 else "%.0f" % x)


def facc(a):
    return "—" if a is None else "%.2f%%" % (100 * a)


def fP(p):
    return "—" if p is None else "%.10g" % p


def fcount(x):
    """A count: in full below 100,000, else 3 significant digits (2.91e6)."""
    if x is None:
        return "—"
    if x < 100000:
        return f"{x:,}"
    m, e = ("%.2e" % x).split("e")
    return f"{m}e{int(e)}"


def esc(s):
    return str(s).replace("|", "\\|")


def slug(s):
    return re.sub(r"[^A-Za-z0-9.=+-]+", "_", s).strip("_")


# ------------------------------------------------------------------ plots

def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_convergence(case, prob, path):
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    markers = "osD^v<>ph*"
    any_data = False
    for i, t in enumerate(prob["tools"]):
        label = t["id"] + (" (≈)" if t.get("approx") else "")
        color = "C%d" % (i % 10)
        mk = markers[i % len(markers)]
        if t.get("curve"):
            xs = t["curve"]["t"]
            ys = [max((p - prob["P_best"]) / abs(prob["P_best"]), GAP_FLOOR) for p in t["curve"]["P"]]
            ax.plot(xs, ys, "-", lw=1.5, color=color, label=label + " (trace)")
            any_data = True
        pts = [q for q in t.get("points", []) if q["gap"] is not None]
        sweep = sorted([q for q in pts if q["tol"] is not None], key=lambda q: -q["tol"])
        if sweep and not t.get("curve"):
            ax.plot([q["time"] for q in sweep], [max(q["gap"], GAP_FLOOR) for q in sweep], "--",
                    marker=mk, ms=5, lw=0.8, color=color, label=label + " (tolerance sweep)")
            any_data = True
        for q in pts:
            if q["tol"] is None:   # default settings: median wall time of the timed runs
                ax.plot([q["time"]], [max(q["gap"], GAP_FLOOR)], marker=mk, ms=9, mfc="none",
                        mew=1.6, color=color, ls="none",
                        label=label + " (default, whole run)" if not sweep or t.get("curve") else None)
                any_data = True
    for g in GAPS:
        ax.axhline(g, color="0.7", lw=0.7, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time (s): lines = trace (reading + solver seconds) or tolerance sweep; "
                  "hollow = default settings (whole run)", fontsize=8)
    ax.set_ylabel("relative primal gap (P - P_best) / |P_best|")
    ax.set_title(f"{case['case']}: {prob['family']}, C = {prob['C']:g}", fontsize=11)
    if any_data:
        ax.legend(fontsize=8, loc="best")
    ax.grid(True, which="major", alpha=0.3)
    _label_minor(ax)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _label_minor(ax):
    """Label the minor ticks of a log time axis that spans under 2 decades."""
    from matplotlib.ticker import FormatStrFormatter
    lo, hi = ax.get_xlim()
    if lo > 0 and hi / lo < 100:
        ax.xaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.tick_params(axis="x", which="minor", labelsize=7)


def plot_accuracy(case, probs, path):
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for prob in probs:
        for t in prob["tools"]:
            if t.get("accuracy") is None or t.get("time_median") is None:
                continue
            ax.scatter([t["time_median"]], [100 * t["accuracy"]], s=30)
            ax.annotate(f"{t['id']} ({prob['family']})", (t["time_median"], 100 * t["accuracy"]),
                        fontsize=7, xytext=(4, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("time (s, median)")
    ax.set_ylabel("accuracy (%)")
    ax.set_title(f"{case['case']}: accuracy vs time", fontsize=11)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ----------------------------------------------------------------- tables

def _time_to(t, g):
    v = t.get("time_to", {}).get(str(g))
    if v is not None:
        return ft(v)
    if t.get("ok", 0) == 0:
        return "—"
    end = t.get("curve_end") if t.get("time_to_basis") == "trace" else t.get("max_time_tried")
    return "> " + ft(end) if end is not None else "—"


def _status(t):
    if t.get("ok", 0) == 0:
        st = ", ".join(t.get("statuses", [])) or "not run"
        if "timeout" in t.get("statuses", []):
            st += f" ({ft(t.get('timeout'))} s)"
        return st
    parts = []
    if t["ok"] < t["runs"]:
        parts.append(f"{t['ok']}/{t['runs']} ok")
    if t.get("exit"):
        parts.append(t["exit"])
    if t.get("iterations") is not None:
        parts.append(f"{t['iterations']} it")
    return ", ".join(parts) or "ok"


def _read_cell(t):
    if t.get("read_time") is None:
        return "—"
    return ft(t["read_time"]) + ("*" if t.get("read_source") == "probe" else "")


def linear_table(prob):
    # products/row only in tables where a run printed it (nesvm hyperpass, pegasos)
    prods = any(t.get("row_products_per_row") is not None for t in prob["tools"])
    rows = ["| tool | time s: median [min–max] | runs | read s | peak MB | objective P | rel. gap | "
            "accuracy | exit, iterations |" + (" products/row |" if prods else ""),
            "|---|---|---:|---:|---:|---:|---:|---:|---|" + ("---:|" if prods else "")]
    for t in prob["tools"]:
        name = esc(t["id"]) + (" ≈" if t.get("approx") else "")
        if t.get("ok", 0):
            tm = f"{ft(t['time_median'])} [{ft(t['time_min'])}–{ft(t['time_max'])}]"
        else:
            tm = "—"
        pr = t.get("row_products_per_row")
        rows.append(f"| {name} | {tm} | {t['runs']} | {_read_cell(t)} | {fmb(t.get('rss_mb'))} | "
                    f"{fP(t.get('P'))} | {fgap(t.get('gap'))} | {facc(t.get('accuracy'))} | "
                    f"{esc(_status(t))} |" + ((" —" if pr is None else " %.1f" % pr) + " |" if prods else ""))
    return "\n".join(rows)


def gap_table(prob):
    rows = ["| tool | to 1e-2 | to 1e-3 | to 1e-4 | from |", "|---|---:|---:|---:|---|"]
    for t in prob["tools"]:
        basis = {"trace": "trace (read + seconds)", "runs": "runs (default + tolerance sweep)"}.get(
            t.get("time_to_basis"), "")
        rows.append(f"| {esc(t['id'])} | " + " | ".join(_time_to(t, g) for g in GAPS) + f" | {basis} |")
    return "\n".join(rows)


def accuracy_table(prob):
    # kernel problems: kernel values computed, distinct training rows in the
    # model, nesvm's printed gap and solver time
    kern = prob["family"] == "rbf"
    rows = ["| tool | time s: median [min–max] | runs | read s | peak MB | accuracy | status |"
            + (" kernel evaluations | SVs / basis | nesvm gap | nesvm train s |" if kern else ""),
            "|---|---|---:|---:|---:|---:|---|" + ("---:|---:|---:|---:|" if kern else "")]
    for t in prob["tools"]:
        tm = f"{ft(t['time_median'])} [{ft(t['time_min'])}–{ft(t['time_max'])}]" if t.get("ok") else "—"
        note = (" (" + t["note"] + ")") if t.get("note") else ""
        row = (f"| {esc(t['id'])}{esc(note)} | {tm} | {t['runs']} | {_read_cell(t)} | "
               f"{fmb(t.get('rss_mb'))} | {facc(t.get('accuracy'))} | {esc(_status(t))} |")
        if kern:
            gap = t.get("tool_gap")
            row += (f" {fcount(t.get('kernel_evals'))} | {fcount(t.get('basis'))} | "
                    f"{'—' if gap is None else '%.1e' % gap} | "
                    f"{ft(t.get('solve_median')) if t.get('adapter') == 'nesvm' else '—'} |")
        rows.append(row)
    return "\n".join(rows)


KERNEL_TABLE_NOTE = (
    "Kernel problems: **kernel evaluations** = kernel values computed in the first timed run "
    "(nesvm's `kernel evaluations` line; LIBSVM's exp() calls counted by `LD_PRELOAD` of "
    "`lib/expcount.c` in its timed runs, in tables whose LIBSVM row has a count); **SVs / basis** = "
    "distinct training rows the model keeps (nesvm's `basis N vectors`, LIBSVM's `Total nSV`); "
    "**nesvm gap** = the relative duality gap nesvm printed for the problem that solver solves (C-SVM "
    "for nesvm, the squared-hinge problem on the reduced basis for ssvm/nssvm: Nystrom features, or RSVM's "
    "coefficients with --kernel-norm coef; the largest over the binary "
    "sub-models; gs has none); **nesvm train s** = "
    "nesvm's own training time (no reading), median.")


def homotopy_table(prob):
    rows = ["| nesvm run | iterations | solver s (median) | wall s: median [min–max] | runs | objective P | "
            "rel. gap to P_best | certified gap | exit |",
            "|---|---:|---:|---|---:|---:|---:|---:|---|"]
    for t in prob["tools"]:
        if t.get("ok", 0):
            tm = f"{ft(t['time_median'])} [{ft(t['time_min'])}–{ft(t['time_max'])}]"
            it = "—" if t.get("iterations") is None else str(t["iterations"])
            cg = "—" if t.get("cert_gap") is None else "%.1e" % t["cert_gap"]
            rows.append(f"| {esc(t['id'])} | {it} | {ft(t.get('solve_median'))} | {tm} | {t['runs']} | "
                        f"{fP(t.get('P'))} | {fgap(t.get('gap'))} | {cg} | {esc(t.get('exit') or '')} |")
        else:
            rows.append(f"| {esc(t['id'])} | — | — | — | {t['runs']} | — | — | — | {esc(_status(t))} |")
    return "\n".join(rows)


# ---------------------------------------------------------------- targets

def _find(cases_an, case, problem, tool):
    for c in cases_an:
        if c["case"] != case:
            continue
        for p in c["problems"]:
            if p["key"] == problem:
                for t in p["tools"]:
                    if t["id"] == tool:
                        return c, p, t
    return None, None, None


def targets(cases_an, notes_dir):
    T = cfg.TARGETS
    c, pn, n1 = _find(cases_an, T["case"], T["nesvm_problem"], T["nesvm_t1"])
    _, _, n2 = _find(cases_an, T["case"], T["nesvm_problem"], T["nesvm_t2"])
    _, _, ll = _find(cases_an, T["case"], T["peer_problem"], T["peer"])
    if c is None or ll is None:
        return None
    rows = []

    def ok(t):
        return t is not None and t.get("ok", 0) > 0

    # reading
    if ok(n1) and ok(ll) and n1.get("read_time") and ll.get("read_time"):
        r = ll["read_time"] / n1["read_time"]
        rows.append(dict(id="read", what="reading the training file: LIBLINEAR's read time / nesvm's",
                         nesvm=f"{ft(n1['read_time'])} s", peer=f"{ft(ll['read_time'])} s (-s 3 -e 1e9 wall)",
                         ratio=f"{r:.2f}x", goal=">= 2x", met=r >= 2))
    else:
        rows.append(dict(id="read", what="reading the training file", nesvm="—", peer="—", ratio="—",
                         goal=">= 2x", met=None))
    # time to 1e-3
    for tid, t in (("time-1e-3-t1", n1), ("time-1e-3-t2", n2)):
        thr = t["id"] if t else tid
        if ok(t) and ok(ll):
            v = t.get("time_to", {}).get("0.001")
            if v is not None:
                r = v / ll["time_median"]
                rows.append(dict(id=tid, what=f"time to 1e-3 relative primal gap, {thr} / LIBLINEAR -s 3 "
                                 "default wall time", nesvm=f"{ft(v)} s", peer=f"{ft(ll['time_median'])} s",
                                 ratio=f"{r:.2f}", goal="<= 0.5", met=r <= 0.5))
            else:
                end = t.get("curve_end") or 0
                last_gap = t.get("gap")
                rows.append(dict(id=tid, what=f"time to 1e-3 relative primal gap, {thr} / LIBLINEAR -s 3 "
                                 "default wall time",
                                 nesvm=f"not reached in {ft(end)} s (gap {fgap(last_gap)} at the end)",
                                 peer=f"{ft(ll['time_median'])} s", ratio=f"> {end / ll['time_median']:.2f}",
                                 goal="<= 0.5", met=False))
        else:
            rows.append(dict(id=tid, what=f"time to 1e-3 relative primal gap ({thr})", nesvm="—",
                             peer="—", ratio="—", goal="<= 0.5", met=None))
    # memory
    for tid, t in (("memory-t1", n1), ("memory-t2", n2)):
        if ok(t) and ok(ll) and t.get("rss_mb") and ll.get("rss_mb"):
            r = t["rss_mb"] / ll["rss_mb"]
            rows.append(dict(id=tid, what=f"peak resident memory, {t['id']} / LIBLINEAR -s 3",
                             nesvm=f"{fmb(t['rss_mb'])} MB", peer=f"{fmb(ll['rss_mb'])} MB",
                             ratio=f"{r:.2f}", goal="<= 1", met=r <= 1))
        else:
            rows.append(dict(id=tid, what="peak resident memory", nesvm="—", peer="—", ratio="—",
                             goal="<= 1", met=None))
    lines = [f"Measured on case `{T['case']}` ({c['meta']['n_train']} x {c['meta']['d']}, training file "
             f"{c['meta']['bytes_train'] / 1e6:.0f} MB): nesvm's C-SVM (`{T['nesvm_problem']}`) against "
             f"LIBLINEAR `-s 3 -c 1` with its defaults (`{T['peer_problem']}`), as the issue states the "
             "targets. nesvm's time to a gap is its reading time plus the trace's `seconds` at the first "
             f"iteration whose primal is within the gap of P_best = {fP(pn['P_best'])}, "
             f"from {esc(pn['P_best_source'])}"
             + (f", certified within {fgap(pn['certified_gap'])} of the optimum by the dual value of "
                f"{esc(pn['D_best_source'])}" if pn.get("D_best") is not None else "") + ".", "",
             "| target | nesvm | LIBLINEAR | ratio | goal | result |", "|---|---|---|---:|---|---|"]
    for r in rows:
        res = {True: "**MET**", False: "**MISSED**", None: "not measured"}[r["met"]]
        lines.append(f"| {r['what']} | {r['nesvm']} | {r['peer']} | {r['ratio']} | {r['goal']} | {res} |")
    for r in rows:
        if r["met"] is False:
            lines += ["", f"#### Missed: {r['what']}", ""]
            note = os.path.join(notes_dir, r["id"] + ".md")
            if os.path.exists(note):
                with open(note) as f:
                    lines.append(f.read().strip())
            else:
                lines.append(f"_No explanation yet: write it in `bench/notes/{r['id']}.md` (for "
                             "example a profile of where the time or memory goes); the harness "
                             "copies that file here on the next run or `--report-only`._")
    return "\n".join(lines)


# --------------------------------------------------- kernel targets (issue 18)

def _verdict(met):
    return {True: "**MET**", False: "**MISSED**", None: "not measured"}[met]


def _not_run(t):
    return "not run" if t is None else _status(t)


def kernel_targets(cases_an, notes_dir):
    """Per problem of every kernel_targets case: nesvm's full kernel against
    LIBSVM (time, kernel evaluations, accuracy), and the best nesvm solver on
    the case of the accuracy-and-time target.  None when no such case ran."""
    from lib.tools import parse_nesvm_spec
    K = cfg.KERNEL_TARGETS
    kc = [c for c in cases_an if c.get("kernel_targets")]
    if not kc:
        return None
    L = ["Issue 18's targets, per problem of every kernel case: nesvm's full kernel "
         f"(`{K['full'].replace('{gamma}', 'G')}`, one thread) against LIBSVM (`svm-train -t 2 -m 1000`, one thread). "
         "Time: whole-process wall time of training (reading the file included, both tools), median of the "
         "case's runs. Kernel evaluations: the first timed run's (nesvm's printed count; LIBSVM's exp() calls). "
         "Accuracy: the predict program's on the test set (training set where marked). Goals: time ratio "
         f"<= {K['time_ratio']:g}, kernel-evaluation ratio <= {K['evals_ratio']:g}, accuracy within "
         f"{K['acc_points']:g} point of LIBSVM's (either side).", "",
         "| case | problem | LIBSVM s | nesvm s | time ratio | LIBSVM kernel ev. | nesvm kernel ev. | "
         "kernel ev. ratio | LIBSVM acc. | nesvm acc. | difference (points) | all three |",
         "|---|---|---:|---:|---|---:|---:|---|---:|---:|---|---|"]
    met_n = tot_n = 0
    missed = []
    for c in kc:
        for p in c["problems"]:
            if p["family"] != "rbf":
                continue
            full_id = parse_nesvm_spec(K["full"], 1, p["gamma"]).id
            nv = next((t for t in p["tools"] if t["id"] == full_id), None)
            lb = next((t for t in p["tools"] if t["id"] == K["peer"]), None)
            nok, lok = bool(nv and nv.get("ok")), bool(lb and lb.get("ok"))
            # time
            if nok and lok:
                r = nv["time_median"] / lb["time_median"]
                tcell, tmet = f"{r:.2f} {_verdict(r <= K['time_ratio'])}", r <= K["time_ratio"]
            elif lok and nv is not None and "timeout" in nv.get("statuses", []):
                r = nv["timeout"] / lb["time_median"]    # nesvm ran out of time: ratio at least this
                tmet = False if r > K["time_ratio"] else None
                tcell = f"> {r:.2f} {_verdict(tmet)}"
            else:
                tcell, tmet = _verdict(None), None
            # kernel evaluations
            ne, le = (nv or {}).get("kernel_evals"), (lb or {}).get("kernel_evals")
            if ne is not None and le:
                r = ne / le
                ecell, emet = f"{r:.2f} {_verdict(r <= K['evals_ratio'])}", r <= K["evals_ratio"]
            else:
                ecell, emet = _verdict(None), None
            # accuracy
            na, la = (nv or {}).get("accuracy"), (lb or {}).get("accuracy")
            if na is not None and la is not None:
                d = 100 * (na - la)
                amet = abs(d) <= K["acc_points"] + 1e-9
                acell = f"{d:+.2f} {_verdict(amet)}"
            else:
                acell, amet = _verdict(None), None
            on = " (training)" if (lb or nv or {}).get("accuracy_on") == "train" else ""
            mets = (tmet, emet, amet)
            allm = None if None in mets and False not in mets else all(m is True for m in mets)
            for m in mets:
                if m is not None:
                    tot_n += 1
                    met_n += bool(m)
            if allm is False:
                missed.append(f"{c['case']} {p['key']}")
            L.append(f"| {c['case']} | C = {p['C']:g}, gamma = {p['gamma']:g} | "
                     f"{ft(lb['time_median']) if lok else esc(_not_run(lb))} | "
                     f"{ft(nv['time_median']) if nok else esc(_not_run(nv))} | {tcell} | {fcount(le)} | "
                     f"{fcount(ne)} | {ecell} | {facc(la)}{on} | {facc(na)}{on} | {acell} | {_verdict(allm)} |")
    L += ["", f"{met_n} of {tot_n} measured comparisons met."]
    best = K.get("best")
    bc = next((c for c in kc if best and c["case"] == best["case"]), None)
    if bc is not None:
        L += ["", f"Case `{bc['case']}`: the best nesvm RBF solver must reach >= "
              f"{100 * best['min_accuracy']:.1f}% test accuracy in <= {best['time_ratio']:g}x LIBSVM's "
              "training time (whole-process wall, as above). Best = the fastest nesvm solver at or above the "
              "accuracy, else the most accurate one.", "",
              "| problem | best nesvm solver | accuracy | time s | LIBSVM s | time ratio | result |",
              "|---|---|---:|---:|---:|---:|---|"]
        for p in bc["problems"]:
            if p["family"] != "rbf":
                continue
            lb = next((t for t in p["tools"] if t["id"] == K["peer"]), None)
            nvs = [t for t in p["tools"] if t.get("adapter") == "nesvm" and t.get("ok")
                   and t.get("accuracy") is not None]
            good = [t for t in nvs if t["accuracy"] >= best["min_accuracy"]]
            b = (min(good, key=lambda t: t["time_median"]) if good
                 else max(nvs, key=lambda t: t["accuracy"]) if nvs else None)
            lok = bool(lb and lb.get("ok"))
            if b is None:
                L.append(f"| C = {p['C']:g}, gamma = {p['gamma']:g} | no nesvm solver finished | — | — | "
                         f"{ft(lb['time_median']) if lok else esc(_not_run(lb))} | — | {_verdict(None)} |")
                continue
            if lok:
                r = b["time_median"] / lb["time_median"]
                met = bool(b["accuracy"] >= best["min_accuracy"] and r <= best["time_ratio"])
                rc = f"{r:.3f}"
            else:
                met, rc = (False if b["accuracy"] < best["min_accuracy"] else None), "—"
            if met is False:
                missed.append(f"{bc['case']} {p['key']} (best solver)")
            L.append(f"| C = {p['C']:g}, gamma = {p['gamma']:g} | {esc(b['id'])} | {facc(b['accuracy'])} | "
                     f"{ft(b['time_median'])} | {ft(lb['time_median']) if lok else esc(_not_run(lb))} | {rc} | "
                     f"{_verdict(met)} |")
    if missed:
        note = os.path.join(notes_dir, "kernel-targets.md")
        L += ["", "Missed: " + ", ".join(f"`{m}`" for m in missed) + ".", ""]
        if os.path.exists(note):
            with open(note) as f:
                L.append(f.read().strip())
        else:
            L.append("_No explanation yet: write it in `bench/notes/kernel-targets.md`; the harness copies "
                     "that file here on the next run or `--report-only`._")
    return "\n".join(L)


# ----------------------------------------------------------------- report

def machine_table(man):
    m = man["machine"]
    rows = ["| | |", "|---|---|",
            f"| CPU | {esc(m['cpu'])}, {m['cores']} logical cores |",
            f"| memory | {m['mem_gib']:.1f} GiB |",
            f"| system | {esc(m['system'])} |",
            f"| load average (1 min) at start / end | {m['load_start']} / {man.get('load_end', '—')} |",
            f"| date | {man['started']} to {man.get('finished', '—')} ({ft(man.get('seconds'))} s in all) |",
            f"| nesvm | {esc(m['nesvm'])} |"]
    for pkg, ver in m["packages"].items():
        rows.append(f"| {pkg} | {ver} |")
    return "\n".join(rows)


def write(out_dir, results_path, plots_dir, man, cases_an, notes_dir):
    os.makedirs(plots_dir, exist_ok=True)
    for f in os.listdir(plots_dir):
        if f.endswith(".png"):
            os.remove(os.path.join(plots_dir, f))
    rel_plots = os.path.relpath(plots_dir, os.path.dirname(os.path.abspath(results_path)))
    L = ["# nesvm benchmark results", "",
         f"Generated by `{man['command']}` (mode **{man['mode']}**). This file and `{rel_plots}/` are written "
         "by the harness only; see [README.md](README.md) for what every number means and how it is "
         "measured. Raw outputs of every run (commands, stdout, models, traces, timings) are under "
         f"`{man['out_rel']}/raw/`.", "", "## Machine", "", machine_table(man), ""]
    if man["mode"] != "full":
        L += [f"Mode {man['mode']}: fewer runs per tool, fewer tools and shorter nesvm time limits on the "
              "big sets (see each case), so medians of 1 run are single measurements.", ""]
    tg = targets(cases_an, notes_dir)
    if tg:
        L += ["## Targets", "", tg, ""]
    ktg = kernel_targets(cases_an, notes_dir)
    if ktg:
        L += ["## Kernel targets (issue 18)", "", ktg, ""]
    L += ["## Reading the tables", "",
          "- **time**: wall time of the training process (start-up, reading, training, writing the "
          "model); for scikit-learn the runner's load + fit time (without Python start-up). Median "
          "over *runs* runs, [min–max].",
          "- **read**: time to read the training file: nesvm's `read` line, svmocas's `load_time`, "
          "scikit-learn's load_svmlight_file time; `*` = a read probe run (LIBLINEAR `-s 3 -e 1e9`, "
          "LIBSVM `-e 1e9`: read, one pass or none, write the model), an upper bound.",
          "- **peak MB**: the child's ru_maxrss (via wait4 in a small launcher), median over runs.",
          "- **objective P**: computed by the harness from the model file on the training set with the "
          "family's formula; **rel. gap** = (P - P_best) / |P_best|.",
          "- **products/row** (only in tables with nesvm hyperpass or pegasos rows): the row products "
          "x_i.w the solver computed, divided by the number of training rows (nesvm's `row products` "
          "line), a machine-independent measure of its work.",
          "- **≈**: the tool solves a nearby problem (noted under the table); its model is still "
          "evaluated with the family's formula.",
          "- **time to gap**: nesvm from its `--trace` (reading time + `seconds` at the first iteration "
          "within the gap); other tools: the fastest run (default settings or a tolerance of the sweep) "
          "whose model is within the gap. `> T` = not reached by any run, the longest took T s.",
          "- " + KERNEL_TABLE_NOTE, ""]
    for c in cases_an:
        meta = c["meta"]
        shape = f"{meta['n_train']} x {meta['d']}" + (f", {meta['n_test']} test rows" if meta["has_test"] else "")
        L += [f"## Case `{c['case']}`", "",
              f"{esc(c['description'])}. Data: `{c['dataset']}`, {shape}, {meta['nnz_train']} non-zeros "
              f"({meta['bytes_train'] / 1e6:.1f} MB text); {esc(meta['description'])}. "
              f"Runs per tool: {c['runs']}"
              + (f"; nesvm `--time-limit {c['nesvm_time_limit']:g}`" if c.get("nesvm_time_limit") else "")
              + f"; case took {ft(c.get('seconds'))} s.", ""]
        acc_probs = []
        for p in c["problems"]:
            if p["family"] in cfg.LINEAR_BINARY:
                L += [f"### {p['family']}, C = {p['C']:g}", "",
                      f"`{FAMILY_FORMULAS[p['family']]}`. " + esc(cfg.FAMILIES[p['family']]['note']) + ".", ""]
                if p.get("P_best") is not None:
                    s = f"P_best = {fP(p['P_best'])}, from {esc(p['P_best_source'])}"
                    if p.get("D_best") is not None:
                        s += (f"; the largest dual value, {fP(p['D_best'])} from {esc(p['D_best_source'])}, "
                              f"certifies P_best within {fgap(p['certified_gap'])} of the optimum")
                    L += [s + ".", ""]
                L += [linear_table(p), ""]
                approx = [t for t in p["tools"] if t.get("approx")]
                for t in approx:
                    L.append(f"≈ {esc(t['id'])}: {esc(t['approx'])}.")
                if approx:
                    L.append("")
                for w in p.get("warnings", []):
                    L += [f"**Warning:** {esc(w)}", ""]
                for n in p.get("notes", []):
                    L += [f"Note: {esc(n)}.", ""]
                L += ["Time to relative primal gap (s):", "", gap_table(p), ""]
                png = f"{slug(c['case'])}_{slug(p['key'])}.png"
                plot_convergence(c, p, os.path.join(plots_dir, png))
                L += [f"![convergence {c['case']} {p['key']}]({rel_plots}/{png})", ""]
                refs = [r for r in p.get("references", [])]
                if refs:
                    L += ["Reference runs (cached): " + "; ".join(
                        f"`{' '.join(os.path.basename(a) if '/' in a else a for a in r['argv'])}` "
                        f"{r['status']}, P = {fP(r.get('P'))}" for r in refs) + ".", ""]
            elif p["family"] == "homotopy":
                L += [f"### homotopy vs plain NESVM, C = {p['C']:g}", "",
                      esc(cfg.FAMILIES["homotopy"]["title"]) + ". Iterations, exit and the certified gap "
                      "are from the model file's `submodel` line, the solver time from nesvm's "
                      "`iterations N, time T s` line. Plain NESVM at mu = 0.01 (and the homotopy's last "
                      "stage) minimizes the smoothed objective, so P stays above P_best by up to about "
                      "C n mu / 2 (the smoothing error); the certified gap is the model file's relative "
                      "duality gap." + (f" P_best = {fP(p['P_best'])}, from {esc(p['P_best_source'])}."
                                     if p.get("P_best") is not None else ""), "",
                      homotopy_table(p), ""]
            else:
                title = (f"### {p['family']}, C = {p['C']:g}" + (f", gamma = {p['gamma']:g}"
                                                                   if p.get("gamma") else ""))
                L += [title, "", esc(cfg.FAMILIES[p['family']]['title']) + ".", "", accuracy_table(p), ""]
                acc_probs.append(p)
        if acc_probs:
            png = f"{slug(c['case'])}_accuracy.png"
            plot_accuracy(c, acc_probs, os.path.join(plots_dir, png))
            L += [f"![accuracy {c['case']}]({rel_plots}/{png})", ""]
    with open(results_path + ".tmp", "w") as f:
        f.write("\n".join(L).rstrip() + "\n")
    os.replace(results_path + ".tmp", results_path)
