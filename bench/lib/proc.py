"""Run one child process: its wall time, its peak resident memory
(``ru_maxrss`` from ``wait4``), and a timeout.

The child is started through ``spawn`` (spawn.c, compiled on first use with
``cc``): a forked child's ru_maxrss on Linux includes the resident size of
the process it was forked from, and the harness holds data sets in memory, so
the tool is forked from that small launcher, which measures it with wait4 and
writes the numbers to a file.  If no C compiler is available, the harness
falls back to os.wait4 on a direct child and marks the memory figure as
including the harness's own size.

The child gets its own process group; on timeout the group is sent SIGTERM,
then SIGKILL 5 s later if it is still there.
"""
import os
import signal
import subprocess
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_spawner = None


def compile_if_stale(src, out, argv):
    """Compile src into out (argv: the compiler command, given the output
    path and the source at its end) unless out is newer than src; returns out,
    or None if the compiler fails."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if not (os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src)):
        r = subprocess.run(argv[:1] + ["-o", out + ".tmp", src] + argv[1:], capture_output=True, text=True)
        if r.returncode != 0:
            return None
        os.replace(out + ".tmp", out)
    return out


def setup_spawner(bindir):
    """Compile spawn.c into bindir (if missing or stale); returns its path
    or None if it cannot be built."""
    global _spawner
    _spawner = compile_if_stale(os.path.join(_HERE, "spawn.c"), os.path.join(bindir, "spawn"),
                                ["cc", "-O2", "-std=c11"])
    return _spawner


def run(argv, stdout_path, stderr_path, timeout=None, cwd=None, env=None):
    """Run argv with stdout/stderr to files.  Returns a dict: wall (s),
    maxrss_kb, returncode (negative = killed by that signal), timed_out,
    error (str or None), rss_source ('spawn' or 'direct')."""
    argv = [str(a) for a in argv]
    res = {"argv": argv, "wall": None, "maxrss_kb": None, "returncode": None,
           "timed_out": False, "error": None,
           "rss_source": "spawn" if _spawner else "direct"}
    resfile = stdout_path + ".rusage"
    if os.path.exists(resfile):
        os.remove(resfile)
    full = [_spawner, resfile] + argv if _spawner else argv
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.perf_counter()
        try:
            p = subprocess.Popen(full, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                 cwd=cwd, env=env, start_new_session=True)
        except OSError as e:
            res["error"] = f"cannot start {full[0]}: {e}"
            return res
        done = threading.Event()
        timer = None
        if timeout is not None:
            timer = threading.Timer(timeout, _expire, (p.pid, res, done))
            timer.daemon = True
            timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)  # blocking: exact end time
        except BaseException:  # Ctrl-C or SIGTERM of the harness: stop the child too
            _signal_group(p.pid, signal.SIGTERM)
            time.sleep(0.5)
            _signal_group(p.pid, signal.SIGKILL)
            os.waitpid(p.pid, 0)
            p.returncode = -1
            raise
        t1 = time.perf_counter()
        done.set()
        if timer is not None:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
    res["wall"] = t1 - t0
    res["returncode"] = p.returncode
    if _spawner:
        info = _read_rusage(resfile)
        if info is not None:
            res["wall"] = info["wall"]
            res["maxrss_kb"] = info["maxrss_kb"]
            res["returncode"] = os.waitstatus_to_exitcode(info["status"])
            res["cpu"] = info["utime"] + info["stime"]
        elif p.returncode == 127 or (p.returncode != 0 and not res["timed_out"]):
            res["error"] = "launcher failed (see stderr)"
    else:
        res["maxrss_kb"] = ru.ru_maxrss
        res["cpu"] = ru.ru_utime + ru.ru_stime
    if res["returncode"] == 127 and not res["timed_out"]:
        res["error"] = res["error"] or f"cannot run {argv[0]}"
    if res["timed_out"]:
        res["wall"] = float(timeout)
        res["maxrss_kb"] = None
    return res


def _read_rusage(path):
    try:
        with open(path) as f:
            kv = dict(t.split("=", 1) for t in f.read().split())
    except (OSError, ValueError):
        return None
    return {"status": int(kv["status"]), "wall": float(kv["wall"]),
            "maxrss_kb": int(kv["maxrss_kb"]), "utime": float(kv["utime"]),
            "stime": float(kv["stime"])}


def _expire(pid, res, done):
    """Timer thread: SIGTERM the group, SIGKILL it 5 s later if the child
    has not been reaped by then."""
    res["timed_out"] = True
    _signal_group(pid, signal.SIGTERM)
    if not done.wait(5):
        _signal_group(pid, signal.SIGKILL)


def _signal_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass
