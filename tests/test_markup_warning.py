"""An editor is warned of markup-like text (``<img …>``, ``<script>``, ``&lt;``) in a proposal's
new text or note before accepting it (``corrections.markup``): it was escaped everywhere, but
nothing told the editor that a proposal held a web page's tag rather than the book's text."""
import pytest
from django.test import Client

from corrections.markup import markup_like
from corrections.workflow import accept, propose

from .test_corrections import account, people  # noqa: F401 - the fixture

IMG = "<img src=x onerror=alert(1)>"


@pytest.mark.parametrize("text,found", [
    (f"樂入{IMG}", [IMG]),
    ("<script>alert('射')</script>樂<SCRIPT>", ["<script>", "</script>", "<SCRIPT>"]),
    ("<!-- x --><!DOCTYPE html><?xml version='1.0'?>", ["<!--", "<!DOCTYPE html>", "<?xml version='1.0'?>"]),
    ("&lt;b&gt; &#60; &#x3C; &amp;", ["&lt;", "&gt;", "&#60;", "&#x3C;", "&amp;"]),
    ("<p>一</p><p>二</p>", ["<p>", "</p>"]),                       # each once, in order
    ("<a><b><i><u><s><q>", ["<a>", "<b>", "<i>", "<u>", "<s>"]),     # at most five
    ("<div " + "x" * 60 + ">", ["<div " + "x" * 35 + "…"]),          # cut after 40 characters
    # no markup: the book's brackets, a gaiji entity, a lone < or &, a comparison
    ("〈大射〉《儀禮》＜img＞", []),
    ("射&KR0237;侯 &KR1969;", []),
    ("a < b, 3<4 & 5>2, <", []),
    ("", []),
    (None, []),
])
def test_what_reads_as_markup(text, found):
    assert markup_like(text) == found


WARNING = ('<div class="markup-warning" id="markup-warning" role="note">\n'
           '<p><strong>注意：所提新文字含有像網頁標記（HTML）的文字</strong>：<code>&lt;img src=x onerror=alert(1)&gt;</code>'
           '。本站處處把它當作文字顯示，不會執行；但書中沒有這種文字，多是從網頁誤貼，或有意試探本站。'
           '採納前請核對：先刪去再採納，或不採納。</p>\n'
           '<p lang="en"><strong>Warning: the proposed new text holds what looks like HTML markup</strong>: '
           '<code>&lt;img src=x onerror=alert(1)&gt;</code>. It is shown as plain text everywhere, never run; but '
           'books hold no such text: it was most likely pasted from a web page, or written to probe the site. '
           'Check it before accepting: edit it out first, or reject the proposal.</p>\n</div>')


def test_the_editor_is_warned_on_the_proposal_page_and_in_the_queue(seed_juan, people):
    p = propose(people["contributor"], seed_juan, kind="text", section=3, piece=0, start=0, end=2,
                replacement=f"樂入{IMG}", reason="他本")
    plain = propose(people["contributor"], seed_juan, kind="text", section=3, piece=0, start=2, end=3,
                    replacement="&KR0237;", reason="他本")
    editor = Client()
    editor.force_login(people["editor"])
    page = editor.get(f"/corrections/{p.pk}/").content.decode()
    assert WARNING in page
    assert page.index(WARNING) < page.index('<dl class="proposal">') < page.index('value="accept"')
    assert ('<textarea id="replacement" name="replacement" rows="2" aria-describedby="markup-warning">'
            '樂入&lt;img src=x onerror=alert(1)&gt;</textarea>') in page
    assert "<img src=x" not in page    # escaped, as everywhere
    queue = editor.get("/corrections/").content.decode()
    assert queue.count('<p class="markup-warning">') == 1
    assert ('<p class="markup-warning">注意：含有像網頁標記（HTML）的文字：<code>&lt;img src=x onerror=alert(1)&gt;</code>'
            '（<span lang="en">looks like HTML markup</span>）：採納前請核對。</p>') in queue
    # a new text without markup (a gaiji entity is the project's own notation): no warning
    clean = editor.get(f"/corrections/{plain.pk}/").content.decode()
    assert "markup-warning" not in clean and '<textarea id="replacement" name="replacement" rows="2">' in clean
    # the proposer is not an editor: no warning on their own proposal's page
    assert "markup-warning" not in _client(people["contributor"]).get(f"/corrections/{p.pk}/").content.decode()
    # accepted (as written), another editor still reads the warning, without the advice to accept
    accept(p, people["editor"], reason="是")
    after = _client(people["editor2"]).get(f"/corrections/{p.pk}/").content.decode()
    assert "注意：所提新文字含有像網頁標記（HTML）的文字" in after and "採納前請核對" not in after


def test_a_note_is_named_as_a_note(seed_juan, people):
    p = propose(people["contributor"], seed_juan, kind="annotation", section=3, piece=0, start=0, end=2,
                replacement="見<script>alert(1)</script>", reason="r")
    page = _client(people["editor"]).get(f"/corrections/{p.pk}/").content.decode()
    assert ("<p><strong>注意：此注記含有像網頁標記（HTML）的文字</strong>：<code>&lt;script&gt;</code>、"
            "<code>&lt;/script&gt;</code>。") in page
    assert "<strong>Warning: the proposed note holds what looks like HTML markup</strong>" in page


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c
