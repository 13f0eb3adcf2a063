"""The filesystem fence: a bubblewrap command in which the submission sees an allowlist.

Inside, the root is an empty, read-only tmpfs holding only

- the interpreter, its standard library (``site-packages`` covered by an empty folder) and the
  folders of the shared libraries the interpreter loads (found with ``ldd``), read-only, at
  their own paths, with the symbolic links that lead to them;
- the runner (``/sandbox/child.py``, the wire protocol beside it), the game's driver
  (``/sandbox/driver.py``), the kit's shared driver code (``/sandbox/library/``) and the
  submission's files (``/sandbox/submission``), read-only;
  the runner copies the files into the private ``/tmp`` and runs them from there;
- the third-party packages the rubric allows (``/sandbox/site/<name>``), read-only;
- a private ``/tmp`` and ``/dev/shm`` (tmpfs, sized), a minimal ``/dev`` (null, zero, full,
  random, urandom, tty) and a ``/proc`` of its own pid namespace with ``/proc/sys`` read-only.

Nothing else exists for it (but the ``C.UTF-8`` locale its ``LANG`` names): no ``/etc`` (but
the loader's cache and a ``passwd`` and ``group`` naming its own user, so that ``pwd``,
``grp`` and ``getpass`` answer), ``/home``, ``/root``, ``/var``, ``/run``, no kit, no other
submission. It also gets no network (a namespace with a downed loopback), its own pid, IPC
and UTS namespaces, and dies with the grader.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Layout",
    "layout",
    "command",
    "bwrap",
    "SANDBOX",
    "CHILD",
    "PROTOCOL",
    "DRIVER",
    "LIBRARY",
    "SUBMISSION",
    "SITE",
    "package_paths",
    "IDENTITY",
    "identity_files",
]

SANDBOX = "/sandbox"
CHILD = f"{SANDBOX}/child.py"  # the runner, with the wire protocol beside it
PROTOCOL = f"{SANDBOX}/protocol.py"
DRIVER = f"{SANDBOX}/driver.py"  # the game's driver
LIBRARY = f"{SANDBOX}/library"  # the kit's shared driver modules, each by its file's name
SUBMISSION = f"{SANDBOX}/submission"
SITE = f"{SANDBOX}/site"
IDENTITY = ("/etc/passwd", "/etc/group")  # the sandbox's user, written by identity_files
_LOCALE = "/usr/lib/locale/C.utf8"  # LANG=C.UTF-8 (launch.py): locale.setlocale(LC_ALL, "")
_LIBRARY = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x[0-9a-f]+\)")


@dataclass(frozen=True)
class Layout:
    """What of the host the sandbox shows, computed once per grader run."""

    interpreter: str  # the real interpreter binary (never a virtualenv's link to it)
    read_only: tuple[str, ...]  # host paths shown read-only at their own path
    symlinks: tuple[tuple[str, str], ...]  # (target, path): links leading to those paths
    covered: tuple[str, ...]  # folders inside them shown empty (site-packages)
    packages: tuple[tuple[str, str], ...]  # (host path, name under SITE)


def bwrap() -> str | None:
    """The bubblewrap program, or None when it is not installed."""
    return shutil.which("bwrap")


def _interpreter() -> str:
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


def _libraries(binary: str) -> list[str]:
    """The shared libraries ``binary`` loads, as the loader finds them; empty without ldd."""
    try:
        done = subprocess.run(
            ["ldd", binary], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return _LIBRARY.findall(done.stdout)


def _links_on_the_way(path: str) -> list[tuple[str, str]]:
    """(target, link) for each symbolic link met while resolving ``path`` from the root."""
    links: list[tuple[str, str]] = []
    current = "/"
    for part in Path(path).parts[1:]:
        candidate = os.path.join(current, part)
        if os.path.islink(candidate):
            links.append((os.readlink(candidate), candidate))
            current = os.path.realpath(candidate)
        else:
            current = candidate
    return links


def package_paths(name: str) -> list[tuple[str, str]]:
    """(host path, name) for an installed package and the libraries its wheel vendors."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        found = [(os.path.realpath(p), name) for p in spec.submodule_search_locations]
        vendored = found[0][0] + ".libs"  # auditwheel's folder beside the package
        if os.path.isdir(vendored):
            found.append((vendored, f"{name}.libs"))
        return found[:2]
    if spec.origin and os.path.isfile(spec.origin):
        return [(os.path.realpath(spec.origin), os.path.basename(spec.origin))]
    return []


