"""Which submissions share code: winnowed fingerprints of normalised Python tokens. Pure.

The method is winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003), the one behind MOSS,
on Python's own tokenizer. Each file becomes a stream of tokens in which every identifier that
is not a keyword or a builtin is one symbol (``V``) and every literal another (``L``);
comments, docstrings, type hints, parentheses and the ``name.`` before an attribute are gone.
Renaming variables and functions, changing comments and strings, and reformatting therefore
leave the stream as it was. Every run of ``k`` tokens is
hashed; of each window of ``w`` consecutive hashes the smallest is kept, so any stretch of at
least ``k + w - 1`` tokens that two files share yields at least one common fingerprint.
Fingerprints are a set, so reordered functions still match.

What everyone was given never counts as shared: every k-gram of the boilerplate (the starter,
and what the instructor adds, such as the answer key) is removed from every side, and so is
every fingerprint held by more than a share of the class (an idiom of the homework, not a copy).
A pair's similarity is, for each side, the share of its remaining fingerprints found in the
other side.
"""

from __future__ import annotations

import builtins
import io
import itertools
import keyword
import tokenize
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from autograder.grading.normalise import stream
from autograder.play.protocol import notebook_cells

__all__ = [
    "Settings",
    "SourceFile",
    "Document",
    "Pair",
    "Comparison",
    "fingerprint",
    "boilerplate",
    "compare",
    "matched_lines",
]

_KEYWORDS = frozenset(keyword.kwlist)
_BUILTINS = frozenset(dir(builtins)) - _KEYWORDS
_LAYOUT = {tokenize.NEWLINE: ";", tokenize.INDENT: "{", tokenize.DEDENT: "}"}
# Parentheses come and go with a reformatter (black, ast.unparse) without changing the code:
# with them, copies put through ast.unparse matched 74%; without, 91% (docs/similarity.md).
# Likewise a name before a dot is dropped with the dot: methods turned into functions
# (self.board -> board) matched 72% with it, 90% without.
_GROUPING = frozenset("()")
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
_MAX_RESTARTS = 50  # a file failing more often than this is compared on what came before
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)  # Python 3.12 splits f-strings up
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)


@dataclass(frozen=True)
class Settings:
    """How fingerprints are taken and pairs judged; every figure is documented in
    docs/similarity.md with what it was measured against."""

    k: int = 12  # tokens in a k-gram: shorter runs are never evidence
    w: int = 8  # winnowing window: a shared run of k + w - 1 tokens is always found
    threshold: float = 0.6  # a pair is flagged when either side has this share matched
    min_shared: int = 10  # ... and at least this many fingerprints in common
    # a function counts fully when it has this many fingerprints of its own; a smaller one's
    # share counts in proportion, so a few lines written alike are no copied function
    function_size: int = 24
    # fingerprints held by more than this share of the class (and by at least three students)
    # are ignored: what most of a class shares is what it was given (a course's own starter
    # the instructor did not name) or an idiom of the homework, not a copy
    common: float = 0.3
    common_from: int = 6  # ... in classes of at least this many students


@dataclass(frozen=True)
class SourceFile:
    name: str  # as the student named it, within the submission
    text: str


@dataclass(frozen=True)
class Function:
    """A function or method of a submission, for the function-by-function comparison."""

    name: str
    file: int  # index in the document's files
    first: int  # its first and last line
    last: int
    hashes: frozenset[int]  # the winnowed fingerprints lying wholly inside it


@dataclass(frozen=True)
class Document:
    """One side of a comparison: a student's (or an archived) submission, fingerprinted."""

    name: str
    files: tuple[SourceFile, ...]
    # per file, per token: its first and last line (1-based), for highlighting
    lines: tuple[tuple[tuple[int, int], ...], ...]
    prints: tuple[tuple[int, int, int], ...]  # (hash, file index, token index), winnowed
    grams: frozenset[int]  # every k-gram hash: what boilerplate takes away from others
    notes: tuple[str, ...] = ()  # what could not be read, one sentence each
    archived: bool = False  # an earlier or public solution: compared with the class only
    functions: tuple[Function, ...] = ()

    @property
    def hashes(self) -> frozenset[int]:
        return frozenset(h for h, _, _ in self.prints)


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    share_a: float  # share of a's own fingerprints found in b
    share_b: float
    shared: int  # distinct fingerprints in common
    flagged: bool
    # the function of either side most found in the other: its share there, weighed down
    # when it is small (see ``compare``), and the most similar function of the other side
    function_share: float = 0.0
    function_a: str = ""  # "minimax, lines 40-80 of game.py"; "" when none was compared
    function_b: str = ""

    @property
    def score(self) -> float:
        """What pairs are ranked and flagged by: the larger share of either whole
        submission, or of one function of either."""
        return max(self.share_a, self.share_b, self.function_share)


