"""Layouts of the held-out 史部 (``kanripo-scale``, not in ``../shared/corpus``'s folders; issue 27): excerpts of
Kanripo files copied exactly (their lines named above each), and what the importer reads in them.

- A line opening with 右 and an office of a 左右 pair names a man; it closes nothing (``mandoku.offices``): the 目
  of 御批歷代通鑑輯覽 under its flush 綱, a memorial 文獻通考 quotes a column lower.
- A number's fraction printed small in a table's row is the author's 自注, not the commentator's note
  (``mandoku.table_figures``): 新五代史 司天考's figures are 歐陽修's; 徐無黨's 注 stays his elsewhere.
- The second cell of a list printed in two columns is no block's label (``block_labels._next_cell``): 舊唐書
  經籍志's ``老子二卷(老子撰)　　　　　老子二卷(河上公注)`` read it as one, which made the juan a 注疏 (its size cuts
  then fell inside entries, KR2a0026_047's line 802).
"""
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.entries import is_zhushu
from reader.importers.mandoku.offices import right_office

# 御批歷代通鑑輯覽 KR2b0037_085.txt (卷八十六): the head and its first lines (1-15), then lines 1070-1076: the 綱
# 冬十月何若請黜程頤之學 flush, its 目 a column lower opening with the office 右正言, the next 綱.
JILAN_85 = (
    '# -*- mode: mandoku-view; -*-\n'
    '#+TITLE: 御批歷代通鑑輯覽\n'
    '#+DATE: 2015-08-24 22:25:44.605182\n'
    '#+PROPERTY: ID KR2b0037\n'
    '#+PROPERTY: BASEEDITION WYG    \n'
    '#+PROPERTY: JUAN 卷八十六\n'
    '<pb:KR2b0037_WYG_085-1a>¶\n'
    '欽定四庫全書¶\n'
    '御批歴代通鑑輯覽巻八十六¶\n'
    '宋¶\n'
    '髙宗皇帝¶\n'
    '(戊/午)紹興八年(金天眷/元年)春二月胡安國進春秋傳詔加安¶\n'
    '國寶文閣直學士¶\n'
    '\u3000自王安石廢春秋不列干學官安國以為先聖手所¶\n'
    '\u3000筆削之書天下事物無不備于此因潛心二十餘年¶\n'
    '\u3000鼎吉陽(鼎謝表冇日白首何歸悵餘生之無幾丹心/未泯誓九死以不移檜見曰此老倔強猶昔)¶\n'
    '冬十月何若請黜程頤之學¶\n'
    '\u3000右正言何若指張頤張載遺書為專門曲學請戒内¶\n'
    '\u3000外師儒之官力加禁絶秦檜從之¶\n'
    '十二月王倫為金所殺¶\n'
    '\u3000金欲以倫為平州路轉運使倫曰奉命而來非降也¶\n'
    '\u3000金脇以威遣使來趣倫拒益力金杖其使俾縊殺之¶\n'
)
# 文獻通考 KR2m0009_024.txt (卷二十四): the head (lines 1-14), then lines 214-220: the 詔 flush, 蘇轍's memorial
# a column lower opening with his office 右司諌.
TONGKAO_24 = (
    '# -*- mode: mandoku-view; -*-\n'
    '#+TITLE: 文獻通考\n'
    '#+DATE: 2015-08-24 22:49:32.297528\n'
    '#+PROPERTY: ID KR2m0009\n'
    '#+PROPERTY: BASEEDITION WYG    \n'
    '#+PROPERTY: JUAN 卷二十四\n'
    '<pb:KR2m0009_WYG_024-1a>¶\n'
    '欽定四庫全書¶\n'
    '\u3000文獻通考卷二十四¶\n'
    '\u3000\u3000鄱\u3000陽\u3000馬\u3000端\u3000臨\u3000貴\u3000與\u3000著¶\n'
    '\u3000國用考二¶\n'
    '\u3000\u3000歴代國用¶\n'
    '宋興而呉蜀江南荆湖南粤皆號富強相繼降附祖宗¶\n'
    '因其畜守以恭儉簡易方是時天下生齒尚寡而養兵¶\n'
    '<pb:KR2m0009_WYG_024-12b>¶\n'
    '詔曰邦賦之入盖有常制若不裁減浮費量入為出深¶\n'
    '慮有誤國計宜令户部尚書侍郎同相度裁減條析以¶\n'
    '聞¶\n'
    '\u3000右司諌蘇轍奏臣竊聞熙寧以來天下財賦文帳皆¶\n'
    '\u3000以時上於三司至熙寧五年朝廷患其繁冗始命曽¶\n'
    '\u3000布刪定法式布因上言三部胥吏所行職事非一不¶\n'
)
# 新五代史 KR2a0030_058.txt (卷五十八, 司天考): the head (lines 1-16), then lines 549-557: a table of a planet's
# phases, each figure's fraction in small print.
WUDAI_58 = (
    '# -*- mode: mandoku-view -*-\n'
    '#+TITLE: 新五代史\n'
    '#+DATE: 2018-03-31 09:03:24.682929\n'
    '#+PROPERTY: ID KR2a0030\n'
    '#+PROPERTY: BASEEDITION WYG\n'
    '#+PROPERTY: WITNESS master    \n'
    '#+PROPERTY: JUAN 卷五十八\n'
    '<pb:KR2a0030_WYG_058-1a>¶\n'
    '欽定四庫全書¶\n'
    '\u3000五代史巻五十八¶\n'
    '宋\u3000\u3000\u3000歐\u3000\u3000\u3000陽\u3000\u3000\u3000修\u3000\u3000\u3000撰¶\n'
    '¶\n'
    '嗚呼五代禮樂文章吾無取焉其後世有必欲知之者¶\n'
    '不可以遺也作司天職方考¶\n'
    '司天考第一¶\n'
    '司天掌日月星辰之象周天一歳四時二十四氣七十¶\n'
    '<pb:KR2a0030_WYG_058-25b>¶\n'
    '\u3000歴中一百八十二\u3000四千四百八十\u3000\u3000\u3000八十九¶\n'
    '變叚\u3000\u3000\u3000變日\u3000\u3000\u3000變度\u3000\u3000\u3000變歴¶\n'
    '晨見\u3000\u3000\u3000一十七\u3000\u3000三(三十七)\u3000\u3000二(二十四)¶\n'
    '順疾\u3000\u3000\u3000九十\u3000\u3000\u3000一十六(六十三)一十一(一十三)¶\n'
    '順遲\u3000\u3000\u3000二十五\u3000\u3000二\u3000九\u3000\u3000 \u3000\u3000一(二十九)¶\n'
    '前留\u3000\u3000\u3000二十六(三十二)¶\n'
    '退遲\u3000\u3000\u3000一十四\u3000\u3000一(一十二)\u3000\u3000空(二十八)¶\n'
    '<pb:KR2a0030_WYG_058-26a>¶\n'
)
# 新五代史 KR2a0030_071.txt (卷七十一): the head (lines 1-16), then lines 72-75: 徐無黨's note after the preface.
WUDAI_71 = (
    '# -*- mode: mandoku-view -*-\n'
    '#+TITLE: 新五代史\n'
    '#+DATE: 2018-03-31 09:03:24.784465\n'
    '#+PROPERTY: ID KR2a0030\n'
    '#+PROPERTY: BASEEDITION WYG\n'
    '#+PROPERTY: WITNESS master    \n'
    '#+PROPERTY: JUAN 卷七十一\n'
    '<pb:KR2a0030_WYG_071-1a>¶\n'
    '欽定四庫全書¶\n'
    '\u3000五代史巻七十一¶\n'
    '宋\u3000\u3000\u3000歐\u3000\u3000\u3000陽\u3000\u3000\u3000修\u3000\u3000\u3000撰¶\n'
    '¶\n'
    '十國世家年譜第十一¶\n'
    '嗚呼堯舜盛矣三代之王功有餘而徳不足故皆更始¶\n'
    '以自新由是改正朔矣至於後世遂名年以建元及僣¶\n'
    '竊交興而稱號紛雜則不可以不别也五代十國稱帝¶\n'
    '旻之世猶稱乾祐至承鈞立然後改元則旻之志豈不¶\n'
    '可哀也哉¶\n'
    '(十國年世惟楚閩東漢三國諸家之説不同而互有得失最難考正今畧具諸説而正其是者庶㡬博覽者不)¶\n'
    '(惑而一以年譜為正也○馬氏據湖湘故事九國志運歴圖竝云殷以長興元年卒是嵗子希聲立長興三年)¶\n'
)
# 舊唐書 KR2a0026_047.txt (卷四十七, 經籍志): the head (lines 1-16), then lines 74-92: the 道家's 老子 in two
# columns.
JIUTANG_47 = (
    '# -*- mode: mandoku-view -*-\n'
    '#+TITLE: 舊唐書\n'
    '#+DATE: 2018-03-31 09:03:18.477740\n'
    '#+PROPERTY: ID KR2a0026\n'
    '#+PROPERTY: BASEEDITION WYG\n'
    '#+PROPERTY: WITNESS master    \n'
    '#+PROPERTY: JUAN 卷四十七\n'
    '<pb:KR2a0026_WYG_047-1a>¶\n'
    '欽定四庫全書¶\n'
    '\u3000舊唐書卷四十七¶\n'
    '後晉司空同中書門下平章事劉\u3000昫撰¶\n'
    '¶\n'
    '\u3000經籍志第二十七¶\n'
    '¶\n'
    '經籍下¶\n'
    '¶\n'
    '右儒家二十八部凡七百七十六卷¶\n'
    '¶\n'
    '老子二卷(老子撰)\u3000\u3000\u3000\u3000\u3000老子二卷(河上公注)¶\n'
    '<pb:KR2a0026_WYG_047-4b>¶\n'
    '老子章句二卷(安丘望之撰)¶\n'
    '老子道徳經指趣四卷(安丘望之撰)¶\n'
    '老子二卷(湘注)\u3000\u3000\u3000\u3000\u3000\u3000玄言新記道徳二卷(王弼注)¶\n'
    '老子二卷(鍾㑹注)\u3000\u3000\u3000\u3000\u3000老子二卷(羊祜注)¶\n'
    '老子二卷(程韶集注)\u3000\u3000\u3000\u3000\u3000老子二卷(王尚注)¶\n'
    '老子二卷(蜀才注)\u3000\u3000\u3000\u3000\u3000老子二卷(孫登注)¶\n'
    '老子二卷(袁真注)\u3000\u3000\u3000\u3000\u3000老子二卷(張憑注)¶\n'
    '<pb:KR2a0026_WYG_047-5a>¶\n'
    '老子二卷(鳩摩羅什注)\u3000\u3000\u3000\u3000老子二卷(釋惠嚴注)¶\n'
    '老子四卷(陶弘景注)\u3000\u3000\u3000\u3000\u3000老子道徳經品四卷(梁曠注)¶\n'
    '老子二卷(樹鍾山注)\u3000\u3000\u3000\u3000\u3000老子二卷(傅奕注)¶\n'
    '老子二卷(楊上善注)\u3000\u3000\u3000\u3000\u3000老子集注四卷(張道相集注)¶\n'
    '老子二卷(辟閭仁諝注)\u3000\u3000\u3000\u3000老子二卷(成玄英注)¶\n'
    '老子二卷(李允愿注)\u3000\u3000\u3000\u3000\u3000老子二卷(陳嗣古注)¶\n'
    '老子二卷(釋義盈注)¶\n'
)