@functools.cache
def layout(packages: tuple[str, ...] = ()) -> Layout:
    """The allowlist for this interpreter and the named third-party ``packages``."""
    interpreter = _interpreter()
    stdlib = os.path.realpath(os.path.dirname(os.__file__))
    extensions = importlib.util.find_spec("_ctypes")
    folders = {interpreter, stdlib}
    if extensions and extensions.origin and os.path.isfile(extensions.origin):
        folders.add(os.path.realpath(os.path.dirname(extensions.origin)))  # lib-dynload
    links: dict[str, str] = {}
    for library in _libraries(interpreter):
        for target, link in _links_on_the_way(library):
            links[link] = target
        folders.add(os.path.realpath(os.path.dirname(library)))
        folders.add(os.path.dirname(os.path.realpath(library)))
    for shared in ("/etc/ld.so.cache", _LOCALE):  # the loader's cache; LANG's locale
        if os.path.exists(shared):
            folders.add(shared)
    kept = sorted(f for f in folders if not any(f.startswith(o + "/") for o in folders))
    covered = tuple(
        p for p in (os.path.join(stdlib, "site-packages"), os.path.join(stdlib, "dist-packages"))
        if os.path.isdir(p)
    )  # fmt: skip
    found = tuple(item for name in packages for item in package_paths(name))
    return Layout(
        interpreter, tuple(kept), tuple((t, p) for p, t in sorted(links.items())), covered, found
    )


def identity_files(uid: int) -> tuple[bytes, bytes]:
    """``/etc/passwd`` and ``/etc/group`` naming the sandbox's one user, ``student``, with
    ``uid`` (its id inside) and its home: what ``pwd.getpwuid(os.getuid())`` reads."""
    return (
        f"student:x:{uid}:{uid}:student:/tmp/work:/bin/sh\n".encode(),
        f"student:x:{uid}:\n".encode(),
    )


def _parents(paths: list[str]) -> list[str]:
    """Every folder above ``paths``, shallowest first, for bubblewrap to make readable."""
    above = {str(p) for path in paths for p in Path(path).parents if str(p) != "/"}
    return sorted(above, key=lambda p: (p.count("/"), p))


def command(
    where: Layout,
    child: Path,
    submission: Path,
    driver: Path | None,
    tmp_mb: int,
    privileged: bool,
    library: tuple[Path, ...] = (),
    identity: tuple[int, int] | None = None,
) -> list[str]:
    """The bubblewrap command line up to ``--``; the interpreter and its arguments follow.

    ``privileged``: the grader is root, so no user namespace is made and the runner keeps
    only what it needs to switch to its own unprivileged uid (``CAP_SETUID``, ``CAP_SETGID``).
    ``library``: the kit's shared driver modules, shown at ``LIBRARY/<name>``.
    ``identity``: descriptors to read ``/etc/passwd`` and ``/etc/group`` from (``IDENTITY``).
    """
    program = bwrap() or "bwrap"
    args = [program, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]
    args += ["--unshare-cgroup-try", "--die-with-parent", "--new-session", "--as-pid-1"]
    if privileged:
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--unshare-user", "--disable-userns"]
    links = [link for _, link in where.symlinks]
    runner = [(child, CHILD), (child.with_name("protocol.py"), PROTOCOL), (submission, SUBMISSION)]
    if driver is not None:
        runner.append((driver, DRIVER))
    runner += [(path, f"{LIBRARY}/{path.name}") for path in library]
    destinations = [
        *where.read_only,
        *where.covered,
        *(inside for _, inside in runner),
        *(f"{SITE}/{name}" for _, name in where.packages),
        *(IDENTITY if identity is not None else ()),
    ]
    for folder in _parents(destinations):
        if folder not in links and not any(folder.startswith(link + "/") for link in links):
            args += ["--perms", "0755", "--dir", folder]
    for target, link in where.symlinks:
        args += ["--symlink", target, link]
    for path in where.read_only:
        args += ["--ro-bind", path, path]
    for path in where.covered:
        args += ["--perms", "0755", "--tmpfs", path, "--remount-ro", path]
    for outside, inside in runner:
        args += ["--ro-bind", str(outside), inside]
    for path, name in where.packages:
        args += ["--ro-bind", path, f"{SITE}/{name}"]
    for descriptor, inside in zip(identity or (), IDENTITY, strict=False):
        args += ["--perms", "0644", "--ro-bind-data", str(descriptor), inside]
    size = str(max(tmp_mb, 1) << 20)
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"]
    args += ["--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
    args += ["--remount-ro", "/", "--chdir", "/tmp", "--"]
    return args