@dataclass(frozen=True)
class Comparison:
    """Every pair with a fingerprint in common, the most similar first."""

    settings: Settings
    documents: tuple[Document, ...]
    pairs: tuple[Pair, ...]
    ignored: frozenset[int]  # boilerplate and common fingerprints, never evidence
    common: int  # how many of ``ignored`` are common to the class rather than boilerplate
    own: dict[str, int] = field(default_factory=dict)  # name -> fingerprints of its own
    # (name, before, after): students most of whose own code the class's common rule set
    # aside, when two or more are: a solution passed round a third of the class, or a
    # starter handed in nearly untouched; reported, never flagged
    set_aside: tuple[tuple[str, int, int], ...] = ()

    def set_aside_line(self) -> str:
        """One sentence on ``set_aside`` for the report and the terminal; "" when empty."""
        if not self.set_aside:
            return ""
        named = ", ".join(f"{name} {after} of {before}" for name, before, after in self.set_aside)
        return (
            f"{len(self.set_aside)} students keep little code of their own once code held by "
            f"more than {self.settings.common:.0%} of the class is set aside (fingerprints "
            f"kept: {named}): either they handed in the starter nearly untouched, or a solution "
            "went round that many students; read their files side by side."
        )

    def closest(self) -> dict[str, Pair]:
        """Per class student, the pair where the largest share of the student was matched."""
        best: dict[str, Pair] = {}
        for pair in self.pairs:
            for name, share in ((pair.a, pair.share_a), (pair.b, pair.share_b)):
                held = best.get(name)
                if held is None or share > _share_of(held, name):
                    best[name] = pair
        archived = {d.name for d in self.documents if d.archived}
        return {name: pair for name, pair in best.items() if name not in archived}


def _share_of(pair: Pair, name: str) -> float:
    return pair.share_a if pair.a == name else pair.share_b


def _raw_tokens(text: str) -> tuple[list[tuple[int, str, int, int]], str | None]:
    """(type, string, first line, last line) of every token; where the tokenizer fails, the
    failing line is skipped and it goes on after it, with one sentence saying where."""
    lines = io.StringIO(text, newline="\n").readlines()  # the lines the report numbers
    found: list[tuple[int, str, int, int]] = []
    problem: str | None = None
    start, tries = 0, 0
    while start < len(lines) and tries < _MAX_RESTARTS:
        tries += 1
        readline = io.StringIO("".join(lines[start:])).readline
        try:
            for tok in tokenize.generate_tokens(readline):
                found.append((tok.type, tok.string, tok.start[0] + start, tok.end[0] + start))
            break
        except (tokenize.TokenError, SyntaxError) as err:
            if isinstance(err, SyntaxError):
                where, why = err.lineno or 1, err.msg
            else:
                where, why = err.args[1][0] if len(err.args) > 1 else 1, str(err.args[0])
            line = start + max(int(where), 1)
            problem = problem or f"line {line} does not tokenize ({why}); compared on the rest"
            found = [t for t in found if t[2] < line]
            start = line
    return found, problem


def _symbols(
    text: str,
) -> tuple[list[int], list[tuple[int, int]], str | None, list[tuple[str, int, int]]]:
    """The normalised stream: symbol codes, each one's lines, a sentence on what could not
    be read, and each function's name and range of symbols. Read from the canonical syntax
    tree (:mod:`autograder.grading.normalise`); from the tokens where it does not parse."""
    tree = stream(text)
    if tree is not None:
        return [_code(s) for s in tree.symbols], tree.lines, tree.problem, tree.functions
    codes, spans, problem = _token_symbols(text)
    return codes, spans, problem, []


def _token_symbols(text: str) -> tuple[list[int], list[tuple[int, int]], str | None]:
    """The normalised token stream: symbol codes and each token's lines."""
    raw, problem = _raw_tokens(text)
    kept = _without_annotations(
        [
            t
            for t in raw
            if t[0] not in _SKIP and not (t[0] == tokenize.ERRORTOKEN and not t[1].strip())
        ]
    )
    codes: list[int] = []
    spans: list[tuple[int, int]] = []
    depth = 0  # inside a 3.12 f-string: one literal from its start to its end
    for index, (kind, text_, first, last) in enumerate(kept):
        if kind == _FSTRING_START:
            depth += 1
            if depth == 1:
                codes.append(_code("L"))
                spans.append((first, last))
            continue
        if depth:
            depth -= kind == _FSTRING_END
            if spans:
                spans[-1] = (spans[-1][0], last)
            continue
        if kind == tokenize.STRING and _docstring(kept, index):
            continue
        if kind == tokenize.NEWLINE and index and _docstring(kept, index - 1):
            continue
        if kind == tokenize.OP and text_ in _GROUPING:
            continue
        if kind == tokenize.OP and text_ == ".":  # a.b is b: self.board and board alike
            if codes and codes[-1] == _code("V"):
                codes.pop()
                spans.pop()
            continue
        codes.append(_code(_symbol(kind, text_)))
        spans.append((first, last))
    return codes, spans, problem


