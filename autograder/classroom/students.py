"""Who a submission belongs to: candidates grouped into students, the newest kept. Pure.

Identity comes from Canvas's ids, never from text a student typed. A Canvas user (the user id,
or the anonymous id, in Canvas's download name) is one student; a netid in the student's own
file name (``hw8_<netid>.zip``) is only an alias of that same user, followed when nobody else
has it. Two Canvas users are never merged: a netid equal to another student's user id or
netid is not followed, the user is graded under their own id, and a warning says so. With a
roster, the roster's login for a Canvas id decides. A file with no Canvas id is its netid's
(joining the one Canvas user known by that netid), or known by its own name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from autograder.classroom.canvas_names import Candidate, newest, safe
from autograder.classroom.records import Entry
from autograder.play.untrusted import admit

__all__ = ["identify", "resolve", "Students"]


@dataclass(frozen=True)
class Students:
    """One entry per student (with the candidate graded and the files handed in with it), and
    one sentence per identity the file names claimed and the grader did not follow."""

    found: list[tuple[Entry, Candidate, list[Candidate]]]
    warnings: list[str] = field(default_factory=list)


def resolve(
    found: Sequence[Candidate], main: str = "game.py"
) -> list[tuple[Entry, Candidate, list[Candidate]]]:
    """The entries of :func:`identify`, without a roster; its warnings are in the notes."""
    return identify(found, main).found


def identify(
    found: Sequence[Candidate], main: str = "game.py", logins: Mapping[str, str] | None = None
) -> Students:
    """One entry per student, with the candidate graded and the files handed in with it:
    candidates grouped by who they are; of the files named ``main`` (or zips) the newest is
    graded, the other files of the attempt come with it (a helper module, notes). ``logins``
    (a roster's Canvas id -> login) names the Canvas users it knows. Pure: the entries' paths
    are the candidates' own (collect places them)."""
    by_owner: dict[str, list[Candidate]] = {}
    ownerless: list[Candidate] = []
    for one in found:
        if one.owner:
            by_owner.setdefault(one.owner, []).append(one)
        else:
            ownerless.append(one)
    roster = {user: safe(login.casefold().split("@")[0]) for user, login in (logins or {}).items()}
    # The alias a Canvas user typed: the netid of their newest file that names one.
    alias: dict[str, Candidate] = {}
    claims: dict[str, list[str]] = {}
    for owner, group in by_owner.items():
        named = sorted((c for c in group if c.netid), key=newest)
        if named:
            alias[owner] = named[-1]
            claims.setdefault(str(named[-1].netid), []).append(owner)
    notes: dict[str, list[str]] = {}
    warnings: list[str] = []
    key = _apart(_keys(by_owner, roster, alias, claims, notes, warnings))
    students: dict[str, list[Candidate]] = {}
    for owner, group in by_owner.items():
        netids = sorted({str(c.netid) for c in group if c.netid})
        if len(netids) > 1:
            notes.setdefault(owner, []).append(
                f"{_describe(group[0])} submitted as netids {', '.join(netids)}; the newest "
                f"names {alias[owner].netid}"
            )
        students[key[owner]] = list(group)
    owned_notes = {key[owner]: lines for owner, lines in notes.items()}
    _place_ownerless(ownerless, key, claims, students, owned_notes)
    entries = [
        _entry(student, group, owned_notes.get(student, []), main)
        for student, group in sorted(students.items())
    ]
    return Students(entries, [admit(warning, "sentence") for warning in warnings])


def _keys(
    by_owner: Mapping[str, list[Candidate]],
    roster: Mapping[str, str],
    alias: Mapping[str, Candidate],
    claims: Mapping[str, list[str]],
    notes: dict[str, list[str]],
    warnings: list[str],
) -> dict[str, str]:
    """Each Canvas user's student id: the roster's login, else the netid they typed when no
    one else has it, else their own id; each claim not followed noted and warned of."""
    roster_owner = {login: user for user, login in roster.items()}
    ids = {owner.casefold(): owner for owner in [*by_owner, *roster]}
    key: dict[str, str] = {}
    for owner, group in by_owner.items():
        who, typed = _describe(group[0]), alias.get(owner)
        netid = str(typed.netid) if typed else None
        if owner in roster:
            key[owner] = roster[owner]
            if typed is not None and netid != roster[owner]:
                warning = (
                    f"{who} handed in {admit(typed.given, 'file')}, which names {netid}; the "
                    "roster's login "
                    f"for {owner} is {roster[owner]}: graded as {roster[owner]}"
                )
                notes.setdefault(owner, []).append(warning)
                warnings.append(warning)
            continue
        if netid is None:
            key[owner] = safe(owner)
            continue
        other = _someone_else(netid, owner, ids, claims, roster_owner)
        if other is None:
            key[owner] = netid
            continue
        key[owner] = safe(owner)
        given = admit(typed.given if typed else netid, "file")
        warning = (
            f"{who} handed in {given}, naming another student ({other}); graded as {key[owner]}"
        )
        notes.setdefault(owner, []).append(warning)
        warnings.append(warning)
    return key


def _place_ownerless(
    ownerless: Sequence[Candidate],
    key: Mapping[str, str],
    claims: Mapping[str, list[str]],
    students: dict[str, list[Candidate]],
    owned_notes: dict[str, list[str]],
) -> None:
    """The files with no Canvas id added to ``students``: each to its netid's student, or on
    its own (and noted) when its name is a Canvas user's id or several users claim it."""
    by_key = {student: owner for owner, student in key.items()}
    for one in ownerless:
        student = one.netid or one.fallback
        holder = by_key.get(student)
        # A file with no Canvas id joins a Canvas user only by the netid that user is known by
        # (their alias, or the roster's login), never by a user id or a bare file name.
        joins = holder is not None and one.netid is not None and student != safe(holder)
        if holder is not None and not joins:
            apart = _free(f"{one.fallback}-no-canvas-id", students)
            owned_notes.setdefault(apart, []).append(
                f"{one.shown} carries no Canvas id and its name is Canvas user {holder}'s "
                f"student id; graded on its own as {apart}"
            )
            student = apart
        elif one.netid and len(claims.get(one.netid, [])) > 1:
            owned_notes.setdefault(student, []).append(
                f"{one.shown} carries no Canvas id and several Canvas users submitted as "
                f"netid {one.netid}; graded on its own"
            )
        students.setdefault(student, []).append(one)


def _someone_else(
    netid: str,
    owner: str,
    ids: Mapping[str, str],
    claims: Mapping[str, list[str]],
    roster_owner: Mapping[str, str],
) -> str | None:
    """Who else ``netid`` names, when it is not only ``owner``'s: another Canvas user's id,
    another user's netid (typed by them too, or theirs on the roster)."""
    user = ids.get(netid.casefold())
    if user is not None and user != owner:
        return f"Canvas user {user}"
    listed = roster_owner.get(netid)
    if listed is not None and listed != owner:
        return f"the roster's {netid}, Canvas user {listed}"
    others = sorted(o for o in claims.get(netid, []) if o != owner)
    if others:
        return f"netid {netid}, also handed in by Canvas user {', '.join(others)}"
    return None


def _apart(key: dict[str, str]) -> dict[str, str]:
    """Student ids with no two Canvas users on one: a shared one falls back to the user ids."""
    count: dict[str, int] = {}
    for student in key.values():
        count[student] = count.get(student, 0) + 1
    return {owner: safe(owner) if count[s] > 1 else s for owner, s in key.items()}


def _free(name: str, taken: Mapping[str, object]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}-{number}", number + 1
    return candidate


def _gradable(candidate: Candidate, main: str) -> bool:
    """A file the homework can be graded from: its main file, a zip, or a student's folder."""
    return candidate.folder or candidate.given in (main,) or candidate.given.endswith(".zip")


def _entry(
    student: str, group: list[Candidate], notes: list[str], main: str
) -> tuple[Entry, Candidate, list[Candidate]]:
    """The student's entry: the newest gradable file, and the newest copy of each other file
    name of the same attempt, handed in with it (Canvas keeps one attempt: all its files)."""
    ordered = sorted(group, key=newest)
    gradable = [c for c in ordered if _gradable(c, main)] or ordered
    kept = gradable[-1]
    latest: dict[str, Candidate] = {}
    for candidate in ordered:  # the same Canvas user's other files: its attempt's attachments
        if (
            kept.owner is not None
            and candidate.owner == kept.owner
            and candidate.given != kept.given
            and not _gradable(candidate, main)
        ):
            latest[candidate.given] = candidate
    attached = sorted(latest.values(), key=lambda c: c.given)
    superseded = [  # the older files it could be graded from (older copies of attachments go)
        c for c in ordered if c is not kept and c not in attached and c in gradable
    ]
    if superseded:
        if kept.file_id is not None:
            why = f" (file id {kept.file_id})"
        elif kept.copy:
            why = f" (resubmission {kept.copy})"
        else:
            why = " (the latest modified)"
        others = ", ".join(_label(c) for c in reversed(superseded))
        notes = [
            f"{len(superseded) + 1} submissions found; graded the newest, {kept.shown}{why}; "
            f"not graded: {others}",
            *notes,
        ]
    if attached:
        names = ", ".join(c.given for c in attached)
        notes = [f"handed in with {kept.given}: {names}", *notes]
    entry = Entry(
        student=student,
        path=kept.path,
        late=kept.late,
        canvas_id=kept.user or next((c.user for c in ordered if c.user), None),
        name=_name(kept.name or next((c.name for c in ordered if c.name), None)),
        note=admit("; ".join(notes), "sentence"),
        source=admit(kept.path.name, "file"),
        attached=tuple(admit(c.given, "file") for c in attached),
    )
    return entry, kept, attached


def _name(name: str | None) -> str | None:
    return None if name is None else admit(name, "name")


def _label(candidate: Candidate) -> str:
    if candidate.file_id is not None:
        return f"{candidate.shown} (file id {candidate.file_id})"
    return candidate.shown


def _describe(candidate: Candidate) -> str:
    if candidate.user:
        return f"Canvas user {candidate.user}"
    return f"anonymous Canvas user {candidate.anon}"
