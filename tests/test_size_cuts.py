"""Where a section cut only for size falls (``reader.importers.mandoku.cuts``): where an entry
ends (text, then the notes that explain it), after a sentence mark or a printed paragraph's short
last line, never inside a run of text nor between a phrase and its note; on the three books a user
found the fault in (楚辭補注, 前漢書, 文選 李善註, 卷一 each), then through the search API; and the
phrases the last cuts inside text hid (decision 0029), on every engine."""
import re

import pytest

from reader.importers.document import NOTE, NOTE_KINDS, TEXT, PieceDoc
from reader.importers.loader import import_file
from reader.importers.mandoku import HARD_LIMIT, parse_mandoku, render_mandoku
from reader.importers.mandoku.cuts import CLEAN, IN_TEXT, NOTE_APART, clean_seam, seam_kind, size_cuts, split_piece
from reader.importers.mandoku.parser import full_width
from reader.importers.mandoku.writer import render_piece

from search.backends import SearchQuery, get_search_backend
from search.documents import documents_for_juan

from .conftest import SHARED, index_all
from .test_search_contract import BACKENDS

COMMENTARY = SHARED / "corpus" / "kanripo-commentary"
CHUCI, HANSHU, WENXUAN = "KR4a0003/KR4a0003_001.txt", "KR2a0007/KR2a0007_001.txt", "KR4h0002/KR4h0002_001.txt"
HEAD = "# -*- mode: mandoku-view; -*-\n#+TITLE: 試\n#+PROPERTY: ID KR9z0003\n#+PROPERTY: BASEEDITION WYG\n"


def parse(rel: str):
    raw = (COMMENTARY / rel).read_text(encoding="utf-8")
    doc = parse_mandoku(raw, rel)
    assert render_mandoku(doc) == raw  # pieces are moved, never changed: the file writes back the same
    return doc


def cut_kinds(rel: str, doc) -> list[str]:
    """``size_cuts`` of ``doc`` parsed from ``rel``, its kinds only."""
    lines = (COMMENTARY / rel).read_text(encoding="utf-8").splitlines()
    return [kind for _, kind in size_cuts(doc, full_width(lines, 0, len(lines)))]


def seams(doc):
    """(last piece, first piece) of each pair of sections cut inside a paragraph."""
    return [(a.paragraphs[-1][-1], b.paragraphs[0][0]) for c in doc.chapters
            for a, b in zip(c.sections, c.sections[1:]) if b.continues_paragraph]


def test_chuci_sections_open_with_a_line_of_verse():
    """楚辭補注 卷一: §3 opened with 扈被也 (the note of §2's last line), §4 with 惟㨗徑以窘步 (夫 ended
    §3); every section cut for size now opens with the verse its notes follow. 王逸's 序 is a
    section of its own, the classic (帝高陽之苗裔兮) opening the next (not a cut for size); so are
    his 叙 after the classic (叙曰…, line 894) and the writings headed by their writers, 班孟堅's
    離騷贊序 (972) and 劉勰's 辨騷 (984)."""
    doc = parse(CHUCI)
    assert [(s.line, s.pieces[0].text[:7]) for s in doc.sections] == [
        (11, "隋唐書志有皇甫"), (19, "離騷經者屈原之"), (51, "帝高陽之苗裔兮"), (81, "扈江離與辟芷兮"), (147, "夫惟㨗徑以窘步"),
        (208, "憑不猒乎求索"), (261, "既替余以蕙纕兮"), (318, "雧芙蓉以為裳"), (389, "啓九辯與九歌兮"),
        (447, "相觀民之計極"), (512, "總余轡乎扶桑"), (575, "吾令豐隆椉雲兮"), (643, "世溷濁而嫉賢兮"),
        (705, "摯咎繇而能調"), (775, "既干進而務入兮"), (841, "遵赤水而容與"), (894, "叙曰昔者孔子叡"),
        (915, "顚則不能扶危則"), (972, "離騷贊序"), (984, "辨騷")]
    third, fourth = doc.sections[3], doc.sections[4]
    assert [(p.kind, p.text) for p in third.pieces[:2]] == [
        (TEXT, "扈江離與辟芷兮"), (NOTE, third.pieces[1].text)] and third.pieces[1].text.startswith("扈被也")
    assert (third.pieces[-1].kind, third.pieces[-1].text) == (NOTE, "補曰博雅云裮被不帶也被音披")
    assert (fourth.pieces[0].kind, fourth.pieces[0].text) == (TEXT, "夫惟㨗徑以窘步")
    last = doc.sections[2].pieces[-1]  # §3 ends with the notes on 又重之以脩能, no longer with 扈江離與辟芷兮
    assert last.kind == NOTE and last.text.startswith("補曰重儲用切") and last.text.endswith("有絶人之才者謂之能此讀若耐叶韻")
    assert all(clean_seam(x, y) for x, y in seams(doc)) and len(seams(doc)) == 14
    assert size_cuts(doc) == [(s.line, CLEAN) for s in doc.sections[3:16] + doc.sections[17:18]]


