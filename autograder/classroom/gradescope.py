"""The Gradescope autograder bundle: ``autograder.zip`` holding the kit, a rubric and two scripts.

Gradescope unpacks the zip into ``/autograder/source``, runs ``setup.sh`` once when the image is
built, then runs ``run_autograder`` for each submission, which must leave
``/autograder/results/results.json``. The bundle's bytes depend only on the kit's source, the
variant and the rubric (fixed timestamps, sorted entries), so building twice gives the same zip.
"""

from __future__ import annotations

import importlib.metadata
import json
import shlex
import stat
import tomllib
import zipfile
from pathlib import Path

from autograder.errors import GraderError
from autograder.files import KIT_FOLDER, atomic_file
from autograder.games.pack import Assignment
from autograder.grading.rubric import load_rubric

__all__ = [
    "build_bundle",
    "BUNDLE_NAME",
    "BUNDLED_RUBRIC",
    "REQUIREMENTS",
]

BUNDLE_NAME = "autograder.zip"
BUNDLED_RUBRIC = "rubric.toml"  # the rubric's name inside the bundle, whatever it was called
REQUIREMENTS = "requirements.txt"  # the rubric's limits.packages, which setup.sh installs
_KIT = Path(__file__).resolve().parent.parent  # the autograder package
_DISTRIBUTION = "teeko-autograder"  # the name pip knows the kit by
_CHECKOUT = _KIT.parent / "pyproject.toml"  # there when the kit runs from its source tree
_EPOCH = (1980, 1, 1, 0, 0, 0)  # zip's earliest time: the same bytes on every build
_SHIPPED_SUFFIXES = {".py", ".toml"}  # the package's modules and its rubrics (package data)

_SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, from /autograder/source, when it builds the autograder image.
# It installs the grading kit (and rich) into its own virtual environment, /autograder/venv,
# with a Python >= 3.11 (Ubuntu 22.04 images ship 3.10, so then python3.11 comes from apt),
# and the packages the rubric allows submissions to import (requirements.txt).
set -euo pipefail
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=${AUTOGRADER_ROOT:-/autograder}
VENV="$ROOT/venv"

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }

PYTHON=python3
if ! new_enough "$PYTHON"; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3.11 python3.11-venv
    PYTHON=python3.11
fi
if ! "$PYTHON" -m venv "$VENV"; then
    # Debian and Ubuntu leave ensurepip out of python3 unless pythonX.Y-venv is installed.
    rm -rf "$VENV"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q \\
        "$("$PYTHON" -c 'import sys; print("python3.%d-venv" % sys.version_info[1])')"
    "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python3" -m pip install --quiet --no-cache-dir "$SOURCE"
if [ -s "$SOURCE/requirements.txt" ]; then
    # the third-party packages the rubric allows submissions (limits.packages)
    "$VENV/bin/python3" -m pip install --quiet --no-cache-dir -r "$SOURCE/requirements.txt"
fi
(cd / && "$VENV/bin/python3" -m autograder --help > /dev/null)  # installed, not just here
if ! command -v bwrap > /dev/null && command -v apt-get > /dev/null; then
    # the allowlist fence (docs/sandbox.md); where the image forbids namespaces the report
    # says the fence is missing, and grading goes on without it
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap \
        || echo "could not install bubblewrap: submissions will run without the fence"
fi
echo "installed the grading kit in $VENV"
"""

_RUN = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission by the bundled
# rubric into /autograder/results/results.json. A results.json is always written: when the
# grader cannot grade (no {main}, a broken zip ...) it holds score 0 and the reason.
# AUTOGRADER_ROOT replaces /autograder (for tests).
set -uo pipefail
ROOT=${{AUTOGRADER_ROOT:-/autograder}}
SOURCE="$ROOT/source"
RESULTS="$ROOT/results/results.json"
ASSIGNMENT={assignment}
if [ -x "$ROOT/venv/bin/python3" ]; then
    PATH="$ROOT/venv/bin:$PATH"  # installed by setup.sh
fi
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
ERRORS=$(mktemp)
trap 'rm -f "$ERRORS"' EXIT

# Students upload {main} (or a folder of files); a zip upload that Gradescope kept whole is
# graded as the zip.
SUBMISSION="$ROOT/submission"
shopt -s nullglob
ZIPS=("$SUBMISSION"/*.zip)
if [ ! -e "$SUBMISSION/{main}" ] && [ "${{#ZIPS[@]}}" -eq 1 ]; then
    SUBMISSION=${{ZIPS[0]}}
fi

python3 -m autograder check "$SUBMISSION" --assignment "$ASSIGNMENT" \\
    --rubric "$SOURCE/{rubric}" --json "$RESULTS" 2> "$ERRORS"
STATUS=$?
cat "$ERRORS" >&2  # the grader's messages, for the instructor's view of the run
if [ "$STATUS" -eq 0 ] && [ -s "$RESULTS" ]; then
    exit 0
fi

# Not graded: tell the student why, in one line, with score 0.
REASON=$(grep -v '^[[:space:]]*$' "$ERRORS" | tail -n 1)
REASON=${{REASON#autograder: }}
REASON=${{REASON//"$ROOT/submission"/your submission}}
if [ "$STATUS" -ne 2 ]; then
    REASON="the autograder failed (exit status $STATUS), please tell your instructor: $REASON"
fi
export REASON
if ! python3 - "$RESULTS" <<'EOF'
import json
import os
import sys

results = {{"score": 0, "output": os.environ["REASON"], "visibility": "visible", "tests": []}}
with open(sys.argv[1], "w", encoding="utf-8") as handle:
    json.dump(results, handle, indent=2)
    handle.write("\\n")
EOF
then
    echo '{{"score": 0, "output": "could not be graded", "tests": []}}' > "$RESULTS"
fi
exit 0
"""