_Token = tuple[int, str, int, int]
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


def _without_annotations(tokens: list[_Token]) -> list[_Token]:
    """``tokens`` without type hints: a parameter's (``x: int``), a return's (``-> int``) and a
    variable's (``x: int = 0``); adding or removing hints is no change to the code."""
    out: list[_Token] = []
    depth = 0  # brackets open
    header = False  # inside a def's header, up to its colon
    until: str = ""  # skipping a hint, up to one of these characters at depth ``floor``
    floor = 0
    begun = 0  # where in ``out`` the current statement began
    for kind, text, first, last in tokens:
        op = kind == tokenize.OP
        if until:
            ends_here = depth == floor and (
                (op and text in until) or kind == tokenize.NEWLINE or (op and text in _CLOSE)
            )
            if not ends_here:
                depth = max(depth + (op and text in _OPEN) - (op and text in _CLOSE), 0)
                continue
            until = ""
        if kind == tokenize.NAME and text == "def":
            header = True
        elif header and op and text == "->" and depth == 0:
            until, floor = ":", 0
            continue
        elif header and op and text == ":" and depth == 1:
            until, floor = ",=", 1
            continue
        elif header and op and text == ":" and depth == 0:
            header = False
        elif op and text == ":" and depth == 0 and _plain_target(out[begun:]):
            until, floor = "=", 0
            continue
        depth = max(depth + (op and text in _OPEN) - (op and text in _CLOSE), 0)
        out.append((kind, text, first, last))
        if kind in _LAYOUT or (op and text == ";"):
            begun = len(out)
    return out


def _plain_target(statement: list[_Token]) -> bool:
    """Whether ``statement`` so far is a name or a dotted name (``x``, ``self.x``): what a
    variable's type hint follows. Never ``else``, ``try`` and the like: they are keywords."""
    names = statement[0::2]
    dots = statement[1::2]
    return (
        bool(names)
        and all(t[0] == tokenize.NAME and t[1] not in _KEYWORDS for t in names)
        and all(t[1] == "." for t in dots)
        and len(statement) % 2 == 1
    )


def _docstring(kept: list[tuple[int, str, int, int]], index: int) -> bool:
    """Whether the token at ``index`` is a string standing alone as a statement."""
    if kept[index][0] != tokenize.STRING:
        return False
    before = kept[index - 1][0] if index else tokenize.NEWLINE
    after = kept[index + 1][0] if index + 1 < len(kept) else tokenize.NEWLINE
    return before in _LAYOUT and after == tokenize.NEWLINE


def _symbol(kind: int, text: str) -> str:
    if kind == tokenize.NAME:
        return text if text in _KEYWORDS or text in _BUILTINS else "V"
    if kind in (tokenize.NUMBER, tokenize.STRING):
        return "L"
    return _LAYOUT.get(kind, text)


_CODES: dict[str, int] = {}


def _code(symbol: str) -> int:
    """A fixed number per symbol (not ``hash``, which changes from run to run for text)."""
    code = _CODES.get(symbol)
    if code is None:
        code = _CODES[symbol] = zlib.crc32(symbol.encode())
    return code


def _grams(codes: Sequence[int], k: int) -> list[int]:
    # A tuple of ints hashes the same in every run, unlike text.
    return [hash(tuple(codes[i : i + k])) for i in range(len(codes) - k + 1)]


def _winnow(hashes: Sequence[int], w: int) -> list[tuple[int, int]]:
    """(hash, position) of the rightmost smallest hash of every window of ``w``."""
    if not hashes:
        return []
    if len(hashes) <= w:
        low = min(hashes)
        return [(low, len(hashes) - 1 - hashes[::-1].index(low))]
    chosen: dict[int, int] = {}
    for start in range(len(hashes) - w + 1):
        window = hashes[start : start + w]
        low = min(window)
        chosen[start + w - 1 - window[::-1].index(low)] = low
    return [(h, at) for at, h in sorted(chosen.items())]


