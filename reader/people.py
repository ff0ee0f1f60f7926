"""A work's people (author, commentators, editors) as every page, the API and citations name
them: one rule (docs/reading.md, "Bylines"; docs/decisions/0027-one-byline-rule.md).

Who: Kanripo's catalogue (``catalogue.entry``) where it lists the work: it names each person by
his name (鄭玄, not the book's 鄭氏) with his dynasty and role, in its order (author, then
commentators); a person it writes several ways by one name (``reader.person_names``: 范甯 and
范寧 are 范寧), as his notes are named; a person it lists with no role has the role the book's byline
prints for him, and its dynasty where the catalogue gives none (南華真經註疏: the catalogue's 郭象 and
成玄英, the byline's 郭象注 and 〔唐〕成玄英䟽, the writers of its 注 and 疏). Else the byline the book prints (``Edition.byline``, read by
``reader.importers.bylines``), each person with the dynasty printed before him or before the
entry he follows. Else the work's author fields (``Work.author``, ``Work.dynasty``).

How: each person as ``〔dynasty〕name role`` with no space (``〔漢〕鄭玄注``; no 〔〕 when the
dynasty is unknown; no native place: 婺源江永撰 is ``江永撰``), the people joined by U+3000.
A citation names the same people the same way, except that an author's own 撰 or 著 is left
unsaid (``〔清〕江永《禮書綱目》``), as citations of 古籍 write it.

A section has people of its own where the book prints an author's line under a piece's title
(an anthology: 文選 兩都賦 ``班孟堅``, 離騷 ``屈平`` over ``王逸注``; ``Section.bylines``): shown
under the section's title by the same rule (``section_byline``), the line itself kept in the
stored text but read as metadata, never as text (``byline_pieces``).

An edition's people are those whose writing it holds: an edition holding no note (白文, the TLS
史記) names the catalogue's makers of the text alone (〔漢〕司馬遷撰), not the commentators the
catalogue lists for the work (its 集解, 索隱, 正義); the work with no edition named (the catalogue's
list) keeps them all, as the catalogue gives the work.

Reads the catalogue tables and the objects given: no query, but ``work.editions`` when no
edition is given and the catalogue does not give every person of the work a role, and
``Edition.unannotated`` (once per edition object) when an edition is given.
"""
from __future__ import annotations

from collections import Counter

from catalogue.catalogue import entry

from .catalogue_writers import byline_roles, dynasty_spelling, shown_dynasty, shown_people
from .commented_classic import plain_text_author
from .person_names import person_name
from .pieces import LABEL, NOTE_KINDS
from .quoted_names import SIGNED_NAMES

#: Roles a citation leaves unsaid: the author's own writing (``〔清〕江永撰`` is cited 〔清〕江永).
UNSAID_ROLES = frozenset({"撰", "著"})


