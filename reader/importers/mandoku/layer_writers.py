"""Who wrote each layer of a 注疏 or 單疏本 edition: the commentator of its 注 (傳, 箋), of its
疏 and of its 音義, from the layer the layer step read and the people of the book.

Runs at the end of ``commentators.assign_commentators`` on a juan the layer step read as a 注疏
or 單疏本 edition (``JuanDocument.layer_form``) and sets ``PieceDoc.commentator`` of every
piece of the commentary, readings or sub-commentary layer that names nobody yet. Pure: the
catalogue is shipped data; no ORM, no I/O.

How these books are made (``../shared/corpus/SOURCES.md``, "kanripo-jingbu/"): a 注疏 edition
prints the classic, then one commentary led by its marker word (注, 註, 傳, 箋: ``layers``
names the layer after the commentator's surname where the juan's byline names him, 鄭注, 杜注,
王注 and 韓注 in 周易註疏), 陸德明's readings (音義) and the 疏; a 單疏本 (尚書正義, 儀禮疏) prints
the 疏 alone. Each layer has one writer, whom the book names twice: the juan's byline (``魏王弼注
唐陸德明音義　孔穎逹疏``, ``晉韓伯注`` over 繫辭) and Kanripo's catalogue of the work
(``catalogue/data/works.tsv``: 周易註疏 王弼 注, 韓康伯 注, 陸德明 音義, 孔穎達 疏). The writer of a
layer is the person of a role of that layer (``ROLES``):

* the juan's byline first, for it names the writer of this juan (周易註疏 names 王弼 over 上經 and
  韓康伯 over 繫辭, both 注 in the catalogue; 周易略例's 注 is 郉璹's, whom the catalogue does
  not list); where the layer's name carries a surname (鄭注), the person of that surname;
* written as the catalogue writes him, the person of the catalogue of that role and surname
  (the byline's 鄭氏 is 鄭玄, 韓伯 韓康伯, 陸徳眀 陸德明, 賈公彦 賈公彥), so that
  ``commentator=鄭玄`` finds his 注 in a 注疏 edition as in a 四部叢刊 one (``appended``, whose
  notes are named from the catalogue too); the byline's name as printed where the catalogue
  lists nobody of that surname;
* without a byline (or with one whose entries run together into a "name" longer than a
  person's, ``bylines.NAME_MAX``), the catalogue's one person of that role (and surname);
  nobody where it lists several and nothing tells them apart (周易註疏's front matter: 王弼 or
  韓康伯);
* in a 單疏本 the 疏 is the book's own text: its author writes it (尚書正義 孔穎達 等奉勅撰,
  儀禮疏 賈公彥 等撰), the byline's first person, else the catalogue's.

The editors' 考證 and the 提要 are the editors' (no commentator), and so is small print of no layer.
"""
from __future__ import annotations

from characters.folding import fold

from ..bylines import NAME_MAX
from ..document import COMMENTARY, LABEL, READINGS, SUBCOMMENTARY, JuanDocument
from .appended import catalogue_people

#: The role of one who wrote both the readings and the 疏 (孟子注疏 ``宋孫奭音義并疏``, 卷七 ``音義并䟽``).
BOTH = ("音義幷疏", "音義并疏", "音義幷䟽", "音義并䟽")
#: The roles that name the writer of each layer's marker word, as bylines and the catalogue
#: write them: a 注 (註) is written by a 注, 集解 (何晏, 范甯), 解詁 or 學 (何休), 御注 (唐玄宗);
#: a 傳 by a 傳 (孔安國, 毛亨); a 箋 by a 箋 (鄭玄).
ROLES = {
    "注": ("注", "註", "集解", "集注", "解詁", "學", "御注", "章句", "箋注"),
    "傳": ("傳",),
    "箋": ("箋",),
    READINGS: ("音義", "釋文", *BOTH),
    SUBCOMMENTARY: ("疏", "䟽", "義疏", "正義", *BOTH),
}
#: A commentary layer's marker word, from the last character of its name (鄭注, 孔傳, 鄭箋, 御注, 註).
MARKERS = {"注": "注", "註": "注", "傳": "傳", "𫝊": "傳", "箋": "箋"}
#: The forms ``edition_forms.detect_form`` gives a juan.
ZHUSHU, DANSHU = "zhushu", "danshu"


