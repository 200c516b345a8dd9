"""What the CLI's memory tests share: their command line (PATH/embedlab --rss-limit-mib N --time
PATH/time, taken out of sys.argv so unittest sees the rest) and a run of the CLI measured by
GNU time."""
import os
import subprocess
import sys
import tempfile


def _option(name):
    value = sys.argv.pop(sys.argv.index(name) + 1)
    sys.argv.remove(name)
    return value


CLI = sys.argv.pop(1)
RSS_LIMIT = int(_option("--rss-limit-mib")) << 20
TIME = _option("--time")
if not os.path.isfile(TIME):
    print(
        f"FAIL: GNU time is needed to measure the CLI's memory, and {TIME} is not it: "
        "apt-get install -y time"
    )
    sys.exit(1)


def run_measured(*args):
    """(exit status, stdout, stderr, peak resident memory in bytes) of the CLI, the memory as GNU
    time reports it. (A child of this process would inherit its peak, torch's few hundred MiB:
    Linux keeps ru_maxrss across exec. time's own child starts small.)"""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        out = subprocess.run(
            [TIME, "-f", "%M", "-o", report.name, CLI, *args],
            capture_output=True,
            text=True,
            timeout=600,
        )
        return out.returncode, out.stdout, out.stderr, int(report.read().split()[-1]) * 1024