def test_an_office_of_a_left_right_pair_opening_a_line_closes_nothing():
    doc = parse_mandoku(JILAN_85, "KR2b0037_085.txt")
    assert [(s.title, s.closer) for s in doc.sections] == [
        ("", None), ("冬十月何若請黜程頤之學", None), ("十二月王倫為金所殺", None)]
    assert [(p.kind, p.text) for p in doc.sections[1].pieces] == [
        (LABEL, "冬十月何若請黜程頤之學"), (TEXT, "右正言何若指張頤張載遺書為專門曲學請戒内外師儒之官力加禁絶秦檜從之")]
    assert render_mandoku(doc) == JILAN_85


def test_a_quoted_memorial_opening_with_its_writers_office_closes_nothing():
    doc = parse_mandoku(TONGKAO_24, "KR2m0009_024.txt")
    assert [(s.title, s.closer) for s in doc.sections] == [("歴代國用", None)]
    assert doc.sections[0].pieces[-1].text.startswith("右司諌蘇轍奏臣竊聞熙寧以來天下財賦文帳皆以時上於三司")
    assert render_mandoku(doc) == TONGKAO_24


def test_offices_of_a_pair_in_any_form_and_closers_apart():
    assert [right_office(w) for w in ("右正言何若指", "右司諌蘇轍奏", "右司諫王覿", "右将軍亮聞", "右衞將軍虞𦙍",
                                      "右朝請大夫陳杌知通州", "右僕射李綱言", "右丞相薩布")] == [True] * 8
    # closers: 儀禮經傳通解 右庶子冠, 儀禮集說 右司馬命張侯倚旌, 禮書綱目 右布政 and 右衛兵, 經籍考 右正史, a 章
    assert [right_office(w) for w in ("右庶子冠", "右司馬命張侯倚旌", "右布政　衞莊公改舊制", "右衛兵", "右正史",
                                      "右第一章", "右經一章", "正言何若")] == [False] * 8


