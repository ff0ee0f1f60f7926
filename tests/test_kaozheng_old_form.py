"""A juan's 考證 headed with 考's old form, 攷證 (舊五代史 WYG KR2a0029: ``#+PROPERTY: JUAN 卷一攷證`` over
``　舊五代史巻一攷證``, 115 of its 考證 files), is the 四庫 editors' collation notes as a 考證 file is
(``header.KAOZHENG``): ``editorial``, named 考證, no classic. The excerpt is the head of KR2a0029_004 (the
held-out 史部 of ``kanripo-scale``, not in ``../shared/corpus``'s folders) closed by its end title."""
from reader.importers.document import EDITORIAL, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

#: The first two entries of 舊五代史 卷一攷證 (KR2a0029_004, lines 1–19) and the 考證's end title.
OLD_FORM = (
    "# -*- mode: mandoku-view; -*-\n#+TITLE: 舊五代史\n#+DATE: 2015-08-24 22:21:24.318678\n"
    "#+PROPERTY: ID KR2a0029\n#+PROPERTY: BASEEDITION WYG    \n#+PROPERTY: JUAN 卷一攷證\n"
    "<pb:KR2a0029_WYG_004-1a>¶\n\u3000舊五代史巻一攷證¶\n"
    "梁太祖紀一九月帝遂與左右定計斬偽監軍使嚴實¶\n"
    "\u3000降於重榮\u3000案舊唐書僖宗紀朱温之降繫八月與¶\n"
    "\u3000是書異新唐書及通鑑俱繫九月與是書同疑舊唐¶\n"
    "\u3000書誤\u3000又嚴實原本訛作嚴貴今據歐陽史及通鑑¶\n"
    "\u3000改正¶\n"
    "乃詔授帝左金吾衛大將軍充河中行營副招討使¶\n"
    "\u3000案歐陽史云王鐸承制拜温金吾衛大將軍河中行¶\n"
    "<pb:KR2a0029_WYG_004-1b>¶\n"
    "\u3000營招討副使與是書謂僖宗招授者異攷舊唐書及¶\n"
    "\u3000通鑑則王鐸承制所拜乃華同節度在僖宗詔授以¶\n"
    "\u3000前歐陽史以詔授為王鐸承制當是删并之誤¶\n"
    "\u3000舊五代史巻一攷證¶\n")


def pieces(text: str) -> list[tuple[str, str, str, int, str]]:
    """``(kind, layer, layer name, characters, first 10 characters)`` of each piece of ``text`` parsed."""
    doc = parse_mandoku(text, "KR2a0029_004.txt")
    return [(p.kind, p.effective_layer, p.layer_name, len(p.text), p.text[:10]) for p in doc.all_pieces()]


def test_a_juan_of_kaozheng_headed_with_the_old_form_is_the_editors_notes():
    doc = parse_mandoku(OLD_FORM, "KR2a0029_004.txt")
    assert (doc.juan_label, doc.juan_parts) == ("卷一攷證", ["卷一攷證"])
    assert pieces(OLD_FORM) == [(TEXT, EDITORIAL, "考證", 83, "梁太祖紀一九月帝遂與"),
                                (TEXT, EDITORIAL, "考證", 98, "乃詔授帝左金吾衛大將")]
    assert render_mandoku(doc) == OLD_FORM


def test_the_old_form_reads_as_the_common_one():
    """The same file headed 考證 (as 舊五代史's other 考證 files are, KR2a0029_218 ``JUAN 卷一百九考證``)
    is read alike, piece for piece."""
    assert pieces(OLD_FORM.replace("攷證", "考證")) == pieces(OLD_FORM)
