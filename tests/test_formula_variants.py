"""A commentator's formula printed with a variant form of one of its characters is his formula
(``commentators._voices_of`` reads the note and the formulas folded, ``characters.folding``): 六臣註文選
writes 呂延濟's 濟曰 as 済曰 in 卷二十五, 卷三十 and 卷三十五 (15 times); 前漢書 writes 蘇林曰 as 蘓林曰,
晉灼曰 as 晋灼曰, 劉德曰 as 劉徳曰; the 四部叢刊 毛詩 writes 鄭玄's 箋云 as 䇳云 once. On real files of
``../shared/corpus``."""
from collections import Counter

from .test_commentary_editions import notes, parse


def test_liuchen_ji_written_with_its_variant_opens_lu_yanjis_part():
    """六臣註文選 卷三十 (謝靈運 田南樹園…): ``…兩都賦曰序時時間作済曰卧疾養疾也…`` was one 李善 part;
    済曰 opens 呂延濟's, and every 済曰 of the book does (they were 李善's, one nobody's)."""
    got = notes(parse("kanripo-commentary/KR4h0003/KR4h0003_030.txt"))
    at = next(k for k, n in enumerate(got) if n[3] == "兩都賦曰序時時間作")
    assert [(c, t) for c, _, _, t in got[at - 1:at + 3]] == [
        ("李善", "善曰國語憂施"), ("李善", "兩都賦曰序時時間作"), ("呂延濟", "済曰卧疾養疾也豊多也翰墨文"),
        ("李善", "之事君韋昭曰暇閑也豫樂也㱕田賦曰揮翰墨以奮藻")]
    opened = Counter()
    for name in ("025", "030", "035"):
        opened.update(c for c, _, _, t in notes(parse(f"kanripo-commentary/KR4h0003/KR4h0003_{name}.txt"))
                      if t.startswith("済曰"))
    assert opened == Counter({"呂延濟": 15})
    # the 16th: 済 at a column's end, 曰 in the next printed line's note
    assert ("呂延濟", "済") in [(c, t) for c, _, _, t in got]


def test_hanshu_and_maoshi_variant_formulas():
    """前漢書 卷二: 蘓林曰 is 蘇林's part of 顏師古's 注 (it was 顏師古's); 毛詩 (四部叢刊) 卷十八: 䇳云 opens
    鄭玄's 箋 after 毛亨's 傳 (it was 毛亨's)."""
    hanshu = notes(parse("kanripo-commentary/KR2a0007/KR2a0007_002.txt"))
    assert ("蘇林", "蘓林曰外郎散郎也") in [(c, t) for c, _, _, t in hanshu]
    maoshi = notes(parse("kanripo-references/KR1c0002/KR1c0002_018.txt"))
    at = next(k for k, n in enumerate(maoshi) if n[3] == "毖慎也")
    assert [(c, name, t) for c, _, name, t in maoshi[at:at + 2]] == [
        ("毛亨", "傳", "毖慎也"), ("鄭玄", "箋", "䇳云女爲軍旅之謀爲重慎兵事也而亂滋甚扵此日見侵削言其所任非賢")]