def layer_roles(layer: str, layer_name: str) -> tuple[str, str, tuple[str, ...]] | None:
    """``(surname, marker, roles)`` of a layer: ``("commentary", "鄭注")`` → ``("鄭", "注",
    ROLES["注"])``, ``("commentary", "御注")`` → ``("", "注", …)``, ``("readings", "音義")`` →
    ``("", "readings", ROLES[READINGS])``; None for a layer no role writes (a commentary
    whose name ends in no marker word, the editors' layers)."""
    if layer in (READINGS, SUBCOMMENTARY):
        return "", layer, ROLES[layer]
    if layer != COMMENTARY or not layer_name or layer_name[-1] not in MARKERS:
        return None
    marker = MARKERS[layer_name[-1]]
    surname = layer_name[:-1] if len(layer_name) == 2 and layer_name != "御注" else ""
    return surname, marker, ROLES[marker]


def same_person(printed: tuple[str, str], listed: tuple[str, str]) -> bool:
    """Whether a byline's ``(name, role)`` and a catalogue's are one person: the same surname
    (鄭氏 and 鄭玄, 韓伯 and 韓康伯, 陸徳眀 and 陸德明; compared folded, ``characters.folding``), the
    same given name (郉昺 and 邢昺: the 四庫 prints 郉 for the surname 邢), or both an emperor's
    御注, which names him by his title, not his name (唐明皇 and 玄宗)."""
    (a, ra), (b, rb) = printed, listed
    if not a or not b:
        return False
    return (fold(a[0]) == fold(b[0]) or (len(a) > 1 and fold(a[1:]) == fold(b[1:]))
            or ra == rb == "御注")


def layer_writer(layer: str, layer_name: str, bylines: list[dict[str, str]],
                 people: list[tuple[str, str]], danshu: bool = False) -> str:
    """The writer of ``layer`` (named ``layer_name`` by the layer step) in a juan whose byline
    names ``bylines`` (``JuanDocument.bylines``: dicts with ``name`` and ``role``) and whose
    work the catalogue lists with ``people`` (``[(name, role), …]``), as the module docstring
    says; ``danshu``: the juan is a 單疏本. "" when nobody can be told."""
    roles = layer_roles(layer, layer_name)
    if roles is None:
        return ""
    surname, _, role_names = roles
    # a "name" longer than a person's is entries the byline could not tell apart: no one's
    printed = [(b.get("name", ""), b.get("role", "")) for b in bylines if 0 < len(b.get("name", "")) <= NAME_MAX]

    def of(candidates: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(n, r) for n, r in candidates if r in role_names and (not surname or fold(n[:1]) == fold(surname[:1]))]

    printed_writers, listed_writers = of(printed), of(people)
    if danshu and layer == SUBCOMMENTARY and not printed_writers and not listed_writers:
        # the 疏 is the book: its author's, as the byline names him where it is read whole (a role
        # ends it), else the catalogue's first person
        printed_writers, listed_writers = [w for w in printed[:1] if w[1]], people[:1]
    if printed_writers:
        who = printed_writers[0]
        return next((n for n, r in listed_writers if same_person(who, (n, r))), who[0])
    names = list(dict.fromkeys(n for n, _ in listed_writers))
    return names[0] if len(names) == 1 else ""


def name_layer_writers(doc: JuanDocument) -> int:
    """Set the commentator of every piece of ``doc`` (a juan the layer step read as a 注疏 or
    單疏本 edition, ``doc.layer_form``) in the commentary, readings or sub-commentary layer
    that names nobody yet, in place, to its layer's writer (``layer_writer``); the marker
    words (LABEL pieces: 注, 音義, 疏) are the book's labels, no one's words, and stay unnamed.
    Returns how many pieces it named."""
    if doc.layer_form not in (ZHUSHU, DANSHU):
        return 0
    people = catalogue_people(doc.kanripo_id)
    writers: dict[tuple[str, str], str] = {}
    named = 0
    for p in doc.all_pieces():
        if p.commentator or not p.text or p.kind == LABEL or p.layer not in (COMMENTARY, READINGS, SUBCOMMENTARY):
            continue
        key = (p.layer, p.layer_name)
        if key not in writers:
            writers[key] = layer_writer(p.layer, p.layer_name, doc.bylines, people, doc.layer_form == DANSHU)
        if writers[key]:
            p.commentator = writers[key]
            named += 1
    return named
