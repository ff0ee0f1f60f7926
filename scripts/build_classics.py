"""Build the reference text of each classic that the 注疏 layer step matches against.

Reads ``../shared/corpus`` (Kanripo, CC BY-SA 4.0) and writes
``reader/importers/mandoku/data/classics/<book>.txt``: a header of ``#`` lines naming the
source files, their commit and the licence, then the classic's text, one line per source
file, small print, page breaks, punctuation and numbering dropped (the characters as the
source writes them: the layer step folds variants when it matches).

Sources (how each marks its classic):

* 尚書 (``shu``): 欽定書經傳說彙纂 KR1b0046, printed lines at indentation 0, and at 1 for
  the first passage after a 篇 heading (indented 3 or more), which is printed one step in
  with its commentary (卷二十 康王之誥); the commentary 集傳/集說 is indented more, title
  lines (欽定…) and lines led by a label (集傳…) are left out; 書序 included.
* 詩經 (``shi``): 欽定詩經傳說彙纂 KR1c0044: in 卷一–卷二十一 a paragraph that starts at
  indentation 0 (a stanza, ``○維鵲有巢…``), or at indentation 1 right after a heading or
  note indented 2 or more (the first stanza after a 國風 heading); in 詩序上/下 every
  paragraph at indentation 0 or 1 not led by a label (集傳, 集說, 辯說, 總論, 附錄, 案).
  A paragraph goes on below a full printed line and where a line opens with small print.
* 春秋經 (``chunqiu``) and 左傳 (``zuozhuan``, 經 and 傳 in reading order): 春秋左傳
  KR1e0001 (tls edition), lines numbered ``A…`` (經) and ``B…`` (傳) with the lines that
  follow them; ``《…》`` year headings dropped.
* 公羊傳 (``gongyang``): no edition in the corpus holds it whole; 欽定春秋傳說彙纂 KR1e0094
  quotes passages of it in small print, ``公羊(…)`` at indentation 1 with the ``(…)`` lines at
  indentation 1 below (its own notes are indented 2): one line per quotation (about 16,000
  characters, a third of the 傳).

* 周禮 (``zhouli``): the tls 白文 edition KR1d0001 (kanripo): every line but org headings,
  numbering and punctuation dropped.
* 儀禮 (``yili``): the 四部叢刊 edition with 鄭氏注 KR1d0026 (kanripo), the full-size text of
  every line but the title lines (…卷第N…).
* 儀禮, a second text (``yili.judou``): 儀禮鄭註句讀 KR1d0038 (kanripo, WYG), 卷一 to 卷十七
  (files 001–017), the full-size text of the lines printed flush (indentation 0) but the title
  line 欽定四庫全書, and of 喪服's 傳, printed one step in from its 傳曰: the classic is printed
  flush with 鄭注 and 張爾岐's remarks in small print after it, and the 篇 titles, the 右…
  closers of his sections, his 記… labels and the byline are indented (``judou``).
  ``run_on_notes`` reads 儀禮經傳通解 by it, which the layer check measures against the 四部叢刊
  儀禮 (KR1d0026), as the 注疏 step reads a 儀禮注疏 by ``yili``, which a 注疏 checked against
  儀禮鄭註句讀 is independent of.

The references of the other five are built from an edition other than the one the layer
check (``manage.py check_layers --shared``) measures them against, so that the check's
figure tells how the importer does with a reference it was not measured by:

* 周易 (``yi``, 經 with 彖 象 文言 in 王弼's order, then 繫辭 說卦 序卦 雜卦): 合訂刪補大易集義粹言
  KR1a0139 (kanripo-jingbu, WYG), 卷一 on (files 003–): the classic is printed flush, every
  line of the commentary indented; title lines, headings (…傳, 上經) and small print left out.
  (御纂周易折中 KR1a0117 prints 彖 and 象 apart from the 經, in 朱熹's order, which no 注疏
  follows.)
* 孟子 (``mengzi``): the tls 白文 KR1h0001 (趙岐's text, as the 注疏 print it): every line but
  org headings, numbering and punctuation (``tls``). Not in the shared corpus: give a local copy
  (``git clone https://github.com/kanripo/KR1h0001``, commit
  8decdf43d5a82b779f7950a7782b9a5e09659564) with ``--kanripo DIR``; without it the shipped file
  is kept.
* 論語 (``lunyu``): 四書大全 KR1h0043 (kanripo-jingbu, WYG), files 001–020 (論語集註大全)
  (``sishu``; files 021–034, 孟子集註大全, up to 中庸章句序, are read the same way). Classic and
  集註 both open a paragraph at indentation 2; a printed line of the classic holds 21
  characters, one of the 集註 20 (small print counts half), so a paragraph whose second line is
  21 wide is the classic, one whose second line is 20 wide the 集註; the classic runs on
  while its lines are full (21) and stops before a full 集註 line (one ending with small
  print opened on it is the passage's last line, its readings: ``此心之所以合於王者何也(說音
  恱…)``); a paragraph whose first line opens small print with a name and 曰 (大全's
  collected remarks, ``怨而不怒(慶源輔氏曰…)``) is the 集註, however wide. A short paragraph is
  told by the book's order: classic and 集註 alternate, a 章 opens with ○, a 篇 heading
  and its note (…凡N章) come before the first 章. Checked against the 四部叢刊 editions: about
  95 % of the characters taken are the classic, the rest 集註 words.
* 孝經 (``xiaojing``): 御纂孝經集註 KR1f0012 (WYG), file 001: the 今文 text in 十八章 as 唐玄宗's
  注 reads it, printed at full size (each 章 opening with ○) with the 集註 in small print: the
  full-size text of every line at indentation 0 or 1 but the title lines (``yuzuan_xiaojing``).
  Not in the shared corpus: give a local copy of the repository (``git clone
  https://github.com/kanripo/KR1f0012``, then ``git -C KR1f0012 checkout
  0487974462477732fbf58c1e952154e831e1702e``) with ``--kanripo DIR`` (``DIR/KR1f0012/…``);
  without it the shipped file is kept. (The 宋本 古文孝經 printed after 古文孝經孔氏傳,
  KR1f0003, differs from 唐玄宗's text: 22 章, ``先之敬讓``.)
* 穀梁傳 (``guliang``): 欽定春秋傳說彙纂 KR1e0094, 卷一 on, in the book's order: the 經 (full
  size at indentation 0 or 1, not led by a label) and after each entry the passage of the 傳
  it quotes in small print led by 穀梁 (or 榖梁) at indentation 1 or 2 (``huizuan``); then the
  words of the passages 春秋大全 KR1e0074 quotes after 穀梁傳 in the note below each 經 entry
  (``daquan``) that the first lacks, each put in its place, looked for from its 經 entry on
  (``merge``): one line per file of
  KR1e0094, the 經 and the 傳 in reading order (about four fifths of the 傳). No whole
  穀梁傳 outside the check's reference (四部叢刊 KR1e0009) is in the corpus, and Kanripo's 白文
  (KR1e0008) is not whole either.

Usage: ``.venv/bin/python scripts/build_classics.py [--corpus ../shared/corpus] [--kanripo DIR]``.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
from reader.importers.mandoku.boundaries import match_form  # noqa: E402  (the reference step's own matching form)

OUT = BASE_DIR / "reader" / "importers" / "mandoku" / "data" / "classics"
#: The commit of kanripo/KR1h0001 (孟子, tls 白文) the 孟子 reference is built from.
MENGZI_COMMIT = "8decdf43d5a82b779f7950a7782b9a5e09659564"
#: The commit of kanripo/KR1f0012 (御纂孝經集註) whose file 001 the 孝經 reference is built from.
XIAOJING_COMMIT = "0487974462477732fbf58c1e952154e831e1702e"
LICENCE = "Licence: CC BY-SA 4.0 (Kanseki Repository, https://www.kanripo.org); this extract is shared alike."

PB = re.compile(r"<pb:[^>]*>")
SMALL = re.compile(r"\([^()]*\)?|^[^()]*\)")
LABELS = ("集傳", "集說", "集説", "辯說", "辯説", "總論", "附錄", "附録", "案", "謹案", "按")
PUNCT = re.compile(r"&KR\d+;|[，。：；「」『』、？！《》（）－*¶〓#()=\-\s.0-9A-Za-z䷀-䷿]")


def commit_of(corpus: Path, folder: str) -> str:
    """The commit SOURCES.md gives for a Kanripo folder."""
    for line in (corpus / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 2 and cells[1] == folder:
            m = re.search(r"\b[0-9a-f]{40}\b", line)
            if m:
                return m.group()
    return "unknown"


def body_lines(path: Path) -> list[tuple[int, str, str]]:
    """``(indent, text, raw)`` of each printed line of a mandoku file after its header:
    ``text`` is the full-size characters (small print, page breaks and ¶ dropped), ``raw``
    the line without indentation and ¶."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("<pb:"):
            continue
        line = PB.sub("", line).rstrip("¶")
        raw = line.lstrip("\u3000")
        indent = len(line) - len(raw)
        out.append((indent, re.sub(r"\([^()]*\)?", "", re.sub(r"^[^()]*\)", "", raw)) if "(" in raw or ")" in raw else raw, raw))
    return out


