"""Where the classic resumes inside a 注疏 edition's full-size commentary, decided by the
classic read so far (``reader.importers.mandoku.boundaries``, issue 27): the rules on small
inputs, then real places of ``../shared/corpus/kanripo-jingbu`` each rule decides."""
from collation.layersources import parse_file
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, REFERENCE, TEXT, PieceDoc
from reader.importers.mandoku.boundaries import JUMP, Read, _extend_runs, _past_read, align, align_moved
from reader.importers.mandoku.classics import UNREADABLE, classic_reference
from reader.importers.mandoku.classic_returns import _split_off_classic, misprinted_after_classic

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def pieces(name: str) -> list[tuple[str, str, str, str, str]]:
    """(kind, layer, layer name, basis, text) of every piece of a real juan, in order."""
    doc = parse_file(JINGBU / name)
    return [(p.kind, p.effective_layer, p.layer_name, p.layer_basis, p.text) for p in doc.all_pieces()]


def around(name: str, text: str, before: int, after: int):
    """The pieces of a real juan around the first whose text is ``text``."""
    found = pieces(name)
    at = next(k for k, p in enumerate(found) if p[4] == text)
    return found[at - before:at + after]


def test_a_block_the_reference_prints_elsewhere_is_aligned_by_a_later_pass():
    # the reference collects the prefaces after the text (序 甲, 序 乙); the edition sets each
    # before its passage: one chain of anchors keeps one order, a later pass finds the other
    ref = "關關雎鳩在河之洲窈窕淑女君子好逑南有樛木葛藟纍之樂只君子福履綏之\n甲序后妃之德也風之始也乙序后妃能逮下也"
    ed = "甲序后妃之德也風之始也關關雎鳩在河之洲窈窕淑女君子好逑乙序后妃能逮下也南有樛木葛藟纍之樂只君子福履綏之"
    once = align(ref, ed)
    moved = align_moved(ref, ed)
    preface = ref.index("甲序")
    assert once[preface] == -1 and moved[preface] == 0
    assert moved[ref.index("乙序")] == ed.index("乙序")
    assert sum(m >= 0 for m in moved) == sum(ch != "\n" for ch in ref)


def test_a_run_goes_on_over_one_character_written_otherwise():
    # 不皇朝矣 where the reference writes 不遑朝矣: 皇 and the two after it join the run; an
    # unaligned character that is neither is left alone
    ref = "武人東征不遑朝矣漸漸之石"
    stream = "言不可卒服武人東征不皇朝矣云武人"
    ref_of = [-1] * 5 + [0, 1, 2, 3, 4] + [-1] * 7
    _extend_runs(ref, stream, ref_of)
    assert ref_of == [-1] * 5 + [0, 1, 2, 3, 4, 5, 6, 7] + [-1] * 4


def test_the_classic_read_so_far_accounts_for_short_pieces_between():
    # 溫 原 絺 … 懷, each a classic piece of one character with its 注, are too short to align:
    # the tail 君子… goes on from 蘇忿生之田 when they stand, in order, among the classic read
    ref = "蘇忿生之田溫原絺樊隰郕欑茅向盟州陘隤懷君子是以知"
    classic = "溫絺樊隰成欑茅向盟州隤懷"
    stream = "蘇忿生之田" + classic + "注某某君子是以知"
    ref_of = list(range(5)) + [-1] * (len(classic) + 3) + list(range(ref.index("君"), len(ref)))
    is_classic = [True] * (5 + len(classic)) + [False] * (len(stream) - 5 - len(classic))
    read = Read(ref, stream, ref_of, is_classic)
    read.text(0, 5 + len(classic))
    t = stream.index("君")
    assert ref.index("君") - read.last > JUMP
    assert read.last == 5  # 溫, the reference's next character after 田, is read too
    assert read.continues(t, t - 2) == 5
    # with none of them read, the gap is too wide
    bare = Read(ref, stream, ref_of, [True] * 5 + [False] * (len(stream) - 5))
    bare.text(0, 5)
    assert bare.continues(t, t - 2) is None


def test_an_entity_of_a_shipped_reference_is_one_character_that_matches_nothing():
    # 周易 震: ``震來&KR0658;&KR0658;笑言啞啞`` in the reference (虩 lacks a code point there)
    yi = classic_reference("yi")
    assert "&KR" not in yi and f"震來{UNREADABLE}{UNREADABLE}笑言啞啞" in yi