def work_people(work, edition=None, *, whole_work: bool = False) -> list[dict[str, str]]:
    """``[{"dynasty", "name", "role"}, …]`` of ``work`` by the rule of the module docstring, each
    dynasty as shown (``reader.catalogue_writers.shown_people``, ``dynasty_spelling``: decision 0084):
    the catalogue's people for a work it lists (by ``work.kanripo_id``, else ``edition``'s), one
    it lists with no role taking the role (and, where it gives none, the dynasty) the byline prints
    for him (``reader.catalogue_writers.byline_roles``: 南華真經註疏's 〔晉〕郭象注　〔唐〕成玄英䟽, 郭象's 晉 the catalogue's for him elsewhere), and
    for an ``edition`` that holds no note (``Edition.unannotated``: the TLS 史記, 白文) its makers
    alone (``MAKERS_ROLES``: 〔漢〕司馬遷撰, not the 集解, 索隱 and 正義 it does not print) unless
    ``whole_work`` (a list of works, where ``edition`` only lends its byline: the work as the catalogue gives it),
    for an entry of a classic's own text that names nobody, the classic's author as the catalogue's
    entry of its commentaries names him (``reader.commented_classic.plain_text_author``: 春秋左傳(正文)
    ``[{"dynasty": "周", "name": "左丘明", "role": "撰", "source": "KR1e0004"}]``, ``source`` the
    Kanripo ID of that entry, shown by ``shown_byline``; decision 0054),
    else ``edition``'s byline (the first edition of the work with one when ``edition`` is
    None: the edition read names its own people, with no query), else ``[{"dynasty": work.dynasty, "name": work.author, "role": ""}]``; []
    when nothing names anyone. Values are "" when unknown, never None."""
    listed = entry(work.kanripo_id) or (entry(edition.kanripo_id) if edition is not None else None)
    people = listed.people if listed is not None else ()
    borrowed = plain_text_author(listed.kr_id) if listed is not None and not people else None
    if borrowed is not None:
        return [{**_catalogue_person(borrowed[0]), "source": borrowed[1].kr_id}]
    byline = None
    if not people or not all(p.role for p in people):  # a person listed with no role: the byline's
        if edition is not None:
            byline = edition.byline
        else:  # a work listed without an edition (the API's work): its first edition with a byline
            byline = next((e.byline for e in work.editions.all() if e.byline), None)
    if people:
        found = [_catalogue_person(p) for p in shown_people(byline_roles(people, byline or []))]
        if edition is not None and not whole_work and getattr(edition, "unannotated", False):  # 白文: no commentator's notes
            return [p for p in found if p["role"] in MAKERS_ROLES or not p["role"]] or found
        return found
    if byline:
        return [{"dynasty": dynasty_spelling(p.get("dynasty", "")), "name": p.get("name", ""), "role": p.get("role", "")}
                for p in byline if p.get("name")]
    if work.author:
        return [{"dynasty": dynasty_spelling(work.dynasty or ""), "name": work.author, "role": ""}]
    return []


#: What a role of the catalogue opens with when the person led others in the work (儀禮疏 賈公彥 等撰:
#: 賈公彥 and others wrote it): not his role, which is the rest (撰), but ``and_others``.
AND_OTHERS = ("等", "䓁")


def _catalogue_person(p) -> dict:
    """``{"dynasty", "name", "role"}`` of a catalogue ``Person``, with ``"and_others": True`` where
    his role opens with ``AND_OTHERS`` (the role then the rest: 等撰 → 撰, 等奉勅撰 → 奉勅撰)."""
    if p.role.startswith(AND_OTHERS) and len(p.role) > 1:
        return {"dynasty": p.dynasty, "name": person_name(p.name), "role": p.role[1:], "and_others": True}
    return {"dynasty": p.dynasty, "name": person_name(p.name), "role": p.role}


#: Roles of the people who made the book rather than commented on it: its author's (``UNSAID_ROLES``)
#: and its compiler's (文選 蕭統編, 〔梁〕蕭統編　〔唐〕李善註).
MAKERS_ROLES = UNSAID_ROLES | {"編", "輯"}


def sole_commentator(work, edition=None) -> str:
    """The name of the work's one commentator: the one person of ``work_people`` whose role is
    not a maker's (``MAKERS_ROLES``), 荀子's 楊倞 (〔周〕荀況撰　〔唐〕楊倞注), 文選's 李善; "" where the
    people name none or several (六臣註文選's six, a 注疏's 鄭玄 and 賈公彥; 楚辭補注, which the
    catalogue gives to 洪興祖 alone, 撰). The reading page names him once, in the byline above the
    text, and on none of his notes (``reader.templatetags.pieces``)."""
    others = [p["name"] for p in work_people(work, edition) if p["role"] not in MAKERS_ROLES]
    return others[0] if len(others) == 1 else ""


def work_dynasty(work) -> str:
    """The work's dynasty: the catalogue's for a work it lists (韓非子 is 周 though its byline
    names its 元 commentator; 左傳杜林合注 is 晉, of 杜預, though its byline names its 明
    editors; as shown, ``reader.catalogue_writers.shown_dynasty``: 後漢書 南朝宋, 世說新語 南朝宋 where the
    catalogue writes 宋 and 劉宋, decision 0084), for a classic's own text it lists with nobody its author's by the catalogue's entry
    of its commentaries (``plain_text_author``: 春秋左傳(正文) 周, of 左丘明), else ``Work.dynasty``
    (from the text's byline); "" when unknown."""
    listed = entry(work.kanripo_id)
    borrowed = plain_text_author(listed.kr_id) if listed is not None else None
    return (shown_dynasty(listed) if listed else "") or (borrowed[0].dynasty if borrowed else "") \
        or dynasty_spelling(work.dynasty or "")