def fingerprint(
    name: str,
    files: Sequence[SourceFile],
    settings: Settings = Settings(),
    *,
    notes: Iterable[str] = (),
    archived: bool = False,
) -> Document:
    """``files`` tokenized, normalised and winnowed. Never raises for what the files hold: a
    file that does not tokenize is compared on what does, with a note saying so."""
    said = list(notes)
    lines: list[tuple[tuple[int, int], ...]] = []
    prints: list[tuple[int, int, int]] = []
    grams: set[int] = set()
    functions: list[Function] = []
    for number, one in enumerate(files):
        codes, spans, problem, defined = _symbols(one.text)
        if problem:
            said.append(f"{one.name}: {problem}")
        hashes = _grams(codes, settings.k)
        grams.update(hashes)
        chosen = _winnow(hashes, settings.w)
        prints += [(h, number, at) for h, at in chosen]
        lines.append(tuple(spans))
        for label, begin, end in defined:
            inside = frozenset(h for h, at in chosen if begin <= at and at + settings.k <= end)
            first, last = spans[begin][0], max(span[1] for span in spans[begin:end])
            functions.append(Function(label, number, first, last, inside))
    return Document(
        name,
        tuple(files),
        tuple(lines),
        tuple(prints),
        frozenset(grams),
        tuple(said),
        archived,
        tuple(functions),
    )


def boilerplate(files: Sequence[SourceFile], settings: Settings = Settings()) -> frozenset[int]:
    """Every k-gram of ``files`` (the starter, the answer key): never evidence of sharing."""
    return fingerprint("boilerplate", files, settings).grams


def compare(
    documents: Sequence[Document],
    given: frozenset[int] = frozenset(),
    settings: Settings = Settings(),
) -> Comparison:
    """Every pair of class documents, and every class document with every archived one, that
    has a fingerprint in common outside ``given`` (boilerplate) and the class's common ones;
    the most similar first. Archived documents are not compared with one another."""
    own = {d.name: d.hashes - given for d in documents}
    pupils = [d for d in documents if not d.archived]
    common: set[int] = set()
    if len(pupils) >= settings.common_from:
        counts: dict[int, int] = {}
        for d in pupils:
            for h in own[d.name]:
                counts[h] = counts.get(h, 0) + 1
        least = max(2, settings.common * len(pupils))
        common = {h for h, n in counts.items() if n > least}
    kept = {name: hashes - common for name, hashes in own.items()}
    set_aside = _set_aside(pupils, own, kept)
    ignored = given | frozenset(common)
    parts = {d.name: _parts(d, ignored) for d in documents}
    pairs: list[Pair] = []
    archive = [d for d in documents if d.archived]
    for one, other in itertools.chain(
        itertools.combinations(pupils, 2), itertools.product(pupils, archive)
    ):
        mine, theirs = kept[one.name], kept[other.name]
        shared = len(mine & theirs)
        if not shared:
            continue
        share_a, share_b = shared / len(mine), shared / len(theirs)
        found = _closest_functions(parts[one.name], parts[other.name], theirs, settings)
        score = max(share_a, share_b, found[0])
        flagged = score >= settings.threshold and shared >= settings.min_shared
        pairs.append(Pair(one.name, other.name, share_a, share_b, shared, flagged, *found))
    pairs.sort(key=lambda p: (-p.score, -min(p.share_a, p.share_b), p.a, p.b))
    return Comparison(
        settings,
        tuple(documents),
        tuple(pairs),
        ignored,
        len(common - given),
        {name: len(hashes) for name, hashes in kept.items()},
        set_aside,
    )


_SET_ASIDE = 0.75  # of a student's own fingerprints, lost to the common rule
_SET_ASIDE_FROM = 20  # own fingerprints a student needs before the rule to be counted


def _set_aside(
    pupils: Sequence[Document], own: dict[str, frozenset[int]], kept: dict[str, frozenset[int]]
) -> tuple[tuple[str, int, int], ...]:
    """(name, before, after) of the students who lost most of their own fingerprints to the
    class's common rule, when two or more did; else none."""
    found = tuple(
        (d.name, len(own[d.name]), len(kept[d.name]))
        for d in pupils
        if len(own[d.name]) >= _SET_ASIDE_FROM
        and len(kept[d.name]) < (1 - _SET_ASIDE) * len(own[d.name])
    )
    return found if len(found) >= 2 else ()


_Part = tuple[str, frozenset[int]]  # a function's label and its own fingerprints
_Place = Callable[[int], tuple[str, int] | None]  # a line -> its notebook cell and line in it
_MIN_FUNCTION = 4  # fingerprints two functions must share to be compared at all


