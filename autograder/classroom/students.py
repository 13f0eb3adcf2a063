"""Who a submission belongs to: candidates grouped into students, the newest kept. Pure.

A Canvas user is one person: all their files go under the netid of the newest file that names
one; two users naming the same netid are two people, kept apart. A file with no Canvas id is
its netid's, or known by its own name.
"""

from __future__ import annotations

from collections.abc import Sequence

from autograder.classroom.canvas_names import Candidate, newest, safe
from autograder.classroom.records import Entry

__all__ = ["resolve"]


def resolve(
    found: Sequence[Candidate], main: str = "game.py"
) -> list[tuple[Entry, Candidate, list[Candidate]]]:
    """One entry per student, with the candidate graded and the files handed in with it:
    candidates grouped by who they are; of the files named ``main`` (or zips) the newest is
    graded, the other files of the attempt come with it (a helper module, notes). Pure: the
    entries' paths are the candidates' own (collect places them)."""
    by_owner: dict[str, list[Candidate]] = {}
    ownerless: list[Candidate] = []
    for one in found:
        if one.owner:
            by_owner.setdefault(one.owner, []).append(one)
        else:
            ownerless.append(one)
    # A Canvas user is one person: all their files go under the netid of the newest file
    # that names one. Two users naming the same netid are two people, kept apart.
    owner_netid: dict[str, str] = {}
    claims: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}
    for owner, group in by_owner.items():
        named = sorted((c for c in group if c.netid), key=newest)
        if named:
            netid = owner_netid[owner] = str(named[-1].netid)
            claims.setdefault(netid, []).append(owner)
    students: dict[str, list[Candidate]] = {}
    for owner, group in by_owner.items():
        chosen = owner_netid.get(owner)
        who = _describe(group[0])
        if chosen is None:
            student = safe(owner)
        elif len(claims[chosen]) > 1:
            student = f"{chosen}-{safe(owner)}"
            owners = ", ".join(sorted(claims[chosen]))
            notes.setdefault(student, []).append(
                f"netid {chosen} was submitted by {len(claims[chosen])} Canvas users "
                f"({owners}); {who} is graded apart as {student}"
            )
        else:
            student = chosen
        netids = sorted({str(c.netid) for c in group if c.netid})
        if len(netids) > 1:
            notes.setdefault(student, []).append(
                f"{who} submitted as netids {', '.join(netids)}; identified as {chosen}, the newest"
            )
        students.setdefault(student, []).extend(group)
    for one in ownerless:
        student = one.netid or one.fallback
        if one.netid and len(claims.get(one.netid, [])) > 1:
            notes.setdefault(student, []).append(
                f"{one.shown} carries no Canvas id and several Canvas users submitted as "
                f"netid {one.netid}; graded on its own"
            )
        students.setdefault(student, []).append(one)
    return [
        _entry(student, group, notes.get(student, []), main)
        for student, group in sorted(students.items())
    ]


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
        name=kept.name or next((c.name for c in ordered if c.name), None),
        note="; ".join(notes),
        source=kept.path.name,
        attached=tuple(c.given for c in attached),
    )
    return entry, kept, attached


def _label(candidate: Candidate) -> str:
    if candidate.file_id is not None:
        return f"{candidate.shown} (file id {candidate.file_id})"
    return candidate.shown


def _describe(candidate: Candidate) -> str:
    if candidate.user:
        return f"Canvas user {candidate.user}"
    return f"anonymous Canvas user {candidate.anon}"
