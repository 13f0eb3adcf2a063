"""Who a submission belongs to: candidates grouped into students, the newest kept. Pure.

A row is keyed by a stable id, never by text a student typed: the Canvas user id (or anonymous
id) in Canvas's download name; for a file without one, the roster's login its netid names, else
that netid (``hw8_<netid>.zip``, the course's naming rule), else the file's or folder's name
exactly as handed in, Unicode kept. The name a row is shown by is the roster's login for a
Canvas user it knows, else the id. A netid a Canvas user typed in a file name is a claim: it
never names their row, it is said in their notes and, once for the class, in the warnings;
one that names another student is warned of on its own. Two ids never share a row, and two
rows never share a name (:func:`_apart`).
"""

from __future__ import annotations

import collections
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from autograder.classroom.canvas_names import Candidate, newest
from autograder.classroom.records import Entry
from autograder.play.untrusted import admit

__all__ = ["identify", "resolve", "gated_id", "Students", "CLAIMS_SHOWN"]

CLAIMS_SHOWN = 10  # claims listed by name in the class's warning line


@dataclass(frozen=True)
class Students:
    """One entry per student (with the candidate graded and the files handed in with it), and
    one sentence per identity the file names claimed and the grader did not follow."""

    found: list[tuple[Entry, Candidate, list[Candidate]]]
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Ids:
    """What identify learns as it goes: each group's id and shown name, notes, warnings."""

    groups: dict[str, list[Candidate]] = field(default_factory=dict)  # id -> candidates
    shown: dict[str, str] = field(default_factory=dict)  # id -> the name the row is shown by
    notes: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)  # "10006 claims ppatel", one per user


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
    roster = {user: login.casefold().split("@")[0] for user, login in (logins or {}).items()}
    ids = _Ids()
    ownerless: list[Candidate] = []
    for one in found:
        if one.owner:
            ids.groups.setdefault(one.owner, []).append(one)
        else:
            ownerless.append(one)
    claimed: dict[str, list[str]] = {}  # netid -> the Canvas users whose newest file claims it
    for owner, group in ids.groups.items():
        typed = _typed(group)
        if typed is not None:
            claimed.setdefault(str(typed.netid), []).append(owner)
    for owner, group in list(ids.groups.items()):
        ids.shown[owner] = roster.get(owner) or owner
        _claim(owner, group, roster, claimed, ids)
    for one in ownerless:
        _place_ownerless(one, roster, claimed, ids)
    if ids.claims:
        ids.warnings.append(_claims_line(ids.claims, bool(roster)))
    shown = _apart({key: admit(name, "file") for key, name in ids.shown.items()})
    entries = [
        _entry(student, shown[student], group, ids.notes.get(student, []), main)
        for student, group in sorted(ids.groups.items(), key=lambda item: shown[item[0]])
    ]
    return Students(entries, [admit(warning, "sentence") for warning in ids.warnings])


def _typed(group: list[Candidate]) -> Candidate | None:
    """The newest file of a Canvas user whose name claims a netid, if any."""
    named = sorted((c for c in group if c.netid), key=newest)
    return named[-1] if named else None


def _claim(
    owner: str,
    group: list[Candidate],
    roster: Mapping[str, str],
    claimed: Mapping[str, list[str]],
    ids: _Ids,
) -> None:
    """Say what the netid a Canvas user typed claims, since it names no row: a mismatch with
    the roster, a claim on another student, or (without a roster) a plain claim."""
    who, typed = _describe(group[0]), _typed(group)
    netids = sorted({str(c.netid) for c in group if c.netid})
    if len(netids) > 1 and typed is not None:
        ids.notes.setdefault(owner, []).append(
            f"{who} submitted as netids {', '.join(netids)}; the newest names {typed.netid}"
        )
    if typed is None:
        return
    netid, given = str(typed.netid), admit(typed.given, "file")
    if owner in roster:
        if netid != roster[owner]:
            warning = (
                f"{who} handed in {given}, which names {netid}; the roster's login for "
                f"{owner} is {roster[owner]}: graded as {roster[owner]}"
            )
            ids.notes.setdefault(owner, []).append(warning)
            ids.warnings.append(warning)
        return
    other = _someone_else(netid, owner, ids.groups, claimed, roster)
    if other is not None:
        warning = f"{who} handed in {given}, naming another student ({other}); graded as {owner}"
        ids.notes.setdefault(owner, []).append(warning)
        ids.warnings.append(warning)
        return
    ids.notes.setdefault(owner, []).append(
        f"{who} handed in {given}, which claims netid {netid}: a name typed in a file proves "
        f"nothing, so the row is Canvas user {owner}'s"
    )
    ids.claims.append(f"{owner} claims {netid}")


def _claims_line(claims: list[str], roster: bool) -> str:
    listed = ", ".join(claims[:CLAIMS_SHOWN])
    more = f" and {len(claims) - CLAIMS_SHOWN} more" if len(claims) > CLAIMS_SHOWN else ""
    named = (
        "the roster's login for its Canvas user id (the id itself where the roster has none)"
        if roster
        else "its Canvas user id: give --roster (the Canvas gradebook export) to name the rows "
        "by login"
    )
    claim = "file name claims" if len(claims) == 1 else "file names claim"
    return (
        f"{len(claims)} {claim} a netid ({listed}{more}); a name typed in a file proves "
        f"nothing, so each row is named by {named}"
    )