def width(indent: int, raw: str) -> float:
    """Print width of a line: full-size characters plus half the small print."""
    small = sum(len(m) for m in re.findall(r"\(([^()]*)", raw))
    full = len(re.sub(r"\([^()]*\)?", "", raw))
    return indent + full + small / 2


def paragraphs(lines, hanging: bool = True):
    """Paragraphs ``(first indent, text, first raw line)``: a line goes on with the paragraph
    above when it opens with small print or the line above is full (within 1.5 of the
    file's widest lines) and it neither opens with ○ nor with a label (nor, unless
    ``hanging``, stands less indented than the line above)."""
    widths = sorted(width(i, r) for i, _, r in lines if r)
    full = widths[int(len(widths) * 0.9)] - 1.5 if widths else 0
    out: list[list] = []
    prev_full = False
    prev_indent = 0
    for indent, text, raw in lines:
        if not raw:
            prev_full = False
            continue
        goes_on = out and (raw.startswith("(") or (prev_full and not raw.startswith("○")
                                                   and not raw.startswith(LABELS)
                                                   and (hanging or indent >= prev_indent)))
        if goes_on:
            out[-1][1] += text
        else:
            out.append([indent, text, raw])
        prev_full = width(indent, raw) >= full
        prev_indent = indent
    return out