@pytest.mark.parametrize("rel,phrase,number,line,sections", [
    (HANSHU, "夫人天下貴人也", 2, 83, 19),   # cut 天|下 at line 83/84; §2 opens with it (after 餔之 and its notes)
    (WENXUAN, "克己復禮以奉", 10, 487, 17),  # cut 己|復 at line 487/488
])
def test_a_phrase_cut_at_a_line_end_is_one_run_again(rel, phrase, number, line, sections):
    doc = parse(rel)
    assert len(doc.sections) == sections  # the numbering of the sections stays
    holding = [n for n, s in enumerate(doc.sections, 1) if phrase in "".join(p.text for p in s.pieces if p.kind == TEXT)]
    assert holding == [number] and doc.sections[number - 1].line == line
    assert set(cut_kinds(rel, doc)) == {CLEAN}
    assert not any(y.kind in NOTE_KINDS for x, y in seams(doc))


def test_punctuated_text_is_cut_after_a_sentence_mark():
    """A long paragraph of punctuated text with no notes: the cut for size falls after 。, the next
    section opening with the sentence after it (the piece is split there, its layout kept)."""
    line = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽。雲騰致雨露結為霜金生麗水玉出昆岡¶\n"
    raw = HEAD + line * 60  # 2,940 characters: one cut
    doc = parse_mandoku(raw, "test.txt")
    assert render_mandoku(doc) == raw
    assert len(doc.sections) == 2 and doc.sections[1].continues_paragraph
    a, b = doc.sections[0].pieces[-1], doc.sections[1].pieces[0]
    assert a.text.endswith("律呂調陽。") and b.text.startswith("雲騰致雨露結為霜金生麗水玉出昆岡天地玄黃")
    assert len(doc.sections[0].pieces) == len(doc.sections[1].pieces) == 1
    assert doc.sections[1].line == 5 + len(a.text) // 49


def test_a_long_run_with_nothing_to_end_it_stays_whole():
    """Unpunctuated text with no note, no space and no short line: no unit of text ends in it, so
    the section is not cut for size (a phrase across a cut would be found nowhere); a space
    between entries (單疏) takes the cut."""
    line = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨露結為霜¶\n"
    doc = parse_mandoku(HEAD + line * 70, "test.txt")
    assert [(s.line, sum(len(p.text) for p in s.pieces)) for s in doc.sections] == [(5, 2800)]
    spaced = "書人亦与盟會同\u3000注无駭至八年\u3000正義曰春秋之例卿乃見經今名書扵經傳言司空故知无駭是魯¶\n"
    raw = HEAD + line * 40 + spaced * 20
    doc = parse_mandoku(raw, "test.txt")
    assert render_mandoku(doc) == raw
    assert len(doc.sections) == 2 and doc.sections[1].pieces[0].text.startswith("注无駭至八年\u3000正義曰")
    assert doc.sections[0].pieces[-1].text.endswith("書人亦与盟會同\u3000")


def test_a_cut_falls_after_a_printed_paragraph():
    """A line printed short after full ones ends a paragraph the layout does not otherwise mark
    (尚書正義 SBCK: ``重頓至是乎¶``, then the lemma ``傳二水至耕作¶`` on a short line of its own,
    then ``正義曰…``): the cut falls after it, before the lemma, not after the lemma's short line."""
    full = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨露結為霜¶\n"
    entry = full * 9 + "重頓至是乎¶\n傳二水至耕作¶\n正義曰" + full[3:]  # 411 characters on 12 lines
    raw = HEAD + entry * 6
    doc = parse_mandoku(raw, "test.txt")
    assert render_mandoku(doc) == raw
    assert [(s.line, sum(len(p.text) for p in s.pieces), s.continues_paragraph) for s in doc.sections] == [
        (5, 4 * 411 + 365, False), (5 + 4 * 12 + 10, 46 + 411, True)]
    assert doc.sections[0].pieces[-1].text.endswith("重頓至是乎") and doc.sections[1].pieces[0].text.startswith("傳二水至耕作正義曰")
    assert size_cuts(doc, full_width(raw.splitlines(), 0, raw.count("\n"))) == [(63, CLEAN)]
    assert size_cuts(doc) == [(63, IN_TEXT)]  # no full line given: no line is short


