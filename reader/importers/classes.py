"""The class of Kanripo's catalogue a work from another source prints for itself (a 四庫 提要
page's 部 and 類), found by name."""
from catalogue.catalogue import classes
from characters.folding import fold


def printed_class(siku_class: tuple[str, ...]) -> tuple[str, str]:
    """``(class code, 屬)`` of Kanripo's catalogue for the class a 四庫 提要 page prints
    (``JuanDocument.siku_class``, ``("经部", "礼类", "仪礼之属")`` → ``("KR1d", "儀禮之屬")``):
    the 類 of that name under that 部, else the 部 alone, the names compared folded (a
    simplified print's 礼类 is the catalogue's 禮類; the 四庫's classes are Kanripo's). The 屬
    as the catalogue writes such names (folded); ``("", "")`` when nothing matches. An
    ``import_texts --class`` or the admin overrides it."""
    if not siku_class:
        return "", ""
    bu, lei, shu = (fold(name) for name in siku_class)
    known = classes().values()
    bu_code = next((c.code for c in known if c.level == "bu" and fold(c.name) == bu), "") if bu else ""
    lei_code = next((c.code for c in known if c.level == "lei" and fold(c.name) == lei
                     and (not bu_code or c.parent == bu_code)), "") if lei else ""
    return (lei_code, shu) if lei_code else (bu_code, "")