def clean(text: str) -> str:
    """``text`` without ○, punctuation, numbering and markup; a Kanripo character entity
    (``&KR1234;``) stays whole."""
    return PUNCT.sub(lambda m: m.group() if m.group().startswith("&") else "", text.replace("○", ""))


def shu_preface(corpus: Path) -> list[str]:
    """The 書序 of 欽定書經傳說彙纂 (file 000, before its 御製序), one text per passage: the
    printed lines at indentation 0, and at 1 right after a line indented 2 or more (a passage
    printed at a page's top, ``秦穆公伐鄭…作秦誓``); each passage's 集傳 and 集說 left out."""
    passages: list[str] = []
    current: list[str] | None = None
    prev_indent = 0
    for indent, text, raw in body_lines(corpus / "kanripo-jingbu" / "KR1b0046" / "KR1b0046_000.txt"):
        if text.startswith("欽定書經傳說") and text.endswith("書序全"):
            break
        ok = text and not raw.startswith("(") and not raw.startswith(LABELS) and not text.startswith("欽定") and (
            indent == 0 or (indent == 1 and prev_indent >= 2))
        if raw:
            prev_indent = indent
        if ok:
            if current is None:
                current = []
                passages.append(current)
            current.append(text)
        elif raw:
            current = None
    return [clean("".join(p)) for p in passages]


#: A 篇 heading of 欽定書經傳說彙纂: a line indented 2 or more holding only the title (五子之歌,
#: 盤庚上); its base drops 上/中/下, and a 書序 passage names it when the words after its last 作
#: hold the base or the base's first two characters (大禹謨 in 作大禹臯陶謨益稷).
SHU_HEADING = re.compile(r"^[^()]{1,6}$")
#: How many 書序 passages on a heading may claim (the 序 of lost 篇 before its own): the
#: longest run of lost 篇 between two that stand is seven (商書, 咸有一德 to 盤庚); a heading
#: whose own 序 does not name it (微子: ``作誥父師少師``) must not claim a later one (微子之命).
SHU_REACH = 8


def shu(corpus: Path, preface: str = "") -> tuple[list[str], list[str]]:
    """The 尚書 of 欽定書經傳說彙纂, 卷一 on, with each passage of its 書序 (``shu_preface``) put
    before the 篇 it names (``…作五子之歌`` before 五子之歌), the passages of lost 篇 with the next
    one that stands, as a 注疏 edition prints them; ``preface`` (孔安國's 序) first. One line
    per file; the 書序 passages no heading claims stay in the first line."""
    folder = corpus / "kanripo-jingbu" / "KR1b0046"
    files = sorted(folder.glob("KR1b0046_*.txt"))[3:]
    xu = shu_preface(corpus)
    named = [p[p.rindex("作") + 1:] if "作" in p else "" for p in xu]
    cursor = 0
    texts = []
    for f in files:
        keep = []
        first = False  # in the first passage after a heading, printed one step in
        taken = False
        for i, t, r in body_lines(f):
            if not t or t.startswith("欽定"):
                continue
            label = r.startswith(LABELS)
            if i >= 2 and not label and SHU_HEADING.match(r):
                base = t.rstrip("上中下")
                k = next((k for k in range(cursor, len(xu)) if base and (base in named[k] or base[:2] in named[k])), None)
                if k is not None and k - cursor <= SHU_REACH:
                    keep.extend(xu[cursor:k + 1])
                    cursor = k + 1
            if i >= 3 and not label:
                first, taken = True, False  # a heading (篇 title)
            elif i == 0 and not label:
                keep.append(t)
                first = False
            elif i == 1 and not label and first:
                keep.append(t)
                taken = True
            elif taken:
                first = False  # the passage's commentary, indented deeper: the passage ended
        texts.append(clean("".join(keep)))
    head = preface + "".join(xu[cursor:])
    return ["KR1b0046_000.txt"] + [f.name for f in files], [head] + texts


