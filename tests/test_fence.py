"""The fence's allowlist and the bubblewrap command built from it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from autograder.play import fence
from autograder.play.fence import (
    CHILD,
    DRIVER,
    LIBRARY,
    PROTOCOL,
    SITE,
    SUBMISSION,
    Layout,
    command,
    layout,
)


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def test_the_layout_holds_the_real_interpreter_and_its_library_only():
    where = layout()
    assert where.interpreter == os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    assert _inside(where.interpreter, where.read_only)
    assert _inside(os.path.realpath(os.__file__), where.read_only)
    stdlib = os.path.realpath(os.path.dirname(os.__file__))
    site = os.path.join(stdlib, "site-packages")
    assert not os.path.isdir(site) or site in where.covered
    kit = str(Path(fence.__file__).resolve().parent.parent)
    assert not any(_inside(kit, (p,)) or _inside(p, (kit,)) for p in where.read_only), kit
    assert not any(
        _inside(p, (sys.prefix,)) for p in where.read_only if sys.prefix != sys.base_prefix
    )


def test_an_allowed_package_is_shown_with_its_vendored_libraries():
    where = layout(("numpy", "no_such_package_anywhere"))
    names = [name for _, name in where.packages]
    assert "no_such_package_anywhere" not in names
    assert "numpy" in names
    numpy = Path(dict((n, p) for p, n in where.packages)["numpy"])
    assert (numpy / "__init__.py").is_file()
    if numpy.with_name("numpy.libs").is_dir():
        assert "numpy.libs" in names


def test_links_on_the_way_are_mirrored(tmp_path):
    (tmp_path / "usr" / "lib").mkdir(parents=True)
    (tmp_path / "lib").symlink_to("usr/lib")
    (tmp_path / "usr" / "lib" / "libx.so").write_text("")
    links = fence._links_on_the_way(str(tmp_path / "lib" / "libx.so"))
    assert links == [("usr/lib", str(tmp_path / "lib"))]


DRIVER_FILE = Path("/kit/games/teeko/driver.py")
SHARED = (Path("/kit/games/grid_driver.py"),)
FAKE = Layout(
    interpreter="/opt/py/bin/python3.11",
    read_only=("/opt/py/bin/python3.11", "/opt/py/lib", "/usr/lib/x86_64-linux-gnu"),
    symlinks=(("usr/lib", "/lib"),),
    covered=("/opt/py/lib/python3.11/site-packages",),
    packages=(("/venv/site/numpy", "numpy"),),
)


def test_every_folder_above_a_bind_is_made_readable_before_it():
    args = command(FAKE, Path("/kit/child.py"), Path("/work/sub"), DRIVER_FILE, 64, True, SHARED)
    made = [args[i + 1] for i, a in enumerate(args) if a == "--dir"]
    for needed in ("/opt", "/opt/py", "/opt/py/bin", "/usr", "/usr/lib", "/sandbox", SITE, LIBRARY):
        assert needed in made
        position = args.index(needed)
        assert args[position - 3 : position - 1] == ["--perms", "0755"]
    first_bind = args.index("--ro-bind")
    assert all(args.index(folder) < first_bind for folder in made)
    assert "/lib" not in made, "a mirrored link is a link, not a folder"


def test_the_command_binds_only_the_allowlist_read_only():
    args = command(FAKE, Path("/kit/child.py"), Path("/work/sub"), DRIVER_FILE, 64, True, SHARED)
    binds = [(args[i + 1], args[i + 2]) for i, a in enumerate(args) if a == "--ro-bind"]
    assert binds == [
        ("/opt/py/bin/python3.11", "/opt/py/bin/python3.11"),
        ("/opt/py/lib", "/opt/py/lib"),
        ("/usr/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"),
        ("/kit/child.py", CHILD),
        ("/kit/protocol.py", PROTOCOL),
        ("/work/sub", SUBMISSION),
        ("/kit/games/teeko/driver.py", DRIVER),
        ("/kit/games/grid_driver.py", f"{LIBRARY}/grid_driver.py"),
        ("/venv/site/numpy", f"{SITE}/numpy"),
    ]
    assert "--bind" not in args and "--dev-bind" not in args
    assert args[-1] == "--" and args[args.index("--remount-ro") + 1] == FAKE.covered[0]
    for namespace in ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"):
        assert namespace in args
    size = str(64 << 20)
    assert args[args.index("/tmp") - 4 : args.index("/tmp")] == ["1777", "--size", size, "--tmpfs"]


def test_a_root_grader_keeps_only_the_caps_to_switch_uid_and_a_user_gets_a_user_namespace():
    privileged = command(FAKE, Path("/c"), Path("/s"), None, 8, privileged=True)
    assert privileged[privileged.index("--cap-drop") + 1] == "ALL"
    added = [privileged[i + 1] for i, a in enumerate(privileged) if a == "--cap-add"]
    assert added == ["CAP_SETUID", "CAP_SETGID"]
    assert "--unshare-user" not in privileged
    user = command(FAKE, Path("/c"), Path("/s"), None, 8, privileged=False)
    assert "--unshare-user" in user and "--disable-userns" in user and "--cap-add" not in user
