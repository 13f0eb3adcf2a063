"""Oracle tables on disk: where they live, how they are written, and how they are checked.

A table file is ``MAGIC``, one line of JSON (the header) and the payload: the folded codes
(one signed byte per position whose other side is canonical, in
:class:`~autograder.games.teeko.solved.symmetry.Folding` order) as one zlib stream. The header
holds the format version, the game's definition, the level sizes (full and folded), the
symmetries folded by, the payload's SHA-256 and the build figures. A build writes a temporary
file beside the target and renames it only when complete, so an interrupted build never leaves
a file that looks finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Generator
from pathlib import Path
from typing import Any, BinaryIO, cast

from autograder.files import atomic_file, remove_stale
from autograder.games.perfect import OracleError
from autograder.games.teeko.solved.game import Game
from autograder.games.teeko.solved.symmetry import Folding

__all__ = [
    "ENV_VAR",
    "FORMAT",
    "cache_dir",
    "cache_path",
    "write_table",
    "read_table",
]

ENV_VAR = "TEEKO_ORACLE_CACHE"
FORMAT = 2  # bump when the layout, the folding, the compression or the value encoding changes
MAGIC = b"teeko-oracle\n"
_HEADER_LIMIT = 1 << 20
# zlib level 4 on the folded 5x5 tables: 3.4 MB in 0.3 CPU s; level 6 saves 9% for 1 s, level
# 9 4% more for 7 s, and lzma (1.9 MB) takes 17 s to write and 0.27 s to read (docs/oracle.md,
# "Table format"). Readers do not depend on the level.
_LEVEL = 4
_STEP = 1 << 20


def cache_dir() -> Path:
    """``$TEEKO_ORACLE_CACHE``, else ``$XDG_CACHE_HOME/teeko-autograder``, else
    ``~/.cache/teeko-autograder``."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "teeko-autograder"


def cache_path(name: str) -> Path:
    """The table file of the game or variant called ``name``."""
    return cache_dir() / f"{name}.oracle"


def _rebuild(game: Game) -> str:
    return f"rebuild it with `autograder oracle build --variant {game.name}`"


def write_table(
    path: Path, folding: Folding, folded: memoryview, stats: dict[str, Any]
) -> Generator[int, None, None]:
    """Compress ``folded`` (the folded codes, as bytes) and write it to ``path`` atomically,
    yielding how many codes are compressed so far.

    :raises OracleError: when the folder cannot be created or written.
    """
    layout = folding.layout
    game = layout.game
    data = folded.cast("B")
    if len(data) != folding.total:
        raise ValueError(f"{len(data)} codes for a folded table of {folding.total}")
    packer = zlib.compressobj(_LEVEL)
    parts = []
    for start in range(0, len(data), _STEP):
        parts.append(packer.compress(data[start : start + _STEP]))
        yield min(len(data), start + _STEP)
    parts.append(packer.flush())
    payload = b"".join(parts)
    header = {
        "format": FORMAT,
        "encoding": "int8 per position, side to move: 0 draw, +n win, -n loss in n - 1 plies",
        "folding": f"{len(folding.perms)} board symmetries; rows of canonical other sides",
        "compression": "zlib",
        "game": game.definition(),
        "levels": layout.sizes,
        "folded_levels": folding.sizes,
        "sha256": hashlib.sha256(payload).hexdigest(),
        "stats": stats,
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OracleError(
            f"cannot create the oracle folder {path.parent}: {err.strerror}"
        ) from None
    remove_stale(path)
    try:
        with atomic_file(path) as out:
            out.write(MAGIC)
            out.write(json.dumps(header, sort_keys=True).encode() + b"\n")
            out.write(payload)
    except OSError as err:
        raise OracleError(f"cannot write the oracle table {path}: {err.strerror}") from None


def read_table(path: Path, folding: Folding) -> tuple[bytes, dict[str, Any]]:
    """The folded codes stored in ``path`` for ``folding``'s game, checked and decompressed,
    and the file's header.

    :raises OracleError: in one sentence, when the file is missing, damaged, of another format
        or built for a different definition of the game.
    """
    game = folding.layout.game
    try:
        with open(path, "rb") as source:
            header = _header(source, path, folding)
            payload = source.read()
    except FileNotFoundError:
        raise OracleError(
            f"there is no oracle table for {game.name!r} at {path}; build it with "
            f"`autograder oracle build --variant {game.name}` (10-20 s)"
        ) from None
    except OSError as err:
        raise OracleError(f"cannot read the oracle table {path}: {err.strerror}") from None
    damaged = f"{path} is damaged (its checksum does not match); {_rebuild(game)}"
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise OracleError(damaged)
    try:
        codes = zlib.decompress(payload)
    except zlib.error:
        raise OracleError(damaged) from None
    if len(codes) != sum(header["folded_levels"]):
        raise OracleError(damaged)
    return codes, header


def _header(source: BinaryIO, path: Path, folding: Folding) -> dict[str, Any]:
    game = folding.layout.game
    if source.read(len(MAGIC)) != MAGIC:
        raise OracleError(f"{path} is not an oracle table; delete it or {_rebuild(game)}")
    line = source.readline(_HEADER_LIMIT)
    try:
        header = json.loads(line)
        version = header["format"]
    except (ValueError, KeyError, TypeError):
        raise OracleError(f"{path} has a damaged header; {_rebuild(game)}") from None
    if version != FORMAT:
        raise OracleError(
            f"{path} is in oracle format {version!r} but this kit reads format {FORMAT}; "
            f"{_rebuild(game)}"
        )
    if header.get("game") != game.definition():
        raise OracleError(
            f"{path} was built for a different definition of {game.name!r} (board, markers or "
            f"goals differ from this kit's); {_rebuild(game)}"
        )
    if header.get("levels") != folding.layout.sizes or header.get("folded_levels") != folding.sizes:
        raise OracleError(f"{path} has a table of the wrong shape; {_rebuild(game)}")
    return cast(dict[str, Any], header)
