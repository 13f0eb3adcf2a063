"""The bundle's ``setup.sh``, every branch, on a fake machine: a fake ``apt-get`` that logs what
it is asked and "installs" what it can, fake Pythons of a chosen version, and a fake root, so
that the script's decisions show in the log without touching this machine."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import zipfile
from pathlib import Path

import pytest

from autograder.classroom.gradescope import build_bundle
from autograder.games import find_assignment

pytestmark = pytest.mark.timeout(120)

# A fake Python: FAKE_VERSION is its minor version; `-c` runs the version test and the name of
# the venv package, `-m venv DIR` makes DIR/bin/python3 (this same fake) unless ensurepip is
# "missing" (FAKE_NO_ENSUREPIP and no python3.X-venv installed yet), and anything else is
# logged as done.
_PYTHON = r"""#!/bin/bash
minor=${FAKE_VERSION:?}
echo "python3.$minor $*" >> "$FAKE_LOG"
if [ "$1" = "-c" ]; then
    case "$2" in
        *version_info\ \<*) [ "$minor" -ge 11 ]; exit $? ;;
        *print*) echo "python3.$minor-venv"; exit 0 ;;
    esac
fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    if [ -n "${FAKE_NO_ENSUREPIP:-}" ] && [ ! -e "$FAKE_BIN/.venv-installed" ]; then
        mkdir -p "$3"; echo "ensurepip is not available" >&2; exit 1
    fi
    mkdir -p "$3/bin"
    printf '#!/bin/bash\nFAKE_VERSION=%s exec "%s" "$@"\n' "$minor" "$FAKE_BIN/python3" \
        > "$3/bin/python3"
    chmod +x "$3/bin/python3"
    exit 0
fi
exit 0
"""
# A fake apt-get: logs; "installs" python3.11 (a fake Python 3.11), python3.X-venv (ensurepip)
# and bubblewrap unless FAKE_APT_BROKEN names it.
_APT = r"""#!/bin/bash
echo "apt-get $*" >> "$FAKE_LOG"
for package in "$@"; do
    if [ -n "${FAKE_APT_BROKEN:-}" ] && [ "$package" = "$FAKE_APT_BROKEN" ]; then exit 100; fi
    case "$package" in
        python3.11) printf '#!/bin/bash\nFAKE_VERSION=11 exec "%s" "$@"\n' "$FAKE_BIN/python3" \
            > "$FAKE_BIN/python3.11"; chmod +x "$FAKE_BIN/python3.11" ;;
        python3.*-venv) touch "$FAKE_BIN/.venv-installed" ;;
        bubblewrap) printf '#!/bin/bash\n' > "$FAKE_BIN/bwrap"; chmod +x "$FAKE_BIN/bwrap" ;;
    esac
done
"""
_TOOLS = ("bash", "dirname", "rm", "mkdir", "chmod", "cat", "touch", "env")


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture(scope="module")
def setup_sh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle")
    bundle = build_bundle(find_assignment("teeko2"), out, None)
    source = out / "source"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(source)
    return source / "setup.sh"


def _run(tmp_path: Path, setup_sh: Path, version: int, bwrap: bool = True, **env: str):  # type: ignore[no-untyped-def]
    """setup.sh on the fake machine: its exit status, output and the log of what it ran."""
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in _TOOLS:
        os.symlink(shutil.which(tool) or f"/bin/{tool}", fake / tool)
    _script(fake / "python3", _PYTHON)
    _script(fake / "apt-get", _APT)
    if bwrap:
        _script(fake / "bwrap", "#!/bin/bash\n")
    log = tmp_path / "log"
    log.touch()
    done = subprocess.run(
        ["bash", str(setup_sh)],
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": str(fake),
            "AUTOGRADER_ROOT": str(tmp_path / "root"),
            "FAKE_LOG": str(log),
            "FAKE_BIN": str(fake),
            "FAKE_VERSION": str(version),
            **env,
        },
    )
    return done, log.read_text().splitlines()


def test_a_new_enough_python_installs_without_apt(tmp_path, setup_sh):
    done, log = _run(tmp_path, setup_sh, version=12)
    assert done.returncode == 0, done.stderr
    assert not [line for line in log if line.startswith("apt-get")]
    assert f"python3.12 -m venv {tmp_path / 'root' / 'venv'}" in log
    assert any("-m pip install --quiet --no-cache-dir" in line for line in log)
    requirements = setup_sh.with_name("requirements.txt")
    assert f"python3.12 -m pip install --quiet --no-cache-dir -r {requirements}" in log
    assert "-m autograder --help" in log[-1]
    assert done.stdout.strip().endswith(
        f"installed the grading kit in {tmp_path / 'root' / 'venv'}"
    )


def test_ubuntu_22_04s_python_3_10_gets_python_3_11_from_apt(tmp_path, setup_sh):
    done, log = _run(tmp_path, setup_sh, version=10)
    assert done.returncode == 0, done.stderr
    assert "apt-get update -q" in log
    assert "apt-get install -y -q python3.11 python3.11-venv" in log
    assert f"python3.11 -m venv {tmp_path / 'root' / 'venv'}" in log
    assert not any(line.startswith("python3.10 -m venv") for line in log)


def test_a_python_without_ensurepip_gets_its_venv_package(tmp_path, setup_sh):
    done, log = _run(tmp_path, setup_sh, version=12, FAKE_NO_ENSUREPIP="1")
    assert done.returncode == 0, done.stderr
    assert "apt-get install -y -q python3.12-venv" in log
    venvs = [line for line in log if line.startswith("python3.12 -m venv")]
    assert len(venvs) == 2  # tried, then again once the package is there


def test_bubblewrap_is_installed_when_missing(tmp_path, setup_sh):
    done, log = _run(tmp_path, setup_sh, version=12, bwrap=False)
    assert done.returncode == 0, done.stderr
    assert "apt-get install -y -q bubblewrap" in log


def test_a_bubblewrap_that_will_not_install_is_said_and_setup_goes_on(tmp_path, setup_sh):
    done, log = _run(tmp_path, setup_sh, version=12, bwrap=False, FAKE_APT_BROKEN="bubblewrap")
    assert done.returncode == 0, done.stderr
    assert "could not install bubblewrap: submissions will run without the fence" in done.stdout
    assert "installed the grading kit" in done.stdout


def test_a_python_that_cannot_be_installed_stops_setup(tmp_path, setup_sh):
    done, log = _run(tmp_path, setup_sh, version=10, FAKE_APT_BROKEN="python3.11")
    assert done.returncode != 0
    assert not any("-m pip install" in line for line in log)


def test_a_rubric_that_allows_no_package_installs_none(tmp_path):
    bundle = build_bundle(find_assignment("board-abc"), tmp_path / "out", None)
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(tmp_path / "source")
    done, log = _run(tmp_path, tmp_path / "source" / "setup.sh", version=12)
    assert done.returncode == 0, done.stderr
    assert any("-m pip install --quiet --no-cache-dir" in line for line in log)
    assert not [line for line in log if "requirements.txt" in line]