def person_text(person: dict[str, str], *, cited: bool = False) -> str:
    """One person as shown: ``〔漢〕鄭玄注``, one who led others ``〔唐〕賈公彥等撰`` (``and_others``);
    with ``cited`` an ``UNSAID_ROLES`` role is left out (``〔唐〕賈公彥等``)."""
    dynasty = f"〔{person['dynasty']}〕" if person.get("dynasty") else ""
    role = person.get("role", "")
    if cited and role in UNSAID_ROLES:
        role = ""
    return f"{dynasty}{person['name']}{'等' if person.get('and_others') else ''}{role}"


def people_text(people: list[dict[str, str]], *, cited: bool = False) -> str:
    """The people joined by U+3000 (``〔漢〕鄭玄注　〔唐〕賈公彥疏``); "" for none."""
    return "\u3000".join(person_text(p, cited=cited) for p in people)


def work_byline(work, edition=None, *, whole_work: bool = False) -> str:
    """The byline every page and the API show for ``work`` (``edition``'s page):
    ``people_text(work_people(work, edition, whole_work=whole_work))``."""
    return people_text(work_people(work, edition, whole_work=whole_work))


#: What a page shows as the byline of a work nobody names: Kanripo's catalogue lists nobody for it (the
#: classics' own texts, its entries ``周禮(正文)``, ``周易(正文)``, ``春秋左傳(正文)``: no 人物, no dynasty), the
#: book prints no byline (the tls editions print none) and the work has no author: the author is not known,
#: as the search's author facet says of such text (未詳), where the place was left empty.
NOBODY_NAMED = "撰人未詳"


#: How a page says where the catalogue names a person it lists under another entry (``work_people``'s
#: ``source``): 春秋左傳(正文)'s ``〔周〕左丘明撰（據目錄《春秋左傳注疏》條）``.
SOURCE_SHOWN = "（據目錄《{}》條）"


def shown_byline(work, edition=None, *, whole_work: bool = False) -> str:
    """The byline a page shows for ``work`` (``edition``'s page): ``work_byline``, with the catalogue's
    entry a person was taken from where it is another's (``source``, ``SOURCE_SHOWN``: 春秋左傳 KR1e0001
    ``〔周〕左丘明撰（據目錄《春秋左傳注疏》條）``), or ``NOBODY_NAMED`` where it names nobody (周禮 KR1d0001 on
    ``/classes/KR1d/``). The API's ``author`` and citations keep ``work_byline`` (""), naming nobody rather
    than a phrase; the API's ``people`` give the ``source``."""
    people = work_people(work, edition, whole_work=whole_work)
    sources = dict.fromkeys(p["source"] for p in people if p.get("source"))
    listed = [entry(s) for s in sources]
    return people_text(people) + "".join(SOURCE_SHOWN.format(e.title) for e in listed if e) or NOBODY_NAMED


def cited_people(work, edition=None) -> str:
    """Who a citation names before the title: ``work_byline`` with an author's own 撰/著
    unsaid (``〔漢〕鄭玄注　〔唐〕賈公彥疏　〔唐〕陸德明音義``, ``〔清〕江永``)."""
    return people_text(work_people(work, edition), cited=True)