def _kit_files() -> list[tuple[str, Path]]:
    """(name in the zip, file) for the autograder package: modules and rubrics, nothing else
    (no caches, no editor leftovers, no course files of an installed kit)."""
    files = []
    for path in sorted(_KIT.rglob("*")):
        relative = path.relative_to(_KIT)
        if not path.is_file() or path.suffix not in _SHIPPED_SUFFIXES:
            continue
        if any(part.startswith((".", "__pycache__")) for part in relative.parts):
            continue
        if relative.parts[0] == KIT_FOLDER:  # an installed kit's starters and solutions
            continue
        files.append((f"autograder/{relative.as_posix()}", path))
    return files


def _install_facts() -> tuple[str, list[str]]:
    """The kit's version and the packages it needs at run time: from its installed metadata
    (any install, editable or not), else from the source tree it runs from.

    :raises GraderError: when neither says (a copy of the package without its project).
    """
    try:
        version = importlib.metadata.version(_DISTRIBUTION)
        needs = importlib.metadata.requires(_DISTRIBUTION) or []
        return version, [need for need in needs if "extra ==" not in need]
    except importlib.metadata.PackageNotFoundError:
        pass
    try:
        project = tomllib.loads(_CHECKOUT.read_text("utf-8"))["project"]
        return str(project["version"]), [str(need) for need in project.get("dependencies", [])]
    except (OSError, ValueError, KeyError) as err:
        raise GraderError(
            f"cannot tell which packages the kit needs: {_DISTRIBUTION} is not installed and "
            f"{_CHECKOUT} is not readable ({err}); install the kit with pip and build again"
        ) from None


def _pyproject() -> str:
    """A ``pyproject.toml`` that installs the bundled package as it is installed here: the
    bundle carries it whole, so it builds alike from a checkout or from any install."""
    version, needs = _install_facts()
    return f"""\
# Made by `autograder gradescope`: installs the bundled autograder package (setup.sh).
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = {json.dumps(_DISTRIBUTION)}
version = {json.dumps(version)}
requires-python = ">=3.11"
dependencies = {json.dumps(sorted(needs))}

[project.scripts]
autograder = "autograder.cli:main"

[tool.setuptools.packages.find]
include = ["autograder*"]

[tool.setuptools.package-data]
autograder = ["games/*/*.toml"]
"""


def _add(bundle: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=_EPOCH)
    mode = 0o755 if executable else 0o644
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    bundle.writestr(info, data)


def build_bundle(assignment: Assignment, out: Path, rubric_path: Path | None) -> Path:
    """Build the Gradescope bundle for ``assignment`` as ``out/autograder.zip``; returns its
    path.

    The rubric (``rubric_path``, or the game's built-in one) is checked first and bundled as
    ``rubric.toml``; the packages it allows submissions go in ``requirements.txt``.

    :raises GraderError: when the rubric is invalid or the zip cannot be written.
    """
    rubric = load_rubric(rubric_path, assignment.pack)  # broken: fails here, not on Gradescope
    requirements = "".join(f"{name}\n" for name in rubric.limits.packages)
    rubric_text = (rubric_path or assignment.pack.rubric).read_bytes()
    run = _RUN.format(
        assignment=shlex.quote(assignment.name), rubric=BUNDLED_RUBRIC, main=assignment.main_file
    )
    scripts = {"setup.sh": _SETUP, "run_autograder": run}
    target = out / BUNDLE_NAME
    try:
        with atomic_file(target) as raw, zipfile.ZipFile(raw, "w") as bundle:
            for name, text in scripts.items():
                _add(bundle, name, text.encode(), executable=True)
            _add(bundle, BUNDLED_RUBRIC, rubric_text)
            _add(bundle, REQUIREMENTS, requirements.encode())
            _add(bundle, "pyproject.toml", _pyproject().encode())
            for name, path in _kit_files():
                _add(bundle, name, path.read_bytes())
    except OSError as err:
        raise GraderError(f"cannot write the bundle {target}: {err}") from err
    return target
