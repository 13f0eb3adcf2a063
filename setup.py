"""The course's folders (starter/, answer_key/, solution/, examples/) stay at the top of the
checkout, where the course keeps them; a built kit (``pip install .``, a wheel) carries a copy
of them inside the package, as ``autograder/kit/...``, so that an installed kit finds its
starters, answer keys, solutions and example classes (``autograder.files.kit_path``). The rest
of the build is pyproject.toml's."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

COURSE_FOLDERS = ("starter", "answer_key", "solution", "examples")


class BuildWithCourseFolders(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # the checkout's own folders are found where they are
            return
        root = Path(__file__).resolve().parent
        kit = Path(self.build_lib) / "autograder" / "kit"
        leftovers = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
        for name in COURSE_FOLDERS:
            shutil.copytree(root / name, kit / name, ignore=leftovers, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithCourseFolders})