def test_moved_prefaces_maoshi_han_guang():
    """毛詩注疏 漢廣: the reference (欽定詩經傳說彙纂) prints the 詩序 after all the poems; the
    stanza's refrain at the end of the 箋 is the classic."""
    assert around("KR1c0004/KR1c0004_001.txt", "漢之廣矣不可泳思江之永矣不可方思", 1, 2) == [
        (NOTE, COMMENTARY, "鄭箋", "", "不可者本有可道也木以高其枝葉之故故人不得就而止息也興者喻賢女雖出游流水之上人無欲求"
                                     "犯禮者亦由貞潔使之然"),
        (TEXT, CLASSIC, "", REFERENCE, "漢之廣矣不可泳思江之永矣不可方思"),
        (LABEL, COMMENTARY, "傳", "", "𫝊"),
    ]


def test_short_classic_pieces_between_zuozhuan_yin_11():
    """春秋左傳注疏 隱公十一年: the twelve 邑 each with its 杜注 (溫注…原注…), then 君子是以知桓王之失鄭也…
    at the end of the last 注."""
    assert around("KR1e0004/KR1e0004_003.txt", "君子是以知桓王之失鄭也恕而行之德之則也禮之經也已弗能有而以與人人之不至不亦宜乎",
                  1, 2) == [
        (NOTE, COMMENTARY, "杜注", "", "今懷縣凡十二邑皆蘇忿生之田欑茅隤屬汲郡餘皆屬河内"),
        (TEXT, CLASSIC, "", REFERENCE, "君子是以知桓王之失鄭也恕而行之德之則也禮之經也已弗能有而以與人人之不至不亦宜乎"),
        (LABEL, COMMENTARY, "杜注", "", "注"),
    ]


def test_a_note_that_quotes_the_classic_then_the_classic_goes_on_zhouyi_gen():
    """周易註疏 艮 彖: ``…道乃光明也艮其止止其所也注…故曰艮其止止其所也上下敵應…``: the first 艮其止止其
    所也 goes on from the classic read so far; the second is the 注 quoting it after 故曰."""
    assert around("KR1a0007/KR1a0007_028.txt", "艮其止止其所也", 1, 4) == [
        (NOTE, COMMENTARY, "王注", "", "止道不可常用必施於不可以行適於其時道乃光明也"),
        (TEXT, CLASSIC, "", REFERENCE, "艮其止止其所也"),
        (LABEL, COMMENTARY, "王注", "", "注"),
        (NOTE, COMMENTARY, "王注", "", "易背曰止以明背即止也施止不可於面施背乃可也施止於止不施止於行得其所矣故曰艮其止止其所也"),
        (TEXT, CLASSIC, "", REFERENCE, "上下敵應不相與也是以不𫉬其身行其庭不見其人无咎也"),
    ]


def test_a_refrain_written_otherwise_maoshi_jian_jian_zhi_shi():
    """毛詩注疏 漸漸之石: 武人東征不皇朝矣 (the reference writes 遑), after the 箋."""
    assert around("KR1c0004/KR1c0004_022.txt", "武人東征不皇朝矣", 1, 2)[1:] == [
        (TEXT, CLASSIC, "", REFERENCE, "武人東征不皇朝矣"), (LABEL, COMMENTARY, "鄭箋", "", "箋云")]


def test_the_trigrams_of_a_hexagram_are_its_heading_in_the_classic():
    """周易註疏: ``䷅(坎下/乾上)`` -- the small print after a hexagram names its two trigrams; the
    editions that print the classic apart print it as the classic."""
    found = pieces("KR1a0007/KR1a0007_014.txt")
    at = found.index((TEXT, CLASSIC, "", "", "䷅"))
    assert found[at:at + 3] == [(TEXT, CLASSIC, "", "", "䷅"), (NOTE, CLASSIC, "", LAYOUT, "坎下乾上"),
                                (TEXT, CLASSIC, "", "", "訟有孚窒惕中吉")]
    trigrams = [p for p in found if p[0] == NOTE and p[1] == CLASSIC]
    assert len(trigrams) == 5 and all(p[3] == LAYOUT and p[4][1] == "下" and p[4][3] == "上" for p in trigrams)
    # no other small print is the classic's: the 上經 list of hexagrams is the juan's contents entry,
    # one label as printed (its notes' brackets layout), the juan's first piece
    assert found[0] == (LABEL, CLASSIC, "", "", "上經坤\u3000屯\u3000蒙\u3000需\u3000訟")
    assert found[1] == (TEXT, CLASSIC, "", "", "䷁")



