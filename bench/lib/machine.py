"""What machine and which tool versions a run used (for the report header)."""
import os
import platform
import subprocess

PACKAGES = ["liblinear-tools", "libsvm-tools", "libocas-tools", "python3-sklearn", "python3-numpy",
            "python3-scipy", "python3-matplotlib", "python3", "gcc", "cmake"]


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _mem_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024 ** 2
    except OSError:
        pass
    return 0.0


def _dpkg_version(pkg):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "not installed"


def load1():
    return "%.2f" % os.getloadavg()[0]


def nesvm_description(nesvm_bin, repo):
    ver = subprocess.run([nesvm_bin, "--version"], capture_output=True, text=True).stdout.strip()
    git = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--", "src", "cli", "include",
                            "CMakeLists.txt"], capture_output=True, text=True).stdout.strip()
    s = f"{ver or 'unknown version'}, commit {git or 'unknown'}"
    if dirty:
        n = len(dirty.splitlines())
        s += f" plus uncommitted changes to {n} file(s) under src/ cli/ include/"
    return s + f"; binary {nesvm_bin}"


def describe(nesvm_bin, repo):
    u = os.uname()
    return {"cpu": _cpu_model(), "cores": os.cpu_count(), "mem_gib": _mem_gib(),
            "system": f"{u.sysname} {u.release} {u.machine}, Python {platform.python_version()}",
            "load_start": load1(), "nesvm": nesvm_description(nesvm_bin, repo),
            "packages": {p: _dpkg_version(p) for p in PACKAGES}}