def works_told_apart(works) -> dict[int, str]:
    """``{work id: words}`` telling apart works of one title (two 周禮), as a menu and a hit put
    them after the title (``周禮（四部叢刊本）``). Each kind of words is tried in turn: the first
    person (``person_text`` as cited, ``〔漢〕鄭玄注``), all the people (``cited_people``), the
    dynasty (``work_dynasty``, ``宋``), the name of the work's one edition (``Edition.name``,
    ``四部叢刊本``; none for a work of several editions, whose hits name their edition anyway).
    The first kind that every work has and no two share names them all, so that the works are
    named alike and a reader compares like with like: the 周禮 of the TLS 白文 (nobody named, no
    dynasty) and the 四部叢刊 周禮 with 鄭玄's notes are ``TLS標點本`` and ``四部叢刊本``, not a
    Kanripo ID beside 〔漢〕鄭玄注. Where no kind does, each work takes the first kind that is its
    own, else its slug (its Kanripo ID, ``KR1d0001``): the words the catalogue and the books give,
    an ID only when nothing else tells the work apart. Reads ``work.editions`` (prefetch it)."""
    works = list(works)
    if len(works) < 2:
        return {w.pk: "" for w in works}
    kinds = []
    for w in works:
        people = work_people(w)
        editions = list(w.editions.all())
        kinds.append((person_text(people[0], cited=True) if people else "", people_text(people, cited=True),
                      work_dynasty(w), editions[0].name if len(editions) == 1 else ""))
    for kind in range(len(kinds[0])):  # one kind for all, where one tells each from every other
        values = [k[kind] for k in kinds]
        if all(values) and len(set(values)) == len(values):
            return {w.pk: value for w, value in zip(works, values)}
    names: dict[int, str] = {}
    for kind in range(len(kinds[0])):
        shared = Counter(k[kind] for k in kinds)
        for w, k in zip(works, kinds):
            if w.pk not in names and k[kind] and shared[k[kind]] == 1:
                names[w.pk] = k[kind]
    return {w.pk: names.get(w.pk) or w.slug for w in works}


def section_people(section) -> list[dict[str, str]]:
    """``[{"dynasty", "name", "role"}, …]`` of a section's own byline (``Section.bylines``, or a
    parsed ``SectionDoc``'s), in the book's order; [] when it has none. Values are "", never None. A
    commentary whose maker the book does not know names nobody: its name "", its role the words printed
    (文選 卷十五 思玄賦 ``張平子`` / ``舊注``: ``{"dynasty": "", "name": "", "role": "舊注"}``, shown 舊注)."""
    return [{"dynasty": p.get("dynasty", ""), "name": p.get("name", ""), "role": p.get("role", "")}
            for p in getattr(section, "bylines", None) or () if p.get("name") or p.get("role")]


def section_byline(section, *, cited: bool = False) -> str:
    """A section's own byline as shown under its title: ``people_text(section_people(section))``
    (``屈平　王逸注``; the book prints no dynasty there); "" when it has none."""
    return people_text(section_people(section), cited=cited)


def byline_pieces(section, pieces) -> frozenset[int]:
    """The positions of the pieces (stored ``Piece`` rows with ``position``, ``kind`` and
    ``text``, or parsed ``PieceDoc``s, whose position is their index in ``pieces``) that print the section's byline (``Section.bylines``):
    a label that is a person's name (``屈平``, ``班孟堅``) or his name and role (a commentator's
    line, ``王逸注``; spaced out, ``劉　勰``; by the courtesy name the book signs him by, 班孟堅 for 班固,
    ``reader.quoted_names.SIGNED_NAMES``), and the note right after such a label that names his commentator
    (``屈平(王逸注)``: the note ``王逸注``). A note on the author (``班孟堅(范曄後漢書曰…)``) is the
    commentator's and not part of the byline. Empty when the section has no byline."""
    people = section_people(section)
    if not people:
        return frozenset()
    named = {p["name"] + p["role"] for p in people if p["role"]}
    names = {p["name"] for p in people if p["name"]} | named
    names |= {signed for signed, man in SIGNED_NAMES.items() if man in names}  # 班孟堅 for 班固
    out: set[int] = set()
    after_name = False
    for index, p in enumerate(pieces):
        text = p.text.replace("/", "").replace("\u3000", "")  # 劉　勰, spaced out, is 劉勰
        if p.kind == LABEL and text in names:
            out.add(getattr(p, "position", index))
            after_name = True
        elif after_name and p.kind in NOTE_KINDS and text in named:
            out.add(getattr(p, "position", index))
        else:
            after_name = False
    return frozenset(out)