def test_a_passage_inside_a_note_whose_next_marker_is_misprinted_maoshi_mian():
    """毛詩注疏 緜: ``…而王業大予曰有疏附…予曰有禦侮傅率下親上曰疏附…禦侮箋云予我也…`` -- the book
    prints 傅 for the 傳 that should open 毛傳 after the stanza's last lines: the passage is the
    classic, 傅 (kept as written) is the label of 毛傳 and the words after it 毛傳's, to their
    last word 禦侮 (which the 疏 quotes, ``禦侮者``, but which only the next 箋 being the same
    commentary's let be read as the classic); both with the basis ``layout``."""
    assert around("KR1c0004/KR1c0004_023.txt", "予曰有疏附予曰有先後予曰有奔奏予曰有禦侮", 2, 4) == [
        (LABEL, COMMENTARY, "鄭箋", "", "箋云"),
        (NOTE, COMMENTARY, "鄭箋", "", "虞芮之質平而文王動其緜緜民初生之道謂廣其德而王業大"),
        (TEXT, CLASSIC, "", REFERENCE, "予曰有疏附予曰有先後予曰有奔奏予曰有禦侮"),
        (LABEL, COMMENTARY, "傳", LAYOUT, "傅"),
        (NOTE, COMMENTARY, "傳", LAYOUT, "率下親上曰疏附相道前後曰先後喻德宣譽曰奔奏武臣折衝曰禦侮"),
        (LABEL, COMMENTARY, "鄭箋", "", "箋云"),
    ]
    assert around("KR1c0004/KR1c0004_023.txt", "予曰有疏附予曰有先後予曰有奔奏予曰有禦侮", 0, 5)[4][4].startswith(
        "予我也詩人自我也文王之德所以至然者我念之曰此亦由有疏附先後奔奏禦侮之臣力也")
    # the 傳 as this juan labels it everywhere else: the misprinted marker gets the same name
    names = {p[2] for p in pieces("KR1c0004/KR1c0004_023.txt") if p[0] == LABEL and p[4] in ("傳", "𫝊")}
    assert names == {"傳"}


