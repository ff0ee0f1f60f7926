"""The README's test command (`make test`) provisions what the browser tests need
(scripts/provision.sh): Debian's chromium at the path tests/browser launches, and the CJK fonts.

apt-get, dpkg and id are replaced by stubs on PATH that log their arguments, so these tests
show what the script would install without touching the machine."""
import os
import subprocess

import pytest

from .browser.conftest import CHROMIUM
from .conftest import BASE_DIR

SCRIPT = BASE_DIR / "scripts" / "provision.sh"
BROWSER_PACKAGES = ["chromium", "fonts-noto-cjk", "fonts-hanazono"]


def stub_bin(tmp_path, installed: list[str], uid: int):
    """A folder of stubs: ``dpkg -s P`` succeeds for ``installed``; ``apt-get`` and ``id`` log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "log"
    (bin_dir / "dpkg").write_text(
        "#!/bin/sh\ncase \" %s \" in *\" $2 \"*) exit 0;; esac\nexit 1\n" % " ".join(installed))
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "apt-get $*" >> {log}\n')
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    return bin_dir, log


def run(tmp_path, installed, uid, *args):
    bin_dir, log = stub_bin(tmp_path, installed, uid)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True)
    return proc, (log.read_text().splitlines() if log.exists() else [])


def test_make_test_runs_the_provisioning_step_before_the_tests():
    # Run as a top-level make even when the suite itself runs under `make test` (CI), where
    # MAKELEVEL/MAKEFLAGS would add "make[1]: Entering directory" lines.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    out = subprocess.run(["make", "-n", "--no-print-directory", "test"], cwd=BASE_DIR, capture_output=True,
                         text=True, env={**env, "DJANGO_DEBUG": "true"}).stdout.splitlines()
    assert out[0] == "bash scripts/provision.sh"
    # the slow checks too, one process per core
    assert out[-1] == '.venv/bin/python -m pytest -m "slow or not slow" -n auto --dist load'


def test_ci_calls_the_same_step():
    ci = (BASE_DIR / ".ci" / "run").read_text()
    assert "bash scripts/provision.sh postgresql" in ci
    assert "apt-get" not in ci  # no copy of its own


def test_as_root_it_installs_chromium_and_the_fonts(tmp_path):
    proc, calls = run(tmp_path, ["fonts-hanazono"], 0)
    assert proc.returncode == 0, proc.stderr
    assert calls == ["apt-get update -qq",
                     "apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk"]
    # the browser tests launch exactly what Debian's chromium package installs
    assert str(CHROMIUM) == "/usr/bin/chromium"


def test_ci_packages_are_added(tmp_path):
    proc, calls = run(tmp_path, BROWSER_PACKAGES, 0, "postgresql")
    assert (proc.returncode, calls[-1]) == (0, "apt-get install -y -qq --no-install-recommends postgresql")


def test_not_root_it_stops_with_the_one_apt_get_line(tmp_path):
    proc, calls = run(tmp_path, [], 1000)
    assert proc.returncode == 1
    assert calls == []
    assert proc.stderr.splitlines() == [
        "missing Debian packages for the tests; run as root: apt-get update && apt-get install -y "
        "--no-install-recommends chromium fonts-noto-cjk fonts-hanazono"]


@pytest.mark.parametrize("uid", [0, 1000])
def test_nothing_to_do_when_everything_is_there(tmp_path, uid):
    proc, calls = run(tmp_path, BROWSER_PACKAGES, uid)
    assert (proc.returncode, calls, proc.stdout, proc.stderr) == (0, [], "", "")
