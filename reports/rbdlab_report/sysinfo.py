"""Facts about the machine and the source tree for the provenance page. Every probe tolerates
failure and returns None (the page then says 'unknown')."""
import datetime
import os
import subprocess


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def cpu_model():
    text = _read("/proc/cpuinfo") or ""
    for line in text.splitlines():
        if line.lower().startswith(("model name", "hardware", "cpu model")):
            return line.split(":", 1)[1].strip()
    return None


def cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


def memory_gib():
    text = _read("/proc/meminfo") or ""
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            parts = line.split()
            try:
                return int(parts[1]) / 1024 / 1024   # kB -> GiB
            except (IndexError, ValueError):
                return None
    return None


def os_release():
    text = _read("/etc/os-release") or ""
    fields = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            fields[k] = v.strip().strip('"')
    return fields.get("PRETTY_NAME") or fields.get("NAME")


def kernel():
    try:
        u = os.uname()
        return f"{u.sysname} {u.release} {u.machine}"
    except AttributeError:
        return None


def run(cmd, cwd=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def compiler_version():
    out = run(["c++", "--version"])
    return out.splitlines()[0] if out else None


def checks_compiler_version(root):
    """The compiler of build/ (the gates and measurement programs that wrote accuracy.json,
    opcounts.json and the studies), from its CMake cache; None without a configured build/."""
    try:
        with open(os.path.join(root, "build", "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("CMAKE_CXX_COMPILER:"):
                    out = run([line.split("=", 1)[1].strip(), "--version"])
                    return out.splitlines()[0] if out else None
    except OSError:
        return None
    return None


def git_sha(root):
    return run(["git", "-C", root, "rev-parse", "HEAD"])


def git_dirty(root):
    out = run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"])
    return None if out is None else bool(out)


def now_utc():
    """Generation time; SOURCE_DATE_EPOCH (reproducible-builds convention) overrides the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        t = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
    else:
        t = datetime.datetime.now(datetime.timezone.utc)
    return t.strftime("%Y-%m-%d %H:%M:%S UTC")