def wenxuan_preface(corpus: Path, title: str) -> str:
    """A preface 文選 (李善註, KR4h0002, file 045) prints whole: the full-size lines at
    indentation 0 after the heading ``title`` (尚書序) and its byline, up to the next heading."""
    keep: list[str] = []
    inside = False
    for indent, text, raw in body_lines(corpus / "kanripo-commentary" / "KR4h0002" / "KR4h0002_045.txt"):
        if indent == 2 and text:
            if inside:
                break
            inside = text == title
        elif inside and indent == 0:
            keep.append(text)
    return clean("".join(keep))


def shi(corpus: Path) -> tuple[list[str], list[str]]:
    folder = corpus / "kanripo-jingbu" / "KR1c0044"
    files = sorted(folder.glob("KR1c0044_*.txt"))[3:]  # 卷一 … 詩序下 (000–002: front matter, 卷首)
    texts = []
    for f in files:
        preface = int(f.stem[-3:]) >= 24
        paras = paragraphs(body_lines(f), hanging=preface)
        keep = []
        for k, (indent, text, raw) in enumerate(paras):
            if text.startswith("欽定") or raw.startswith(LABELS) or raw.startswith("("):
                continue
            if preface:
                ok = indent <= 1
            else:
                ok = indent == 0 or (indent == 1 and k > 0 and paras[k - 1][0] >= 2)
            if ok:
                keep.append(text)
        texts.append(clean("".join(keep)))
    return [f.name for f in files], texts


def chunqiu(corpus: Path) -> tuple[list[str], list[str], list[str]]:
    folder = corpus / "kanripo" / "KR1e0001"
    files = sorted(folder.glob("KR1e0001_*.txt"))
    jing, both = [], []
    for f in files:
        kind = ""
        j, b = [], []
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or line.startswith("<pb:") or line.startswith("*"):
                continue
            line = PB.sub("", line).rstrip("¶")
            m = re.match(r"([AB])[0-9.]*", line)
            if m:
                kind = m.group(1)
                line = line[m.end():]
                if re.fullmatch(r"《[^》]*》\s*", line):
                    continue
            text = clean(line)
            if kind == "A":
                j.append(text)
            if kind:
                b.append(text)
        jing.append("".join(j))
        both.append("".join(b))
    return [f.name for f in files], jing, both


def quotations(corpus: Path, *labels: str) -> tuple[list[str], list[str]]:
    """The small-print quotations led by one of ``labels`` (公羊; 穀梁, 榖梁) in 欽定春秋傳說彙纂."""
    folder = corpus / "kanripo-jingbu" / "KR1e0094"
    files = sorted(folder.glob("KR1e0094_*.txt"))
    texts: list[str] = []
    for f in files:
        current = None
        for indent, _, raw in body_lines(f):
            label = next((w for w in labels if raw.startswith(w + "(")), None)
            if indent == 1 and label:
                current = [raw[len(label):]]
                texts.append(current)
            elif current is not None and indent == 1 and raw.startswith("("):
                current.append(raw)
            else:
                current = None
    return [f.name for f in files], [clean("".join(t).replace("/", "")) for t in texts]


#: Labels that lead a commentary or a note of 欽定春秋傳說彙纂 (left out of its 經).
HUIZUAN_LABELS = ("左傳", "左𫝊", "胡傳", "胡𫝊", "集說", "集説", "附錄", "附録", "公羊", "穀梁", "榖梁", "案", "謹案",
                  "欽定")


def huizuan(corpus: Path, *labels: str) -> tuple[list[str], list[str]]:
    """The 經 of 欽定春秋傳說彙纂 with the small-print quotations of one 傳 led by one of
    ``labels`` (穀梁, 榖梁) after the entry they follow, in the book's order: one line per
    file, 卷一 on. A 經 entry is the full-size text of a printed line at indentation 0 or 1
    not led by a label (its small print, variant readings and a year's 干支, dropped; a
    year heading ``(…)元年(…)`` gives 元年); a quotation is ``穀梁(…)`` at indentation 1 or
    2 with the ``(…)`` lines at the same indentation below it."""
    folder = corpus / "kanripo-jingbu" / "KR1e0094"
    files = sorted(folder.glob("KR1e0094_*.txt"))[3:]  # 卷一 on (000–002: preface, lists, 卷首)
    texts: list[str] = []
    for f in files:
        keep: list[str] = []
        quoting = None  # the indentation of the quotation being read
        for indent, text, raw in body_lines(f):
            label = next((w for w in labels if raw.startswith(w + "(")), None)
            if indent in (1, 2) and label:
                keep.append(re.sub(r"\)[^()]*$", ")", raw[len(label):]))
                quoting = indent
                continue
            if quoting == indent and raw.startswith("("):
                keep.append(re.sub(r"\)[^()]*$", ")", raw))
                continue
            quoting = None
            if indent <= 1 and text and not raw.startswith(HUIZUAN_LABELS) and not text.startswith(HUIZUAN_LABELS):
                keep.append(text)
        texts.append(clean("".join(keep).replace("/", "")))
    return [f.name for f in files], texts


