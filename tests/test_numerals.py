import pytest

from reader.numerals import chinese_to_int


@pytest.mark.parametrize("numeral,value", [
    ("一", 1), ("十", 10), ("十五", 15), ("二十", 20), ("二十一", 21), ("百", 100), ("一百", 100),
    ("一百二十三", 123), ("一百〇五", 105), ("一百零五", 105), ("三百", 300), ("一千二百", 1200),
    ("〇一二", 12), ("12", 12), ("兩", 2),
])
def test_chinese_numerals(numeral, value):
    assert chinese_to_int(numeral) == value


@pytest.mark.parametrize("bad", ["", "十a", "大"])
def test_not_a_numeral(bad):
    with pytest.raises(ValueError):
        chinese_to_int(bad)
