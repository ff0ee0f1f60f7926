"""How the host of an annotation's web link is shown: a label written wholly in letters of another
script that look like Latin letters (``раураӏ.com``, every letter Cyrillic, its ӏ the palochka;
``ικον.com`` in Greek) is shown in punycode (``xn--80aa0cbo65f.com``, ``xn--uxacjh.com``), as the
browsers show it, where that script is not the one its top-level domain is written for; every other
host as written.

The rule is Chromium's IDN display policy, step 10, whole-script confusables
(https://chromium.googlesource.com/chromium/src/+/main/docs/idn.md; its data,
``kWholeScriptConfusables`` in ``components/url_formatter/spoof_checks/idn_spoof_checker.cc``:
for each script, its letters that look like Latin ones and the top-level domains that hold most
domains written in it); Firefox shows such Cyrillic labels in punycode too (its preference
``network.idn.punycode_cyrillic_confusables``). The link is taken, not refused: a Russian scholar's
``историк.com`` holds и and т, which no Latin letter looks like, and is shown as written, and so is
``сосо.ru`` (Cyrillic look-alikes under a top-level domain of many Cyrillic names) or a label under
a top-level domain written in that script (``сосо.рф``); only the look-alike label under another
domain reads as something it is not, and is shown as the address it is. A label that mixes Latin,
Greek and Cyrillic letters is refused (``links._check_deceptive``).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit


@dataclass(frozen=True)
class LookAlikes:
    """One script of Chromium's table: ``script``, the prefix of its characters' Unicode names
    (``CYRILLIC``); ``letters``, those of its letters that look like Latin ones (lower case, as a
    host is); ``tlds``, the top-level domains written in Latin letters where labels in that script
    are many (``ru``), beside any written in the script itself (``рф``)."""

    script: str
    letters: frozenset[str]
    tlds: frozenset[str] = frozenset()


#: Chromium's ``kWholeScriptConfusables``, script by script (Thai with the larger set Chromium
#: uses on Linux, where the fonts make more of its letters look Latin).
WHOLE_SCRIPT_CONFUSABLES = (
    LookAlikes("ARMENIAN", frozenset("ագզէլհյոսւօՙ"), frozenset({"am"})),
    LookAlikes("CYRILLIC", frozenset("аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡ"),
               frozenset({"bg", "by", "kz", "pyc", "ru", "su", "ua", "uz"})),
    LookAlikes("ETHIOPIC", frozenset("ሀሠሰስበነተከዐዕዘጠፐꬅ"), frozenset({"er", "et"})),
    LookAlikes("GEORGIAN", frozenset("იოყძხჽჿ"), frozenset({"ge"})),
    LookAlikes("GREEK", frozenset("αικνρυωηοτ"), frozenset({"gr"})),
    LookAlikes("HEBREW", frozenset("דוחיןסװײ׳ﬦ"), frozenset({"il"})),
    LookAlikes("BENGALI", frozenset("০৭")),
    LookAlikes("DEVANAGARI", frozenset("ऽ०ॱ")),
    LookAlikes("GUJARATI", frozenset("ડટ૦૧")),
    LookAlikes("GURMUKHI", frozenset("੦੧")),
    LookAlikes("KANNADA", frozenset("ಽ೦೧")),
    LookAlikes("MALAYALAM", frozenset("ടഠധനറ൦")),
    LookAlikes("ORIYA", frozenset("ଠ୦୮")),
    LookAlikes("TAMIL", frozenset("டப௦")),
    LookAlikes("TELUGU", frozenset("౦౧")),
    LookAlikes("MYANMAR", frozenset("ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097"), frozenset({"mm"})),
    LookAlikes("THAI", frozenset("ทนบพรหเแ๐ดลปฟม"), frozenset({"th"})),
)


def _of(char: str, script: str) -> bool:
    """Whether ``char`` is of ``script`` (its Unicode name starts with the script's name)."""
    return unicodedata.name(char, "").startswith(script + " ")


def _unicode(label: str) -> str:
    """A label as written: ``xn--p1ai`` read back as ``рф``; any other as it is (one that is no
    punycode too)."""
    if not label.startswith("xn--"):
        return label
    try:
        return label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return label


def looks_latin(label: str, tld: str) -> bool:
    """Whether the host label ``label`` (lower case) is a whole-script confusable with Latin under
    the top-level domain ``tld``: for a script of ``WHOLE_SCRIPT_CONFUSABLES``, the label's letters
    are all of it (digits and hyphens aside; Chromium's rule reads a label of one script) and each is
    one of its Latin look-alikes, and ``tld`` is neither one of its ``tlds`` nor written in that
    script. ``looks_latin("раураl", "com")`` is False (its l is
    Latin: a mixed label, refused before), ``looks_latin("раура", "com")`` True,
    ``looks_latin("раура", "ru")`` and ``looks_latin("раура", "рф")`` False."""
    tld = _unicode(tld)
    for alikes in WHOLE_SCRIPT_CONFUSABLES:
        own = [c for c in label if _of(c, alikes.script)]
        if own and all(c in alikes.letters for c in own) \
                and all(_of(c, alikes.script) or not c.isalpha() for c in label) \
                and tld not in alikes.tlds and not any(_of(c, alikes.script) for c in tld):
            return True
    return False


def latin_beyond_ascii(label: str) -> bool:
    """Whether the host label ``label`` holds a Latin letter outside ASCII: ``ɡoogle`` (U+0261 LATIN
    SMALL LETTER SCRIPT G, which reads as g), ``ıbm`` (dotless ı), ``café``. No other script's
    table tells such a label, nor is it mixed (all its letters are Latin), so it was shown as
    written; Chromium shows a label whose skeleton is an ASCII one in punycode, and a label with any
    such letter is shown so here (a letter that looks like none, é, with it)."""
    return any(not c.isascii() and _of(c, "LATIN") for c in label)


def shown_url(url: str) -> str:
    """``url`` (an http(s) link, taken by ``links.clean_link``) as a page shows it: each label of its
    host that ``looks_latin`` under the host's top-level domain, or holds a Latin letter outside
    ASCII (``latin_beyond_ascii``), in punycode (``xn--…``, as IDNA writes it: ``"xn--" +
    label.encode("punycode")``), the rest as written; ``url`` itself when no label does."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    labels = host.split(".")
    shown = [f"xn--{label.encode('punycode').decode('ascii')}"
             if looks_latin(label, labels[-1]) or latin_beyond_ascii(label) else label
             for label in labels]
    if shown == labels:
        return url
    # the port as written (``parts.port`` raises ValueError for one past 65535, which a link
    # stored before ``links.clean_link`` refused it may hold)
    _host, colon, port = parts.netloc.rpartition("]")[2].rpartition(":")
    netloc = ".".join(shown) + (f":{port}" if colon and port else "")
    return urlunsplit(parts._replace(netloc=netloc))
