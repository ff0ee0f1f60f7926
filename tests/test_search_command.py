"""The command-line search prints KWIC lines."""
import pytest
from django.core.management import CommandError, call_command


def test_kwic_lines(seed_backend, capsys):
    call_command("search", "戒射宰戒", "--layer", "text", "--context", "4")
    assert capsys.readouterr().out.splitlines() == [
        "禮書綱目 卷十 1「戒百官」\t經文\t儀君有命[戒射宰戒]百官有事",
        "1 hits in 1 passages",
    ]


def test_limit_and_layers(seed_backend, capsys):
    call_command("search", "鵠", "--layer", "notes", "--limit", "2", "--context", "2")
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "19 hits in 5 passages"
    assert out[:2] == ["禮書綱目 卷十 2「張侯」\t注\t者豹[鵠]而麋", "禮書綱目 卷十 2「張侯」\t注\t者豻[鵠]豻飾"]


def test_bad_query(seed_backend):
    with pytest.raises(CommandError, match="unbalanced quote"):
        call_command("search", '"射')


@pytest.mark.parametrize("query", ["", "  ", "\u3000"])
def test_an_empty_query_is_a_clear_error(seed_backend, capsys, query):
    """``manage.py search ""`` ended in a traceback (AttributeError: 'NoneType' object has no
    attribute 'parsed'): the form reads an empty query as no search."""
    with pytest.raises(CommandError) as info:
        call_command("search", query)
    assert str(info.value) == "請輸入檢索詞 (an empty query: give the characters to search for)"
    assert capsys.readouterr().out == ""


def test_work_and_edition_by_slug_or_id(seed_backend, seed_juan, capsys):
    """``--work``/``--edition`` took numeric ids only; slugs, as the pages and the API take them, work too."""
    expected = ["禮書綱目 卷十 1「戒百官」\t經文\t儀君有命[戒射宰戒]百官有事", "1 hits in 1 passages"]
    for option, value in (("--work", "禮書綱目"), ("--work", str(seed_juan.work_id)), ("--edition", "禮書綱目"),
                          ("--edition", str(seed_juan.edition_id))):
        call_command("search", "戒射宰戒", option, value, "--context", "4")
        assert capsys.readouterr().out.splitlines() == expected, (option, value)
    with pytest.raises(CommandError, match=r"no work '周禮': see /api/works/"):
        call_command("search", "戒射宰戒", "--work", "周禮")
    with pytest.raises(CommandError, match=r"no edition 'KR1d0086-WYG': see the editions in /api/works/"):
        call_command("search", "戒射宰戒", "--edition", "KR1d0086-WYG")