def test_a_misprinted_marker_right_after_the_classic_opens_its_note_maoshi_qiyue_yi():
    """毛詩注疏 七月 and 抑: 傅 for the 傳 that opens 毛傳 right after a stanza's last line, in
    full-size text that runs on to the next marker (箋): the words before it are the classic's
    (the reference holds them), the words after it are not; 傅 (kept as written) is 毛傳's
    label and the words up to 箋 its note, with the basis ``layout``."""
    assert around("KR1c0004/KR1c0004_015.txt", "六月食鬱及薁七月亨葵及菽八月剥棗十月穫稲為此春酒以介眉壽", 0, 4) == [
        (TEXT, CLASSIC, "", "", "六月食鬱及薁七月亨葵及菽八月剥棗十月穫稲為此春酒以介眉壽"),
        (LABEL, COMMENTARY, "傳", LAYOUT, "傅"),
        (NOTE, COMMENTARY, "傳", LAYOUT, "鬱棣屬薁蘡薁也剝擊也春酒凍醪也眉夀豪眉也"),
        (LABEL, COMMENTARY, "鄭箋", "", "箋云"),
    ]
    assert around("KR1c0004/KR1c0004_025.txt", "質爾人民謹爾侯度用戒不虞", 0, 4) == [
        (TEXT, CLASSIC, "", "", "質爾人民謹爾侯度用戒不虞"),
        (LABEL, COMMENTARY, "傳", LAYOUT, "傅"), (NOTE, COMMENTARY, "傳", LAYOUT, "質成也不虞非度也"),
        (LABEL, COMMENTARY, "鄭箋", "", "箋云"),
    ]
    # 傅 of the classic (傅說) is followed by the classic's words, which the reference holds;
    # a juan that labels no 傳 has no misprint of it; text that does not run up to a marker
    # is left as it is
    reference = classic_reference("shu")
    para = [PieceDoc(TEXT, "乃審厥象俾以形旁求于天下說築傅巖之野惟肖", layer=CLASSIC),
            PieceDoc(LABEL, "傳", layer=COMMENTARY, layer_name="孔傳"), PieceDoc(NOTE, "傳語", layer=COMMENTARY)]
    misprinted_after_classic([(para, i) for i in range(3)], reference)
    assert [p.text for p in para] == ["乃審厥象俾以形旁求于天下說築傅巖之野惟肖", "傳", "傳語"]
    para = [PieceDoc(TEXT, "曰若稽古帝堯曰放勳欽明文思安安傅甲乙丙丁戊己庚辛", layer=CLASSIC),
            PieceDoc(LABEL, "傳", layer=COMMENTARY, layer_name="孔傳"), PieceDoc(NOTE, "傳語", layer=COMMENTARY)]
    misprinted_after_classic([(para, i) for i in range(3)], reference)
    assert [(p.kind, p.layer_name, p.text) for p in para[:3]] == [
        (TEXT, "", "曰若稽古帝堯曰放勳欽明文思安安"), (LABEL, "孔傳", "傅"), (NOTE, "孔傳", "甲乙丙丁戊己庚辛")]
    para = [PieceDoc(TEXT, "曰若稽古帝堯曰放勳欽明文思安安傅甲乙丙丁戊己庚辛", layer=CLASSIC),
            PieceDoc(LABEL, "注", layer=COMMENTARY, layer_name="注"), PieceDoc(NOTE, "注語", layer=COMMENTARY)]
    misprinted_after_classic([(para, i) for i in range(3)], reference)
    assert len(para) == 3
    para = [PieceDoc(TEXT, "曰若稽古帝堯曰放勳欽明文思安安傅甲乙丙丁戊己庚辛", layer=CLASSIC),
            PieceDoc(LABEL, "傳", layer=COMMENTARY, layer_name="孔傳"), PieceDoc(NOTE, "傳語", layer=COMMENTARY),
            PieceDoc(TEXT, "曰若稽古帝堯曰放勳欽明文思安安傅甲乙丙丁戊己庚辛", layer=CLASSIC)]
    misprinted_after_classic([(para, i) for i in range(4)], reference)
    assert len(para) == 6 and para[-1].text == "曰若稽古帝堯曰放勳欽明文思安安傅甲乙丙丁戊己庚辛"


def test_the_rest_of_a_note_cut_open_keeps_its_commentator_where_nothing_names_another():
    """Where the words after a passage cut out of a note open with no marker, they keep the
    commentator of the note they were cut from, with the basis ``layout``."""
    para = [PieceDoc(LABEL, "箋", layer=COMMENTARY, layer_name="鄭箋"),
            PieceDoc(NOTE, "云甲乙丙經文丁戊己庚辛壬癸箋後語", layer=COMMENTARY, layer_name="鄭箋"),
            PieceDoc(LABEL, "傳", layer=COMMENTARY, layer_name="毛傳"), PieceDoc(NOTE, "傳語", layer=COMMENTARY,
                                                                                  layer_name="毛傳")]
    refs = [(para, i) for i in range(len(para))]
    _split_off_classic(refs, [(1, 4, 12)], REFERENCE)
    assert [(p.kind, p.layer, p.layer_name, p.layer_basis, p.text) for p in para[:5]] == [
        (LABEL, COMMENTARY, "鄭箋", "", "箋"), (NOTE, COMMENTARY, "鄭箋", "", "云甲乙丙"),
        (TEXT, CLASSIC, "", REFERENCE, "經文丁戊己庚辛壬"), (NOTE, COMMENTARY, "鄭箋", LAYOUT, "癸箋後語"),
        (LABEL, COMMENTARY, "毛傳", "", "傳")]
    # 傅 where the juan has a 傳: the label of that commentary
    para = [PieceDoc(NOTE, "云甲乙丙經文丁戊己庚辛壬傅傳語", layer=COMMENTARY, layer_name="鄭箋"),
            PieceDoc(LABEL, "傳", layer=COMMENTARY, layer_name="毛傳")]
    _split_off_classic([(para, 0), (para, 1)], [(0, 4, 12)], REFERENCE)
    assert [(p.kind, p.layer_name, p.layer_basis, p.text) for p in para] == [
        (NOTE, "鄭箋", "", "云甲乙丙"), (TEXT, "", REFERENCE, "經文丁戊己庚辛壬"), (LABEL, "毛傳", LAYOUT, "傅"),
        (NOTE, "毛傳", LAYOUT, "傳語"), (LABEL, "毛傳", "", "傳")]