#: Where a quotation in 春秋大全's notes ends: the next source it quotes (左傳, 公羊傳, 胡氏曰,
#: 程子曰, 汪氏克寛曰 …), ○, or an editor's remark (愚謂, 按).
DAQUAN_STOP = re.compile(r"○|[左公][羊]?傳|公羊|[\u4e00-\u9fff]{1,2}氏[\u4e00-\u9fff]{0,2}曰|[程朱張]子曰|愚[謂按案]|胡傳|今按|按")


def daquan(corpus: Path, *labels: str) -> list[tuple[str, str]]:
    """``(經 entry, quotation)`` for each passage of one 傳 that 春秋大全 KR1e0074 quotes in
    the small-print note below a 經 entry (printed full size at indentation 0), led by one
    of ``labels`` (穀梁傳, 榖梁傳) and ending where the next source starts (``DAQUAN_STOP``);
    in the book's order, 卷一 on."""
    folder = corpus / "kanripo-jingbu" / "KR1e0074"
    out: list[tuple[str, str]] = []
    for f in sorted(folder.glob("KR1e0074_*.txt"))[1:]:
        entry, note = None, []

        def flush():
            text = "".join(note).replace("/", "")
            for m in re.finditer("|".join(labels), text):
                rest = text[m.end():]
                stop = DAQUAN_STOP.search(rest)
                out.append((entry, clean(rest[:stop.start()] if stop else rest)))

        for indent, text, raw in body_lines(f):
            if indent == 0 and not raw.startswith("(") and text:
                if entry is not None:
                    flush()
                entry, note = clean(text), []
            elif indent == 0 and raw.startswith("(") and entry is not None:
                note.append(re.sub(r"\)[^()]*$", "", raw).replace("(", "").replace(")", ""))
            else:
                if entry is not None:
                    flush()
                entry, note = None, []
        if entry is not None:
            flush()
    return out