def _parts(document: Document, ignored: frozenset[int]) -> list[_Part]:
    """Each function of ``document`` with fingerprints of its own (``ignored`` aside)."""
    places = [notebook_cells(file.text.splitlines()) for file in document.files]  # once each
    found = []
    for f in document.functions:
        hashes = f.hashes - ignored
        if hashes:
            where = _lines(document.files[f.file], places[f.file], f)
            found.append((f"{f.name}, {where}", hashes))
    return found


def _lines(file: SourceFile, place: _Place, function: Function) -> str:
    """Where ``function`` is, as its author finds it: a notebook's cell and lines in it, for
    the module the grader made of a notebook; the lines of the file else."""
    first, last = place(function.first), place(function.last)
    if first is None or last is None or first[0] != last[0]:
        return f"lines {function.first}-{function.last} of {file.name}"
    notebook = file.name if file.name.endswith(".ipynb") else "the notebook"
    return f"cell {first[0]}, lines {first[1]}-{last[1]} of {notebook}"


def _closest_functions(
    mine: list[_Part],
    theirs: list[_Part],
    all_theirs: frozenset[int],
    settings: Settings,
) -> tuple[float, str, str]:
    """The function pair of the two sides most alike, and how alike: the fingerprints they
    share over those of the larger, weighed down while what they share is short of
    ``settings.function_size`` (a copied function is found whole on the other side; an idiom
    a few lines long written alike is not a copy)."""
    best, label_a, label_b = 0.0, "", ""
    for label, hashes in mine:
        if len(hashes & all_theirs) < _MIN_FUNCTION:
            continue
        for other, their_hashes in theirs:
            both = len(hashes & their_hashes)
            if both < _MIN_FUNCTION:
                continue
            alike = both / max(len(hashes), len(their_hashes))
            score = alike * min(1.0, both / settings.function_size)
            if score > best:
                best, label_a, label_b = score, label, other
    return best, label_a, label_b


def matched_lines(
    one: Document, other: Document, ignored: frozenset[int], settings: Settings
) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """The lines of each side its shared fingerprints cover, as (file index, line) -> region.

    A region is a run of shared fingerprints that lie close together on both sides: the same
    region number on both sides is the same matched code, however the functions were moved.
    """
    shared = (one.hashes & other.hashes) - ignored
    theirs: dict[int, list[tuple[int, int]]] = {}
    for h, number, at in other.prints:
        if h in shared:
            theirs.setdefault(h, []).append((number, at))
    reach = 2 * (settings.k + settings.w)  # tokens between two fingerprints of one region
    left: dict[tuple[int, int], int] = {}
    right: dict[tuple[int, int], int] = {}
    region, mine, their = 0, (-1, -reach - 1), (-1, -reach - 1)
    for h, number, at in sorted((p for p in one.prints if p[0] in shared), key=lambda p: p[1:]):
        places = theirs.get(h, [])
        near = [p for p in places if p[0] == their[0] and their[1] < p[1] <= their[1] + reach]
        if number != mine[0] or at - mine[1] > reach or not near:
            region += 1
        mine, their = (number, at), (near or places)[0]
        _cover(left, one.lines[number], number, at, settings.k, region)
        for their_number, their_at in places:
            _cover(right, other.lines[their_number], their_number, their_at, settings.k, region)
    for marks, side in ((left, one), (right, other)):
        for place in _given_lines(side, ignored, settings.k) & marks.keys():
            del marks[place]
    return left, right


def _given_lines(document: Document, ignored: frozenset[int], k: int) -> set[tuple[int, int]]:
    """(file index, line) of the lines each of whose tokens lies in an ignored k-gram (the
    starter's, the class's common code): a k-gram shared past the end of copied code covers
    such a line too, but it is no evidence, so it is not coloured."""
    given: set[tuple[int, int]] = set()
    for number, one in enumerate(document.files):
        codes, spans, _, _ = _symbols(one.text)
        covered = [False] * len(codes)
        for at, h in enumerate(_grams(codes, k)):
            if h in ignored:
                covered[at : at + k] = [True] * k
        whole: dict[int, bool] = {}
        for (first, last), inside in zip(spans, covered, strict=True):
            for line in range(first, last + 1):
                whole[line] = whole.get(line, True) and inside
        given.update((number, line) for line, inside in whole.items() if inside)
    return given


def _cover(
    marks: dict[tuple[int, int], int],
    spans: Sequence[tuple[int, int]],
    number: int,
    at: int,
    k: int,
    region: int,
) -> None:
    for first, last in spans[at : at + k]:
        for line in range(first, last + 1):
            marks.setdefault((number, line), region)
