"""The character page agrees with the sources and with search (issue 28): its 正字, readings
and variants come from the folding table's decided classes and from Unihan, checked for the
1,000 most frequent characters of the shared corpus."""
import bz2
import unicodedata
from urllib.parse import quote

import pytest

from characters.dictionary import lookup
from characters.folding import fold_char
from characters.scripts.rare_merges import read_frequencies
from characters.simplified import ScriptCount, count_script

from .conftest import BASE_DIR, SHARED

#: What the reading page's character look-up sends (static/js/reader.js).
JSON = "application/json"

UNIHAN = SHARED / "data" / "unihan" / "Unihan_Readings.txt.bz2"


def _unihan_readings() -> dict[str, set[str]]:
    """Every reading Unihan gives a character (kMandarin and kHanyuPinyin), read here."""
    out: dict[str, set[str]] = {}
    mandarin: dict[str, list[str]] = {}
    with bz2.open(UNIHAN, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            cp, field, value = line.rstrip("\n").split("\t", 2)
            ch = chr(int(cp[2:], 16))
            if field == "kMandarin":
                mandarin[ch] = value.split()
                out.setdefault(ch, set()).update(value.split())
            elif field == "kHanyuPinyin":
                for entry in value.split():
                    out.setdefault(ch, set()).update(r for r in entry.partition(":")[2].split(",") if r)
    return out, mandarin


@pytest.fixture(scope="module")
def unihan():
    assert UNIHAN.exists(), "the sources (../shared/data) must sit beside the clone"
    return _unihan_readings()


def frequent(n: int) -> list[str]:
    freq = read_frequencies()
    return [c for c in sorted(freq, key=lambda c: -freq[c]) if unicodedata.category(c) == "Lo"][:n]


def test_the_thousand_most_frequent_characters_agree_with_folding_and_unihan(unihan):
    readings_of, mandarin_of = unihan
    chars = frequent(1000)
    assert len(chars) == 1000 and chars[:5] == ["之", "也", "以", "曰", "不"]
    for ch in chars:
        e = lookup(ch)
        assert e.found, ch
        # 正字: what search folds the character to; a standard character's is itself
        assert e.standard == [fold_char(ch)], (ch, e.standard)
        # the variants search finds with it, and the related forms it keeps apart
        assert e.searched_together == [v for v in dict.fromkeys(e.standard + e.traditional + e.variants)
                                       if v != ch and fold_char(v) == fold_char(ch)], ch
        assert all(fold_char(v) != fold_char(ch) for v in e.related), ch
        # each related form says which source relates it (never search: it keeps them apart)
        assert all(e.relations.get(v) and "fold" not in e.relations[v] for v in e.related), ch
        # readings: Unihan's, of the character and of the forms search treats as it, each once
        assert e.mandarin == mandarin_of.get(ch, []), ch
        forms = [ch] + e.searched_together
        assert {r["form"] for r in e.readings} <= set(forms), ch
        assert all(fold_char(r["form"]) == fold_char(ch) for r in e.readings), ch
        assert [r["reading"] for r in e.readings] == list(dict.fromkeys(r["reading"] for r in e.readings)), ch
        # ... but a variant form whose usual reading is none of the character's (its 正字's) gives only the
        # readings the 正字 has too: the others it has as another character (𢆯 reads mì as 糸, 釰 rì and rèn)
        def as_another(form):
            key = readings_of.get(fold_char(ch), set())
            if form in (ch, fold_char(ch)) or set(mandarin_of.get(form, [])) & key:
                return set()
            return readings_of.get(form, set()) - key
        assert {r["reading"] for r in e.readings} == set().union(
            *(readings_of.get(f, set()) - as_another(f) for f in forms)), ch


def test_the_known_wrong_pages_are_right(client, db):
    for ch in "弓也王大":
        data = client.get(f"/chars/{ch}/", HTTP_ACCEPT=JSON).json()
        assert data["standard"] == [ch], (ch, data["standard"])
    assert [r["reading"] for r in client.get("/chars/大/", HTTP_ACCEPT=JSON).json()["readings"]] == ["dà", "dài", "tài"]  # no zè (夨)
    assert client.get("/chars/弓/", HTTP_ACCEPT=JSON).json()["readings"] == [{"reading": "gōng", "form": "弓", "source": "kMandarin"}]
    # 劒 and 劍 read jiàn only: 釰, searched with them, is usually rì (Unihan kMandarin; kHanyuPinyin rì rèn jiàn),
    # readings it has as another character though no variant table names one; its own page keeps all three
    for ch in "劒劍":
        assert client.get(f"/chars/{ch}/", HTTP_ACCEPT=JSON).json()["readings"] == [
            {"reading": "jiàn", "form": ch, "source": "kMandarin"}], ch
    assert [(r["reading"], r["source"]) for r in client.get("/chars/釰/", HTTP_ACCEPT=JSON).json()["readings"]] == [
        ("rì", "kMandarin"), ("rèn", "kHanyuPinyin"), ("jiàn", "kHanyuPinyin")]
    wang = client.get("/chars/王/", HTTP_ACCEPT=JSON).json()
    assert "玉" not in wang["searched_together"] and "壬" not in wang["searched_together"]
    assert "玉" in wang["variants"]   # related by the MOE table, kept apart by search
    # a variant's 正字 is its fold, with the standard form's reading when it has none of its own
    xuan = client.get("/chars/𤣥/", HTTP_ACCEPT=JSON).json()
    assert xuan["standard"] == ["玄"] and xuan["see"]["char"] == "玄"
    assert client.get("/chars/説/", HTTP_ACCEPT=JSON).json()["standard"] == ["說"]
    html = client.get("/chars/弓/", {"format": "html"}).content.decode()
    assert '<dt>正字</dt><dd class="char-list"><a href="/chars/%E5%BC%93/">弓</a></dd>' in html


def test_related_forms_name_their_source_and_non_cognates_are_not_related(client, db):
    """弓 is listed as a form of 乃 by the MOE 異體字字典 and of 及 by 漢語大字典: the page says so.
    CJKVI's non-cognates.txt calls 弓 and 𢎗, 士 and 土, 王 and 壬 two characters of one shape
    (同型異字): not related."""
    gong = client.get("/chars/弓/", HTTP_ACCEPT=JSON).json()
    assert (gong["variants"], gong["relations"]) == (["乃", "及"], {"乃": ["moe<"], "及": ["hydzd<"]})
    html = client.get("/chars/弓/", {"format": "html"}).content.decode()
    assert ('<dt>相關字</dt><dd class="related-chars"><span class="related-note">異體字表所列，檢索時分開：</span><ul>'
            '<li><a class="char-list-item" href="/chars/%E4%B9%83/">乃</a>'
            '<span class="relation-source">（《異體字字典》以為其正字）</span></li>'
            '<li><a class="char-list-item" href="/chars/%E5%8F%8A/">及</a>'
            '<span class="relation-source">（《漢語大字典》以為其正字）</span></li></ul></dd>') in html
    wang = client.get("/chars/王/", HTTP_ACCEPT=JSON).json()
    assert "壬" not in wang["variants"] and wang["relations"]["玉"] == ["moe<", "radical", "hydzd<"]
    assert "土" not in client.get("/chars/士/", HTTP_ACCEPT=JSON).json()["variants"]
    assert "柬" not in client.get("/chars/東/", HTTP_ACCEPT=JSON).json()["variants"]


def test_a_form_of_several_characters_says_how_search_reads_it_and_the_geta_mark_is_no_character(client, db):
    """个 lists 繁體 个, 個 and 箇 (the forms it stands for, itself among them), while search keeps 个, a character of the classics, apart in a
    traditional edition: the page says how search reads it in each script, from the table search
    reads by (characters.simplified), and search does as it says. 〓 (U+3013) is the mark for a lost
    or unencoded character: the page says so, with no 正字 〓."""
    from characters.simplified import TRADITIONAL, query_keys, reading_key, text_keys

    ge = client.get("/chars/个/", HTTP_ACCEPT=JSON).json()
    assert (ge["traditional"], ge["placeholder"]) == (["个", "個", "箇"], "")
    assert ge["script_search"] == ("簡體、繁簡混合本中「个」可代 個、箇，檢索依上下文判讀，檢 個、箇 亦得讀作該字的「个」；"
                                   "繁體本中「个」是本字，檢索只得「个」，與 個、箇 分開。")
    # what search does: in a traditional edition 个 is its own key, which neither 個 nor 箇 finds
    assert text_keys("个", TRADITIONAL) == "个"
    assert "个" in query_keys("个") and "个" not in query_keys("個") | query_keys("箇")
    # in a simplified one, 个 read as 個 (or 箇) is found by it
    assert reading_key("个", "個") in query_keys("個") and reading_key("个", "箇") in query_keys("箇")
    html = client.get("/chars/个/", {"format": "html"}).content.decode()
    assert f'<dt>檢索</dt><dd class="script-search">{ge["script_search"]}</dd>' in html
    assert client.get("/chars/当/", HTTP_ACCEPT=JSON).json()["script_search"] == (
        "簡體、繁簡混合本中「当」可代 噹、當，檢索依上下文判讀，檢 噹、當 亦得讀作該字的「当」。")  # no character of its own
    assert client.get("/chars/後/", HTTP_ACCEPT=JSON).json()["script_search"] == ""
    geta = client.get("/chars/〓/", HTTP_ACCEPT=JSON).json()
    assert (geta["found"], geta["standard"], geta["name"]) == (True, [], "GETA MARK")
    assert geta["placeholder"].startswith("代字符號：原書或錄文以此代替一個缺失、漫漶或無法編碼的字，本身不是字")
    html = client.get("/chars/〓/", {"format": "html"}).content.decode()
    assert "<dt>正字</dt>" not in html and f'<dt>符號</dt><dd class="placeholder-note">{geta["placeholder"]}</dd>' in html


def test_the_new_users_character_pages(client, db):
    """Four pages a new user found wrong. 裏 gave no 簡體 while 裡, the character search folds it to,
    gives 里 (Unihan lists 里 under 裡 alone). 𤣥 gave 玄's readings and mì, which 𢆯 (searched as 玄)
    has as 糸 (the MOE and 漢語大字典 tables list 𢆯 under 糸 too; Unihan: 糸 mì sī, 𢆯 mì xuán). The
    Kangxi radical ⼤ (U+2F24), which search reads as 大, was a 404. ？ was a 200 calling itself its
    own 正字: a punctuation mark is no character of the text."""
    li = client.get("/chars/裏/", HTTP_ACCEPT=JSON).json()
    assert (li["standard"], li["simplified"], li["traditional"]) == (["裡"], ["里"], [])
    assert client.get("/chars/裡/", HTTP_ACCEPT=JSON).json()["simplified"] == ["里"]
    html = client.get("/chars/裏/", {"format": "html"}).content.decode()
    assert '<dt>簡體</dt><dd class="char-list"><a href="/chars/%E9%87%8C/">里</a></dd>' in html
    for ch in "𤣥玄":
        assert client.get(f"/chars/{ch}/", HTTP_ACCEPT=JSON).json()["readings"] == [
            {"reading": "xuán", "form": "玄", "source": "kMandarin"},
            {"reading": "xuàn", "form": "玄", "source": "kHanyuPinyin"}], ch
    assert [r["reading"] for r in client.get("/chars/𢆯/", HTTP_ACCEPT=JSON).json()["readings"]] == ["mì", "xuán", "xuàn"]
    # a form whose usual reading is the character's keeps its others: 説 (shuō) gives 說 yuè, which it has as 悦
    assert [r["reading"] for r in client.get("/chars/說/", HTTP_ACCEPT=JSON).json()["readings"]] == ["shuō", "shuì", "yuè", "tuō"]
    # ⼤ leads to 大, the query string kept; 大 itself and a character the table lacks do not move
    for query, target in (({}, "/chars/%E5%A4%A7/"), ({"format": "json"}, "/chars/%E5%A4%A7/?format=json")):
        response = client.get("/chars/⼤/", query)
        assert (response.status_code, response["Location"]) == (301, target)
    assert client.get("/chars/⼤/", follow=True, HTTP_ACCEPT=JSON).json()["char"] == "大"
    assert client.get("/chars/大/", HTTP_ACCEPT=JSON).status_code == 200
    assert client.get("/chars/\U000323af/", HTTP_ACCEPT=JSON).status_code == 404   # CJK Ext. H, not in the table
    # punctuation: a 404 saying what it is, with no 正字
    for mark in "？。、「":
        response = client.get(f"/chars/{mark}/", HTTP_ACCEPT=JSON)
        data = response.json()
        assert (response.status_code, data["found"], data["standard"], data["punctuation"]) == (
            404, False, [], "標點符號，不是正文的字，檢索不讀標點，故無讀音、正字與異體"
            "（a punctuation mark, not a character of the text: search reads the text without it）"), mark
    page = client.get("/chars/？/", {"format": "html"})
    assert page.status_code == 404
    assert ('<p class="punctuation-note">「？」（FULLWIDTH QUESTION MARK）是標點符號，不是正文的字，檢索不讀標點，'
            '故無讀音、正字與異體（a punctuation mark, not a character of the text: search reads the text without it）。</p>'
            ) in page.content.decode()
    assert "<dt>正字</dt>" not in page.content.decode()


def test_a_characters_simplified_forms_are_the_simplified_scripts(client, db):
    """天 listed 簡體 靔, 齊 斋 斉 亝, 發 発: IRG's ``simp`` (Japanese 発 斉, the old 亝) and a variant's
    simplified form read as the variant's character (靔 of 靝, 斋 of 亝) made them (decision 0126). The
    simplified script's tables alone make the forms; search still folds 発 斉 亝 靔 as before, and 天, which
    both scripts write alike, counts for neither script."""
    def get(ch):
        return client.get(f"/chars/{ch}/", HTTP_ACCEPT=JSON).json()

    assert [get(c)["simplified"] for c in "天齊發齋懷"] == [[], ["齐"], ["发"], ["斋"], ["怀"]]
    assert [get(c)["traditional"] for c in "発斉亝靔斋懐"] == [[], [], [], [], ["齋"], []]
    assert [fold_char(c) for c in "発斉亝靔懐"] == ["發", "齊", "齊", "天", "懷"]
    assert count_script("天懐発斉") == ScriptCount(0, 0) and count_script("齊发") == ScriptCount(1, 1)


def test_simplified_and_traditional_forms_come_from_the_data_search_reads_by(client, db):
    """爲 listed 为 both as 簡體 and as 異體, and 后 gave 後 alone as 繁體 though it is a
    traditional character of its own: 繁體 and 簡體 come from characters.simplified (the data
    search folds and reads by), a form listed there is no 異體 beside it, and none of the 100 most
    frequent characters of the corpus lists a form twice."""
    def get(ch):
        return client.get(f"/chars/{ch}/", HTTP_ACCEPT=JSON).json()

    wei = get("爲")
    assert (wei["simplified"], wei["traditional"]) == (["为"], [])
    assert lookup("爲").variants_searched_together == ["𢏽", "𤓸", "𤔡", "𦥮", "𨤒", "𫞟"]
    assert "为" in wei["searched_together"]   # search still finds 为 for 爲
    html = client.get("/chars/爲/", {"format": "html"}).content.decode()
    assert html.count('href="/chars/%E4%B8%BA/"') == 1   # 为 once, under 簡體
    assert [get(c)["traditional"] for c in "后于个为与"] == [["后", "後"], ["于", "於"], ["个", "個", "箇"], ["為"], ["與"]]
    # (𫝌, an old reduced form of 與 that only IRG's simp gives, is no simplified form: decision 0126)
    assert [get(c)["simplified"] for c in "後於與為"] == [["后"], ["于"], ["与"], ["为"]]
    assert '<dt>繁體</dt><dd class="char-list"><a href="/chars/%E5%90%8E/">后</a><a href="/chars/%E5%BE%8C/">後</a></dd>' \
        in client.get("/chars/后/", {"format": "html"}).content.decode()
    counts = read_frequencies()
    doubled = []
    for ch in sorted(counts, key=lambda c: -counts[c])[:100]:
        e = lookup(ch)
        scripts = set(e.simplified) | set(e.traditional)
        if scripts & set(e.variants_searched_together + e.related) or set(e.simplified) & set(e.traditional):
            doubled.append(ch)
    assert doubled == []


def test_a_simplified_or_traditional_form_is_no_related_character_beside_it(client, db):
    """/chars/个/ listed 箇 under 繁體 and again under 相關字 (「異體字表所列，檢索時分開」, search keeps
    it apart), and /chars/沈/ 沉 under 簡體 and 相關字: the 相關字 list leaves out the forms listed
    as 簡體 or 繁體, as the 異體 list does."""
    assert (lookup("个").traditional, lookup("个").related) == (["个", "個", "箇"], [])
    assert (lookup("沈").simplified, lookup("沈").related) == (["沉"], ["𣲽", "湛", "邥"])
    for ch, form in (("个", "箇"), ("沈", "沉")):
        html = client.get(f"/chars/{ch}/", {"format": "html"}).content.decode()
        assert html.count(f'href="/chars/{quote(form)}/"') == 1, ch


def test_the_look_up_lists_a_form_under_one_heading_as_the_page_does(client, db):
    """The reading page's look-up (static/js/reader.js) made its 異體 and 相關字 from the JSON's
    ``variants`` itself and listed 个's 箇 under 繁體 and 相關字, 爲's 为 under 簡體 and 異體: the JSON
    gives the page's two lists (``variants_searched_together``, ``related``), which the look-up
    shows. 箇 is 个's 繁體: the simplified script's tables write 箇 as 个 (CJKVI cjkvi-simplified
    「箇,cjkvi/simplified,个」, OpenCC TSCharacters), search reads 个 as 箇 in a simplified edition,
    and only Unihan's kSemanticVariant calls them variants, which search keeps apart."""
    def get(ch):
        return client.get(f"/chars/{ch}/", HTTP_ACCEPT=JSON).json()

    ge, wei = get("个"), get("爲")
    assert (ge["traditional"], ge["variants"], ge["variants_searched_together"], ge["related"]) \
        == (["个", "個", "箇"], ["箇"], [], [])
    assert (wei["simplified"], wei["variants_searched_together"]) == (["为"], ["𢏽", "𤓸", "𤔡", "𦥮", "𨤒", "𫞟"])
    assert (get("大")["variants_searched_together"], get("大")["related"]) == (["𠘲"], ["亣", "夨", "太"])
    script = (BASE_DIR / "static" / "js" / "reader.js").read_text(encoding="utf-8")
    assert "data.variants_searched_together" in script and "data.related" in script and "data.variants" not in \
        script.replace("data.variants_searched_together", "")
    counts = read_frequencies()
    doubled = []
    for ch in sorted(counts, key=lambda c: -counts[c])[:100]:
        data = get(ch)
        headings = data["traditional"] + data["simplified"] + data["variants_searched_together"] + data["related"]
        if len(headings) != len(set(headings)):
            doubled.append(ch)
    assert doubled == []