def test_a_note_on_one_word_ends_no_entry():
    """A variant or a sound (一作邪, 音覓) is printed after one word inside a phrase; a gloss ends one."""
    gloss, variant, sound = PieceDoc(NOTE, "扈被也"), PieceDoc(NOTE, "一作邪"), PieceDoc(NOTE, "汨音覓")
    text = PieceDoc(TEXT, "惟庚寅吾以降")
    assert [clean_seam(n, text) for n in (gloss, variant, sound)] == [True, False, False]
    assert clean_seam(PieceDoc(TEXT, "尚矣。"), text) and not clean_seam(PieceDoc(TEXT, "老父相后曰夫人天"), text)
    assert [seam_kind(PieceDoc(TEXT, "老父相后曰夫人天"), PieceDoc(TEXT, "下貴人也")), seam_kind(text, gloss),
            seam_kind(gloss, text)] == [IN_TEXT, NOTE_APART, CLEAN]


def test_a_word_note_is_read_in_the_juans_column_order():
    """六臣註文選 files its notes' two columns in reverse: ``文縁(作緑/五臣本)波些`` reads 五臣本作緑, a
    variant of one word, and ``揳(反/古八)梓`` 古八反, a sound: neither ends the phrase there, in a juan
    that files its columns so (``JuanDocument.columns_reversed``); read in the file's order they do."""
    text = PieceDoc(TEXT, "波些")
    variant = [PieceDoc(NOTE, "作緑", layout=[(0, "(")]), PieceDoc(NOTE, "五臣本", layout=[(0, "/"), (3, ")")])]
    sound = PieceDoc(NOTE, "反古八", layout=[(0, "("), (1, "/"), (3, ")")])
    assert [clean_seam(sound, text, reversed_columns=True), clean_seam(sound, text)] == [False, True]
    assert [seam_kind(variant[-1], text, variant, reversed_columns=True), seam_kind(variant[-1], text, variant)] == [
        IN_TEXT, CLEAN]


def test_a_cut_in_a_reversed_juan_falls_after_a_gloss():
    """六臣註文選 卷三十三 (KR4h0003_033): §11 opened 「波些…」 after 文縁(作緑/五臣本) and §12 「梓瑟些…」 after
    揳(反/古八); each cut now falls before the line that holds the phrase whole."""
    path = COMMENTARY / "KR4h0003" / "KR4h0003_033.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), path.name)
    opening = {s.line: "".join(p.text for p in s.pieces if p.kind == TEXT)[:12] for s in doc.sections}
    assert [opening[486], opening[548]] == ["紫莖屏風文縁波些文異豹飾", "鏗鐘揺虡揳梓瑟些娛酒不廢"]
    assert 550 not in opening


def test_split_piece_keeps_the_layout_written():
    piece = PieceDoc(TEXT, "太史公曰五帝三代之記", layout=[(0, "　"), (4, "¶\n<pb:X_1a>¶\n"), (7, "¶\n")])
    head, tail = split_piece(piece, 4)
    assert (head.text, head.layout, tail.text, tail.layout) == (
        "太史公曰", [(0, "　"), (4, "¶\n")], "五帝三代之記", [(0, "<pb:X_1a>¶\n"), (3, "¶\n")])
    assert render_piece(head) + render_piece(tail) == render_piece(piece)


@pytest.fixture
def three_juans(seed_juan, search_backend):
    juans = [import_file(COMMENTARY / rel).juan for rel in (CHUCI, HANSHU, WENXUAN)]
    index_all(search_backend)
    return juans


def test_phrases_across_the_old_cuts_are_found(three_juans, client):
    counts = {}
    for juan, q in zip(three_juans, ("夫惟㨗徑以窘步", "夫人天下貴人也", "克己復禮以奉")):
        for query in (q, q[1:]):
            api = client.get("/api/search/", {"q": query, "edition": juan.edition.slug}).json()
            counts[query] = (api["count"], [h["section"]["position"] for h in api["results"]])
    assert counts == {"夫惟㨗徑以窘步": (1, [5]), "惟㨗徑以窘步": (1, [5]), "夫人天下貴人也": (1, [2]),
                      "人天下貴人也": (1, [2]), "克己復禮以奉": (1, [10]), "己復禮以奉": (1, [10])}


#: Phrases of the shared corpus that a cut for size parted inside a long run of unpunctuated text
#: with no note, no mark and no space within 1,200 characters of it (``scripts/check_corpus.py
#: --cuts`` listed each as ``text: file:line``), so that no engine found them: (file, phrase).
LOST = [
    ("kanripo-commentary/KR2a0004/KR2a0004_028.txt", "黄金可成而河決可塞"),  # 史記正義 卷二十八: 黄金可|成, line 404
    ("kanripo-jingbu/KR1b0003/KR1b0003_001.txt", "中央曰黄帝依次以爲三皇"),  # 尚書正義 卷一: 曰黄|帝, line 178
    ("kanripo-commentary/KR3c0005/KR3c0005_004.txt", "衣之裏以示君而泣曰"),  # 韓非子 卷四: 以示|君, line 354
]