def test_the_rest_of_a_note_followed_by_the_same_commentarys_marker_is_the_classic():
    """A book never prints two notes of one commentary one after the other with nothing
    between: words after a passage cut out of a note that run up to the next marker of the
    same commentary are the classic that goes on (basis ``layout``, no commentator); before
    another commentary's marker they stay the note."""
    def cut(after: PieceDoc):
        para = [PieceDoc(LABEL, "注", layer=COMMENTARY, layer_name="何注"),
                PieceDoc(NOTE, "如我甲乙為爾君者不亦病乎然則曷為", layer=COMMENTARY, layer_name="何注"), after]
        _split_off_classic([(para, i) for i in range(3)], [(1, 4, 12)], REFERENCE)
        return [(p.kind, p.layer, p.layer_name, p.layer_basis, p.text) for p in para]

    assert cut(PieceDoc(LABEL, "注", layer=COMMENTARY, layer_name="何注")) == [
        (LABEL, COMMENTARY, "何注", "", "注"), (NOTE, COMMENTARY, "何注", "", "如我甲乙"),
        (TEXT, CLASSIC, "", REFERENCE, "為爾君者不亦病乎"), (TEXT, CLASSIC, "", LAYOUT, "然則曷為"),
        (LABEL, COMMENTARY, "何注", "", "注")]
    assert cut(PieceDoc(LABEL, "箋", layer=COMMENTARY, layer_name="鄭箋"))[3] == (
        NOTE, COMMENTARY, "何注", LAYOUT, "然則曷為")


def test_a_marker_word_the_juan_does_not_use_opens_the_commentary_that_follows_its_classic():
    """注 in a juan whose commentaries are 傳 and 箋 (毛詩注疏), right after a passage cut out
    of a 箋: the label of the commentary the juan prints right after its classic (傳)."""
    para = [PieceDoc(TEXT, "經甲乙", layer=CLASSIC), PieceDoc(LABEL, "傳", layer=COMMENTARY, layer_name="傳"),
            PieceDoc(NOTE, "傳語", layer=COMMENTARY, layer_name="傳"),
            PieceDoc(LABEL, "箋", layer=COMMENTARY, layer_name="鄭箋"),
            PieceDoc(NOTE, "云甲乙丙經文丁戊己庚辛壬注傳語也", layer=COMMENTARY, layer_name="鄭箋"),
            PieceDoc(LABEL, "箋", layer=COMMENTARY, layer_name="鄭箋")]
    _split_off_classic([(para, i) for i in range(len(para))], [(4, 4, 12)], REFERENCE)
    assert [(p.kind, p.layer_name, p.layer_basis, p.text) for p in para[4:]] == [
        (NOTE, "鄭箋", "", "云甲乙丙"), (TEXT, "", REFERENCE, "經文丁戊己庚辛壬"), (LABEL, "傳", LAYOUT, "注"),
        (NOTE, "傳", LAYOUT, "傳語也"), (LABEL, "鄭箋", "", "箋")]


def test_the_rest_of_cut_notes_in_the_shared_corpus():
    """Real places: the words after the passage run up to the same commentary's next marker
    (孟子注疏, 公羊注疏, 論語集解義疏, where the reference lacks the words or writes them
    otherwise), and 毛詩注疏 天保's 注 before 毛傳's words ``俾使單信也``."""
    assert around("KR1h0003/KR1h0003_005.txt", "曰夫物之不齊物之情也或相倍蓰或相什伯或相千萬子比而同之", 0, 3) == [
        (TEXT, CLASSIC, "", REFERENCE, "曰夫物之不齊物之情也或相倍蓰或相什伯或相千萬子比而同之"),
        (TEXT, CLASSIC, "", LAYOUT, "是亂天下也巨屨小屨同賈人豈爲之哉從許子之道相率而爲僞者也惡能治國家"),
        (LABEL, COMMENTARY, "趙注", "", "注")]
    assert around("KR1e0006/KR1e0006_011.txt", "為爾君者不亦病乎於是殺之", 1, 2) == [
        (NOTE, COMMENTARY, "何注", "", "如我有不可将復圗我如二孺子"),
        (TEXT, CLASSIC, "", REFERENCE, "為爾君者不亦病乎於是殺之"), (TEXT, CLASSIC, "", LAYOUT, "然則曷為不言恵公之入")]
    assert around("KR1h0006/KR1h0006_001.txt", "其或繼周者雖百世", 0, 3) == [
        (TEXT, CLASSIC, "", REFERENCE, "其或繼周者雖百世"), (TEXT, CLASSIC, "", LAYOUT, "亦可知也"),
        (LABEL, COMMENTARY, "何註", "", "註")]
    assert around("KR1c0004/KR1c0004_016.txt", "俾爾單厚何福不除", 1, 4) == [
        (NOTE, COMMENTARY, "鄭箋", "", "保安爾女也女王也天之安定女亦甚堅固"),
        (TEXT, CLASSIC, "", REFERENCE, "俾爾單厚何福不除"), (LABEL, COMMENTARY, "傳", LAYOUT, "注"),
        (NOTE, COMMENTARY, "傳", LAYOUT, "俾使單信也或曰單厚也除開也"), (LABEL, COMMENTARY, "鄭箋", "", "箋云")]


