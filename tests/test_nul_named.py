"""A NUL (U+0000) in a parameter is a 400 naming the parameter, its value (the NUL shown as ␀) and the
column (``reader.validation.nul_message``), in the API and on the pages alike: ``commentator=孔%00安國``
is never read as 孔 (the text before it), nor ``commentator=%00`` as no filter. (A shell cannot pass a
NUL in an argument: ``$'孔\\x00安國'`` is 孔 by the time curl sees it, and ``commentator=孔`` is answered as
asked; send ``%00`` in the URL.)"""
import pytest

from reader.validation import MESSAGE


@pytest.mark.parametrize("path", ["/api/search/", "/search/"])
@pytest.mark.parametrize(("query", "named"), [
    ("q=%E4%B9%9F&commentator=%E5%AD%94%00%E5%AE%89%E5%9C%8B",
     "參數「commentator」的值「孔␀安國」第 2 字是 NUL (parameter 'commentator', column 2)"),
    ("q=%E4%B9%9F&commentator=%00", "參數「commentator」的值「␀」第 1 字是 NUL (parameter 'commentator', column 1)"),
    ("q=%E4%B9%9F&author=%E9%84%AD%00", "參數「author」的值「鄭␀」第 2 字是 NUL (parameter 'author', column 2)"),
    ("q=%E4%B9%9F%00", "參數「q」的值「也␀」第 2 字是 NUL (parameter 'q', column 2)"),
    ("q=%E4%B9%9F&work%00=1", "參數「work␀」的值「work␀」第 5 字是 NUL (parameter 'work␀', column 5)"),
])
def test_a_nul_is_a_400_naming_the_parameter(client, seed_backend, path, query, named):
    response = client.get(f"{path}?{query}")
    assert response.status_code == 400
    expected = f"{MESSAGE} {named}"
    assert (response.json() == {"detail": expected}) if path.startswith("/api/") else response.content.decode() == expected


def test_a_nul_in_the_path_is_named_so(client, seed_backend):
    response = client.get("/works/%E7%A6%AE%00/juan/10/")
    assert (response.status_code, response.content.decode()) == (400, f"{MESSAGE} 網址路徑「/works/禮␀/juan/10/」第 9 字是 NUL (the path, column 9)")