def _place_ownerless(
    one: Candidate, roster: Mapping[str, str], claimed: Mapping[str, list[str]], ids: _Ids
) -> None:
    """A file with no Canvas id added to its student: the Canvas user the roster gives its
    netid to, else its netid's, else its name's; on its own (and noted) when that id is a
    Canvas user's."""
    logins = {login: user for user, login in roster.items()}
    user = logins.get(one.netid) if one.netid else None
    if user is not None and user in ids.groups and ids.groups[user][0].owner:
        ids.groups[user].append(one)  # the roster, not the file, says whose netid it is
        return
    student = one.netid or one.fallback
    user = _user_named(student, ids.groups)
    if user is not None:
        apart = _free(f"{student}-no-canvas-id", ids.groups)
        ids.notes.setdefault(apart, []).append(
            f"{admit(one.shown, 'file')} carries no Canvas id and its name reads as Canvas user "
            f"{user}'s; graded on its own as {apart}"
        )
        student = apart
    elif one.netid and len(claimed.get(one.netid, [])) > 0:
        ids.notes.setdefault(student, []).append(
            f"{admit(one.shown, 'file')} carries no Canvas id and Canvas users "
            f"{', '.join(claimed[one.netid])} typed netid {one.netid} too; graded on its own"
        )
    ids.groups.setdefault(student, []).append(one)
    ids.shown.setdefault(student, student)


def _user_named(name: str, groups: Mapping[str, list[Candidate]]) -> str | None:
    """The Canvas user whose id ``name`` is, or whose row it would read as (``10001
    (badgerbucky)``, as reports show a user with a name): a file with no Canvas id never
    passes for one."""
    user = name.split(" (", 1)[0] if name.endswith(")") else name
    return user if user in groups and groups[user][0].owner else None


def _someone_else(
    netid: str,
    owner: str,
    groups: Mapping[str, list[Candidate]],
    claimed: Mapping[str, list[str]],
    roster: Mapping[str, str],
) -> str | None:
    """Who else ``netid`` names, when it is not only ``owner``'s: another Canvas user's id,
    another user's netid (typed by them too, or theirs on the roster)."""
    users = {user.casefold(): user for user in [*groups, *roster]}
    user = users.get(netid.casefold())
    if user is not None and user != owner:
        return f"Canvas user {user}"
    listed = next((u for u, login in roster.items() if login == netid), None)
    if listed is not None and listed != owner:
        return f"the roster's {netid}, Canvas user {listed}"
    others = sorted(o for o in claimed.get(netid, []) if o != owner)
    if others:
        return f"netid {netid}, also handed in by Canvas user {', '.join(others)}"
    return None


def _apart(shown: Mapping[str, str]) -> dict[str, str]:
    """Each id's shown name, no two alike: where names meet (two Canvas users with one login
    on the roster, a login that is another's id), each of them is shown by its id instead,
    until none meet (the ids are distinct, so this ends); ids alike once escaped by the text
    gate are told apart by a digest."""
    names = dict(shown)
    while True:
        count = collections.Counter(names.values())
        clash = [key for key, name in names.items() if count[name] > 1 and name != _own(key)]
        if not clash:
            break
        for key in clash:
            names[key] = _own(key)
    count = collections.Counter(names.values())
    return {
        key: f"{name} #{hashlib.sha256(key.encode()).hexdigest()[:6]}" if count[name] > 1 else name
        for key, name in names.items()
    }


def gated_id(key: str) -> str:
    """``key`` as records and reports may hold it: through the text gate, with a digest of the
    raw id added when the gate changed it, so that two ids stay two."""
    shown = admit(key, "file")
    if shown == key:
        return key
    return f"{shown} #{hashlib.sha256(key.encode()).hexdigest()[:6]}"


def _own(key: str) -> str:
    return admit(key, "file")


def _free(name: str, taken: Mapping[str, object]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}-{number}", number + 1
    return candidate


def _gradable(candidate: Candidate, main: str) -> bool:
    """A file the homework can be graded from: its main file, a zip, or a student's folder."""
    return candidate.folder or candidate.given in (main,) or candidate.given.endswith(".zip")


def _entry(
    student: str, shown: str, group: list[Candidate], notes: list[str], main: str
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
        notes = [_superseded(kept, superseded), *notes]
    if attached:
        names = ", ".join(c.given for c in attached)
        notes = [f"handed in with {kept.given}: {names}", *notes]
    entry = Entry(
        student=shown,
        path=kept.path,
        late=kept.late,
        canvas_id=kept.user or next((c.user for c in ordered if c.user), None),
        name=_name(kept.name or next((c.name for c in ordered if c.name), None)),
        note=admit("; ".join(notes), "sentence"),
        source=admit(kept.path.name, "file"),
        attached=tuple(admit(c.given, "file") for c in attached),
        id=gated_id(student),
    )
    return entry, kept, attached


def _superseded(kept: Candidate, superseded: list[Candidate]) -> str:
    if kept.file_id is not None:
        why = f" (file id {kept.file_id})"
    elif kept.copy:
        why = f" (resubmission {kept.copy})"
    else:
        why = " (the latest modified)"
    others = ", ".join(_label(c) for c in reversed(superseded))
    return (
        f"{len(superseded) + 1} submissions found; graded the newest, {kept.shown}{why}; "
        f"not graded: {others}"
    )


def _name(name: str | None) -> str | None:
    return None if name is None else admit(name, "file")


def _label(candidate: Candidate) -> str:
    if candidate.file_id is not None:
        return f"{candidate.shown} (file id {candidate.file_id})"
    return candidate.shown


def _describe(candidate: Candidate) -> str:
    if candidate.user:
        return f"Canvas user {candidate.user}"
    return f"anonymous Canvas user {candidate.anon}"