def test_a_note_going_over_the_classic_just_read_keeps_it_shujing_shun_dian():
    """尚書注疏 舜典: ``舜生三十徵庸傳…三十在位傳…五十載陟方乃死傳方道也…而葬焉三十徵庸三十在位
    服喪三年…`` -- 孔傳 sums up the passage the book has just printed in short pieces: the eight
    words inside the note stand in the classic read just before, so they stay 孔傳's."""
    found = pieces("KR1b0004/KR1b0004_002.txt")
    at = next(k for k, p in enumerate(found) if p[4].startswith("方道也舜即位"))
    assert found[at - 4:at + 1] == [
        (TEXT, CLASSIC, "", REFERENCE, "三十在位"), (LABEL, COMMENTARY, "孔傳", "", "傳"),
        (NOTE, COMMENTARY, "孔傳", "", "歴試二年攝位二十八年五十載陟方乃死"), (LABEL, COMMENTARY, "孔傳", "", "傳"),
        (NOTE, COMMENTARY, "孔傳", "", "方道也舜即位五十年升道南方巡守死於蒼梧之野而葬焉三十徵庸三十在位服喪三年其一在三十之數"
         "為天子五十年凡壽百一十二嵗")]


def test_a_reference_character_the_classic_read_is_no_tails_start():
    """孝經注疏 喪親章: ``卜其宅兆而安措之注宅墓穴也兆塋域也葬事大故卜之為之宗廟以鬼享之注…``, the reference
    writing 安厝之: the alignment left the classic's 措之 out (a run too short) and gave the reference's
    之 to the 注's last 之 (卜之), so the classic began at that 之 (the one place of the 孝經 pair's
    commentary stored as classic). The classic read takes its last characters up to the piece's end
    when they are the reference's next, one written otherwise (措 for 厝) before the same characters;
    a tail starts after the characters whose reference characters are read already."""
    ref = "卜其宅兆而安厝之為之宗廟"
    classic, note, after = "卜其宅兆而安措之", "宅墓穴也葬事大故卜之", "為之宗廟"
    stream = classic + note + after
    ref_of = [0, 1, 2, 3, 4, 5, -1, -1] + [-1] * (len(note) - 1) + [7] + [8, 9, 10, 11]
    read = Read(ref, stream, ref_of, [True] * len(classic) + [False] * (len(note) + len(after)))
    read.text(0, len(classic))
    assert (read.last, read.at, read.done[6], read.done[7]) == (7, 7, True, True)
    start = len(classic)
    assert _past_read(ref_of, read, start + len(note) - 1, len(stream)) == start + len(note)
    assert _past_read(ref_of, read, start + len(note) - 1, start + len(note)) is None  # all read: no tail
    # one written otherwise at the piece's very end is not taken: nothing after it says it stands there
    other = Read(ref, stream, ref_of, [])
    other.text(0, 7)
    assert (other.last, other.done[6]) == (5, False)
    assert around("KR1f0004/KR1f0004_009.txt", "為之宗廟以鬼享之", 2, 3) == [
        (LABEL, COMMENTARY, "御注", "", "注"), (NOTE, COMMENTARY, "御注", "", "宅墓穴也兆塋域也葬事大故卜之"),
        (TEXT, CLASSIC, "", REFERENCE, "為之宗廟以鬼享之"), (LABEL, COMMENTARY, "御注", "", "注"),
        (NOTE, COMMENTARY, "御注", "", "立廟祔祖之後則以鬼禮享之")]
