"""What a respelling says of the books is true of them: a new user typed 万取千焉 (孟子 梁惠王上), was offered
萬取千焉, and read 「書中亦有此寫法」 ("the books also write it so") of 万, which no book of the library prints
(``q=万`` finds 0). The offer now names the spelling the books print, counted with the query's filters
(``search.hints.respellings``, ``search.service.query_hints``)."""
import pytest

from .conftest import index_all
from .test_printed_juans import MENGZI, imported


@pytest.mark.django_db
def test_a_respelling_says_the_books_write_what_it_found_in_them(client, search_backend, tmp_path):
    """孟子注疏 卷一: 万 0 times, 萬取千焉 3 times (the classic, 孫奭's 疏 and the 考證's lemma):
    the offer of 萬取千焉 says the books print 萬取千焉, with its 3; 万 alone is offered 萬 with its 34."""
    imported(tmp_path, MENGZI, "KR1h0003_001.txt")
    index_all(search_backend)
    data = client.get("/api/search/", {"q": "万取千焉"}).json()
    assert (data["count"], data["hints"]["suggestions"]) == (0, [{
        "query": "萬取千焉", "count": 3,
        "message": "繁體本中「万」與「萬」各為一字，檢索分開；書中有作「萬取千焉」者（traditional editions keep 万 and 萬 "
                   "apart, and so does search; the books write 萬取千焉）",
        "url": "http://testserver/api/search/?q=%E8%90%AC%E5%8F%96%E5%8D%83%E7%84%89",
        "page_url": "http://testserver/search/?q=%E8%90%AC%E5%8F%96%E5%8D%83%E7%84%89"}])
    assert [h["layer"] for h in client.get("/api/search/", {"q": "萬取千焉"}).json()["results"]] == [
        "classic", "subcommentary", "editorial"]
    data = client.get("/api/search/", {"q": "万", "work": "KR1h0003"}).json()  # (a juan another test left counts apart)
    assert (data["count"], [(s["query"], s["count"]) for s in data["hints"]["suggestions"]]) == (0, [("萬", 34)])
    assert data["hints"]["suggestions"][0]["message"].startswith("繁體本中「万」與「萬」各為一字，檢索分開；書中有作「萬」者")
    # with a filter that keeps none of them, no respelling is offered: the claim would be false there
    none = client.get("/api/search/", {"q": "万取千焉", "layer": "paratext"}).json()
    assert (none["count"], none["hints"]["suggestions"]) == (0, [])