def test_a_figures_fraction_in_a_tables_row_is_the_authors():
    doc = parse_mandoku(WUDAI_58, "KR2a0030_058.txt")
    notes = [(p.effective_layer, p.layer_name, p.commentator, p.text) for p in doc.all_pieces() if p.kind == NOTE]
    assert notes == [(COMMENTARY, "自注", "歐陽修", figure) for figure in (
        "三十七", "二十四", "六十三", "一十三", "二十九", "三十二", "一十二", "二十八")]
    assert render_mandoku(doc) == WUDAI_58


def test_the_commentators_note_outside_a_table_stays_his():
    doc = parse_mandoku(WUDAI_71, "KR2a0030_071.txt")
    notes = [(p.layer_name, p.commentator, p.text[:8]) for p in doc.all_pieces() if p.kind == NOTE]
    assert notes == [("注", "徐無黨", "十國年世惟楚閩東")]


def test_the_second_column_of_a_list_is_no_blocks_label():
    doc = parse_mandoku(JIUTANG_47, "KR2a0026_047.txt")
    assert not any(p.kind == LABEL for p in doc.all_pieces())
    assert not is_zhushu(doc)
    second = [p.text for p in doc.all_pieces() if p.kind == TEXT and p.text.startswith("\u3000")]
    assert second[:3] == ["\u3000" * 5 + "老子二卷", "\u3000" * 6 + "玄言新記道徳二卷", "\u3000" * 5 + "老子二卷"]
    assert all(p.effective_layer == CLASSIC for p in doc.all_pieces() if p.kind == TEXT)
    assert render_mandoku(doc) == JIUTANG_47