def merge(lines: list[str], quotes: list[tuple[str, str]], gram: int = 8, reach: int = 6000,
          back: int = 3000, entry_reach: int = 2000) -> list[str]:
    """``lines`` (one book's 經 and quotations, in order) with the words of ``quotes`` (``(經
    entry, quotation)`` of another book, in the same order) they lack put in their place: the
    quotation's stretches of ``gram`` characters found in ``lines`` (at most ``reach`` on from
    the last one placed) fix where it stands, and each run of three or more characters not
    found goes in after the character found before it (before the one after it, at the
    start); a quotation with nothing found goes in after its 經 entry (its last ``gram``
    characters, or the whole entry when shorter and at least four). The stretches are looked
    for from the quotation's 經 entry on when ``lines`` hold that entry once within
    ``entry_reach`` of the last words placed (a quotation follows its entry: 莊公三十年's
    ``齊人者齊侯也其曰人何也…`` is not drawn to 莊公四年's, worded alike). What is found twice
    stays once, so the text gains no repeated passages."""
    from bisect import bisect_left

    text = "\n".join(lines)
    form = match_form(text)
    inserts: list[tuple[int, int, str]] = []
    cursor = 0
    entry_at = 0  # where the last quotation's 經 entry was found
    for k, (entry, words) in enumerate(quotes):
        q = match_form(words)
        entry = match_form(entry)
        where = [-1] * len(q)
        # the quotation follows its 經 entry: its words are looked for from the entry on, so
        # that a passage an earlier year words alike (齊人者齊侯也其曰人何也, 莊公四年 and
        # 三十年) does not draw the words the first lacks to the earlier year
        # the entry within ``entry_reach`` of the last placed words (a year's 春王正月公即位
        # found years on would hold back every quotation after it), and found once there
        window = cursor + entry_reach
        at_entry = form.find(entry, entry_at, window) if len(entry) >= 4 else -1
        if at_entry >= 0 and form.find(entry, at_entry + 1, window) >= 0:
            at_entry = -1
        if at_entry >= 0:
            entry_at = at_entry
        lo = at_entry if at_entry >= 0 else max(0, cursor - back)
        for i in range(len(q) - gram + 1):
            at = form.find(q[i:i + gram], lo, cursor + reach)
            if at >= 0:
                for j in range(gram):
                    if where[i + j] < 0:
                        where[i + j] = at + j
        found = [i for i in range(len(q)) if where[i] >= 0]
        if not found:
            key = entry[-gram:] if len(entry) >= 4 else ""
            at = form.find(key, max(0, cursor - back), cursor + reach) if key else -1
            if at >= 0 and len(q) >= 3:
                inserts.append((at + len(key), k * 10000, words))
                cursor = at + len(key)
            continue
        i = 0
        while i < len(q):
            if where[i] >= 0:
                i += 1
                continue
            j = i
            while j < len(q) and where[j] < 0:
                j += 1
            if j - i >= 3:
                before = found[bisect_left(found, i) - 1] if found[0] < i else None
                at = where[before] + 1 if before is not None else where[j]
                inserts.append((at, k * 10000 + i, words[i:j]))
            i = j
        cursor = sorted(where[i] for i in found)[len(found) // 2]
    out, last = [], 0
    for at, _, words in sorted(inserts):
        out.append(text[last:at])
        out.append(words)
        last = at
    out.append(text[last:])
    return "".join(out).split("\n")


def tls(folder: Path, pattern: str) -> tuple[list[str], list[str]]:
    """A tls 白文 edition: each file's lines without org headings (``*…``), numbering and
    punctuation."""
    files = sorted(folder.glob(pattern))
    texts = []
    for f in files:
        keep = []
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.startswith(("#", "*", "<pb:")):
                continue
            keep.append(clean(PB.sub("", line)))
        texts.append("".join(keep))
    return [f.name for f in files], texts


#: A title line of a 四部叢刊 edition: 孟子卷第一, 儀禮卷第一, 孝經一卷, 春秋榖梁傳隱公第一.
SBCK_TITLE = re.compile(r"卷第|^\S{1,6}一卷$")


def sbck(folder: Path, pattern: str) -> tuple[list[str], list[str]]:
    """A 四部叢刊 edition with the classic at full size: the full-size text of each file's
    lines, title lines left out, the 重言/重意 labels of cross-references dropped."""
    files = sorted(folder.glob(pattern))
    texts = []
    for f in files:
        keep = []
        for _, text, raw in body_lines(f):
            if SBCK_TITLE.search(text):
                continue
            keep.append(text.replace("重言", "").replace("重意", ""))
        texts.append(clean("".join(keep)))
    return [f.name for f in files], texts


def judou(folder: Path) -> tuple[list[str], list[str]]:
    """儀禮鄭註句讀 (KR1d0038): the full-size text of each line printed flush in 卷一 to 卷十七
    (files 001–017), the title line 欽定四庫全書 left out, and of the lines of 喪服's 傳 (子夏's), printed
    one step in from a line opening 傳曰 (or 𫝊曰) on; 篇 titles, 右… closers, 張爾岐's 記… labels
    and the byline are indented otherwise and left out."""
    files = [folder / f"KR1d0038_{n:03d}.txt" for n in range(1, 18)]
    texts = []
    for f in files:
        keep, zhuan = [], False
        for indent, text, _ in body_lines(f):
            zhuan = indent == 1 and (zhuan or text.startswith(("傳曰", "𫝊曰")))
            if (indent == 0 and text != "欽定四庫全書") or zhuan:
                keep.append(text)
        texts.append(clean("".join(keep)))
    return [f.name for f in files], texts


#: A heading or title line of 大易集義粹言: 欽定四庫全書, …卷N, 上經, 繫辭上傳, 序卦傳.
JIYI_HEAD = re.compile(r"^(欽定四庫全書|.*卷[一二三四五六七八九十百]+.*|[上下]經|.{0,6}傳[上下]?)$")


def jiyi(folder: Path) -> tuple[list[str], list[str]]:
    """合訂刪補大易集義粹言: the lines printed flush (the classic), 卷一 on."""
    files = sorted(folder.glob("KR1a0139_*.txt"))[3:]
    texts = []
    for f in files:
        keep = [t for i, t, raw in body_lines(f) if i == 0 and t and not raw.startswith("(") and not JIYI_HEAD.match(t)]
        texts.append(clean("".join(keep)))
    return [f.name for f in files], texts


#: Printed width (characters, small print counting half, indentation left out) of a full
#: line of 四書大全's classic (21); a full line of its 集註 holds one less (20).
SISHU_CLASSIC = 20.5
#: A heading of 四書大全: 學而第一, 梁惠王章句上, …集註大全卷N, 欽定四庫全書, 凡N章.
SISHU_HEAD = re.compile(r"^(.{1,8}第[一二三四五六七八九十]+|.{1,6}章句[上下]|.*集註大全卷.*|欽定四庫全書|"
                        r"凡[一二三四五六七八九十]+章)$")


#: Small print opening with a name and 曰 (慶源輔氏曰, 朱子曰): 大全's collected remarks.
SISHU_COMMENTED = re.compile(r"\([^()/]{0,6}曰")


def sishu_lines(path: Path) -> list[list[tuple[int, str, float, bool, str]]]:
    """The paragraphs (runs of lines between empty ones) of a 四書大全 file, each line as
    ``(indent, full-size text, printed width without the indentation, whether the line ends
    with small print opened on it, the line as written)``; small print may run on over lines."""
    paras: list[list] = []
    para = None
    small = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("<pb:"):
            continue
        line = PB.sub("", line).rstrip("¶")
        raw = line.lstrip("\u3000")
        if not raw:
            para = None
            continue
        full, halves = [], 0
        for ch in raw:
            if ch in "()":
                small = ch == "("
            elif ch != "/":
                if small:
                    halves += 1
                else:
                    full.append(ch)
        if para is None:
            para = []
            paras.append(para)
        indent = len(line) - len(raw)
        # the classic's last line ends with its readings in small print: (說音恱…)
        gloss = raw.endswith(")") and "(" in raw
        para.append((indent, "".join(full), len(full) + halves / 2, gloss, raw))
    return paras


def sishu(files: list[Path], stop: str) -> list[str]:
    """The classic of 論語集註大全 or 孟子集註大全 (see the module docstring), up to the
    paragraph holding ``stop`` (the next book's title)."""
    texts = []
    for f in files:
        keep = []
        expect = True  # the book's order: the next paragraph is the classic
        for rows in sishu_lines(f):
            full = "".join(r[1] for r in rows)
            if stop in full:
                texts.append(clean("".join(keep)))
                return texts
            if SISHU_HEAD.match(full):
                expect = full.startswith("凡")  # after a 篇's note the first 章
                continue
            if rows[0][0] != 2:
                continue
            if SISHU_COMMENTED.search(rows[0][4]) and not full.startswith("○"):
                # 大全's collected remarks (慶源輔氏曰…) follow the 集註, never the classic,
                # whose small print is its readings (說音恱): 怨而不怒(慶源輔氏曰…)
                expect = True
                continue
            first = rows[0][2]
            if first >= SISHU_CLASSIC or full.startswith("○") or expect:
                k = 1
                while k < len(rows) and rows[k - 1][2] >= SISHU_CLASSIC and not (
                        SISHU_CLASSIC - 1 <= rows[k][2] < SISHU_CLASSIC and k < len(rows) - 1 and not rows[k][3]):
                    k += 1
                keep.append("".join(r[1] for r in rows[:k]))
                expect = k < len(rows)  # the 集註 followed in the same paragraph
            else:
                expect = True
        texts.append(clean("".join(keep)))
    return texts


def yuzuan_xiaojing(path: Path) -> list[str]:
    """The classic of 御纂孝經集註 (KR1f0012, file 001): the full-size text of every printed
    line at indentation 0 or 1 (the 經, each 章 opening with ○; the 集註 is in small print),
    the title lines (欽定四庫全書, 御纂孝經集註) and the 章 headings (indented 2 or more, 開宗明義章第一)
    left out."""
    keep = [text for indent, text, raw in body_lines(path)
            if indent <= 1 and text and text not in ("欽定四庫全書", "御纂孝經集註")]
    return [clean("".join(keep))]


def write(name: str, title: str, source: str, folder: str, commit: str, files: list[str], texts: list[str],
          also: tuple[str, ...] = ()) -> None:
    """Write ``data/classics/<name>.txt``: the header (title, source with its Kanripo folder,
    commit and files, ``also`` lines naming further sources, the licence, how it was built),
    then each non-empty text as one line."""
    header = [
        f"# {title}",
        f"# Source: {source}, Kanripo {folder} (https://github.com/kanripo/{folder}), commit {commit},",
        f"#   files {files[0]} … {files[-1]} ({len(files)}).",
        *(f"# Also: {line}" for line in also),
        f"# {LICENCE}",
        "# Built by scripts/build_classics.py: small print, page breaks, punctuation and numbering dropped;",
        "# characters as the source writes them (matching folds variants). One line per source file",
        "# (per quotation for 公羊); matches never run across lines.",
    ]
    OUT.mkdir(parents=True, exist_ok=True)
    body = [t for t in texts if t]
    (OUT / f"{name}.txt").write_text("\n".join(header + body) + "\n", encoding="utf-8")
    print(f"{name}: {sum(map(len, body)):,} characters from {len(files)} files")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=BASE_DIR.parent / "shared" / "corpus")
    ap.add_argument("--kanripo", type=Path, default=None,
                    help="a folder of local copies of Kanripo repositories not in the corpus (KR1f0012, KR1h0001)")
    args = ap.parse_args()
    c = args.corpus
    files, texts = shu(c, wenxuan_preface(c, "尚書序"))
    write("shu", "尚書 (孔安國's 序, then each 篇 with its 書序 passage before it)",
          "欽定書經傳說彙纂 (WYG), lines at indentation 0 (1 for a 篇's first passage), its 書序 (file 000) before the 篇s",
          "KR1b0046", commit_of(c, "KR1b0046"), files, texts,
          also=(f"文選 (李善註, WYG), Kanripo KR4h0002 (https://github.com/kanripo/KR4h0002), commit {commit_of(c, 'KR4h0002')}, "
                "file KR4h0002_045.txt: 孔安國's 尚書序, first.",))
    files, texts = shi(c)
    write("shi", "詩經 (the poems and 詩序)", "欽定詩經傳說彙纂 (WYG), stanzas and 詩序", "KR1c0044",
          commit_of(c, "KR1c0044"), files, texts)
    files, jing, both = chunqiu(c)
    write("chunqiu", "春秋經", "春秋左傳 (tls), lines numbered A", "KR1e0001", commit_of(c, "KR1e0001"), files, jing)
    write("zuozhuan", "春秋經 and 左傳, in reading order", "春秋左傳 (tls), lines numbered A and B", "KR1e0001",
          commit_of(c, "KR1e0001"), files, both)
    files, texts = quotations(c, "公羊")
    write("gongyang", "公羊傳, the passages 欽定春秋傳說彙纂 quotes (not the whole 傳)",
          "欽定春秋傳說彙纂 (WYG), small print led by 公羊", "KR1e0094", commit_of(c, "KR1e0094"), files, texts)
    files, texts = tls(c / "kanripo" / "KR1d0001", "KR1d0001_*.txt")
    write("zhouli", "周禮", "周禮 (tls 白文)", "KR1d0001", commit_of(c, "KR1d0001"), files, texts)
    files, texts = sbck(c / "kanripo" / "KR1d0026", "KR1d0026_*.txt")
    write("yili", "儀禮", "儀禮 鄭氏注 (四部叢刊), full-size text", "KR1d0026", commit_of(c, "KR1d0026"), files, texts)
    files, texts = judou(c / "kanripo" / "KR1d0038")
    write("yili.judou", "儀禮 (a second text, read by run_on_notes)", "儀禮鄭註句讀 (WYG), the full-size text printed flush",
          "KR1d0038", commit_of(c, "KR1d0038"), files, texts)
    jing = c / "kanripo-jingbu"
    files, texts = jiyi(jing / "KR1a0139")
    write("yi", "周易 (經, 彖, 象 and 文言 in 王弼's order; 繫辭, 說卦, 序卦, 雜卦)",
          "合訂刪補大易集義粹言 (WYG), the lines printed flush", "KR1a0139", commit_of(c, "KR1a0139"), files, texts)
    folder = jing / "KR1h0043"
    files = [folder / f"KR1h0043_{n:03d}.txt" for n in range(1, 21)]
    write("lunyu", "論語", "四書大全 (WYG), the classic of 論語集註大全", "KR1h0043", commit_of(c, "KR1h0043"),
          [f.name for f in files], sishu(files, "孟子集註序說"))
    local = args.kanripo / "KR1h0001" if args.kanripo else None
    if local and (local / "KR1h0001_001.txt").exists():
        files, texts = tls(local, "KR1h0001_*.txt")
        write("mengzi", "孟子 (趙岐's text, as the 注疏 print it)", "孟子 (tls 白文)", "KR1h0001", MENGZI_COMMIT,
              files, texts)
    else:
        print("mengzi: kept (no local copy of KR1h0001: --kanripo DIR)")
    files, texts = huizuan(c, "穀梁", "榖梁")
    texts = merge(texts, daquan(c, "穀梁傳", "榖梁傳"))
    write("guliang", "春秋經 and the passages of 穀梁傳 that 欽定春秋傳說彙纂 and 春秋大全 quote, in reading order (not the whole 傳)",
          "欽定春秋傳說彙纂 (WYG), the 經 and the small print led by 穀梁", "KR1e0094", commit_of(c, "KR1e0094"), files, texts,
          also=(f"春秋大全 (WYG), Kanripo KR1e0074 (https://github.com/kanripo/KR1e0074), commit {commit_of(c, 'KR1e0074')}: "
                "the words of its quotations led by 穀梁傳 that the first lacks, each in its place (merge).",))
    local = args.kanripo / "KR1f0012" / "KR1f0012_001.txt" if args.kanripo else None
    if local and local.exists():
        write("xiaojing", "孝經 (今文, 唐玄宗's text: 十八章)", "御纂孝經集註 (WYG), file 001: the classic at full size",
              "KR1f0012", XIAOJING_COMMIT, [local.name], yuzuan_xiaojing(local))
    else:
        print("xiaojing: kept (no local copy of KR1f0012: --kanripo DIR)")

if __name__ == "__main__":
    main()