def plain_main_text(raw: str) -> str:
    """The main text of a mandoku file read with regular expressions alone (no parser): header
    lines dropped, page breaks, line-end marks, line indents and ``(…)`` notes taken out, every
    line joined to the next."""
    lines = [line for line in raw.split("\n") if not line.startswith("#")]
    return "".join(re.sub(r"\([^)]*\)", "", re.sub(r"<pb:[^>]*>", "", line).replace("¶", "").lstrip("\u3000"))
                   for line in lines)


@pytest.fixture
def lost_juans(seed_juan):
    return [import_file(SHARED / "corpus" / rel).juan for rel, _ in LOST]


@pytest.mark.parametrize("engine", sorted(BACKENDS))
def test_phrases_once_cut_inside_text_are_found_on_every_engine(engine, lost_juans, settings, tmp_path):
    """Each phrase a cut inside a run of text parted is found by every engine as often as a plain
    reading of the file's main text holds it (once), in one section; without its first character too."""
    settings.SEARCH_BACKENDS = {"contract": {"BACKEND": BACKENDS[engine], "PATH": tmp_path / "ix",
                                             "NAME": f"lost-{tmp_path.name}", "LOCK_TIMEOUT": 1.0}}
    backend = get_search_backend("contract")
    backend.rebuild([d for juan in lost_juans for d in documents_for_juan(juan)])
    found = {}
    for (rel, phrase), juan in zip(LOST, lost_juans):
        plain = plain_main_text((SHARED / "corpus" / rel).read_text(encoding="utf-8"))
        for q in (phrase, phrase[1:]):
            result = backend.search(SearchQuery(q, exact=True, edition_ids=(juan.edition_id,)))
            found[q] = (result.count, plain.count(q), len({h.section_position for h in result.hits}))
    assert found == {q: (1, 1, 1) for _, phrase in LOST for q in (phrase, phrase[1:])}


@pytest.fixture
def run_juans(seed_juan, search_backend):
    """前漢書 卷三十一 and 六臣註文選 卷二, imported from the shared corpus."""
    return [import_file(COMMENTARY / rel).juan for rel in ("KR2a0007/KR2a0007_031.txt", "KR4h0003/KR4h0003_002.txt")]


def test_no_cut_inside_a_run_at_a_full_line_or_after_a_one_character_note(run_juans, client):
    """A new user found 前漢書 卷三十一 §6 ending 「此項」 and §7 opening 「王也羽廼曰…」: the line
    ``(元凱…/劉攽…)指王翳曰(如淳曰指/示王翳)此項¶`` measured 20.5 wide where the line is 21 (its
    notes counted half their characters, not their longer column), so it was taken for a
    paragraph's last line; a line with small print is now never taken for one. And 六臣註文選 卷二
    §2 ended 「以煇」 before the homophone (輝), §3 opening 「煌正殿路寢…」: a note of one character
    ends no entry. Both cuts now fall where an entry ends, the phrase whole in one section."""
    hanshu, wenxuan = run_juans
    cited = [client.get(f"/api/works/{slug}/juans/{juan}/sections/{n}/", follow=True).json()["citation"]
             for slug, juan, n in (("KR2a0007", 31, 7), ("KR4h0003", 2, 3))]
    assert cited == [
        "〔漢〕班固\u3000〔唐〕顏師古注《前漢書》卷三十一〈陳勝項籍列傳第一〉「此項王也羽廼曰吾…」（四庫全書・文淵閣本，葉 31-31b） "
        "http://testserver/works/KR2a0007/juan/31/7/",
        "〔梁〕蕭統編\u3000〔唐〕李善註\u3000〔唐〕呂延濟註\u3000〔唐〕劉良註\u3000〔唐〕張銑註\u3000〔唐〕呂向註\u3000〔唐〕李周翰註"
        "《六臣註文選》卷第二〈京都上〉張平子\u3000薛綜註〈西京賦一首〉「譬衆星之環北極叛…」（四部叢刊本，葉 2-7b） "
        "http://testserver/works/KR4h0003/juan/2/3/",
    ]
    texts = {s.position: "".join(p.text for p in s.pieces.order_by("position") if p.kind == TEXT)
             for s in hanshu.sections.all()}
    assert texts[6].endswith("面之指王翳曰") and texts[7].startswith("此項王也羽廼曰吾聞漢購我頭千金邑萬戸")
    wx = {s.position: "".join(p.text for p in s.pieces.order_by("position") if p.kind == TEXT)
          for s in wenxuan.sections.all()}
    assert wx[2].endswith("麒麟朱鳥龍興舎章") and wx[3].startswith("譬衆星之環北極叛赫戲以煇煌正殿路寢用朝羣辟")
    assert [len(hanshu.sections.all()), len(wenxuan.sections.all())] == [9, 12]
