"""Chinese numerals as written in juan titles (卷十, 卷一百二十三, 卷〇〇五)."""
from __future__ import annotations

DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4,
          "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
UNITS = {"十": 10, "百": 100, "千": 1000}
NUMERAL_CHARS = "".join(DIGITS) + "".join(UNITS) + "0123456789"


def chinese_to_int(numeral: str) -> int:
    """Value of a Chinese (or ASCII) numeral: ``"十"`` → 10, ``"一百二十三"`` → 123,
    ``"二十"`` → 20, ``"百"`` → 100, ``"〇一二"`` → 12 (digit by digit), ``"12"`` → 12.

    Raises ``ValueError`` for an empty string or a character that is not a numeral.
    """
    if not numeral:
        raise ValueError("empty numeral")
    if numeral.isascii() and numeral.isdigit():
        return int(numeral)
    if any(ch not in DIGITS and ch not in UNITS for ch in numeral):
        raise ValueError(f"not a Chinese numeral: {numeral!r}")
    if not any(ch in UNITS for ch in numeral):
        # Positional form: 〇一二 = 12
        return int("".join(str(DIGITS[ch]) for ch in numeral))
    total, digit = 0, None
    for ch in numeral:
        if ch in DIGITS:
            digit = DIGITS[ch]
        else:
            total += (1 if digit is None else digit) * UNITS[ch]
            digit = None
    return total + (digit or 0)


def well_formed(numeral: str) -> bool:
    """Whether ``numeral`` is written as a book writes a number, so that ``chinese_to_int``
    reads the number meant: ASCII digits, digits alone (``〇一二``, positional), or units each
    smaller than the one before, each with at most one digit before it (``二十``, ``一百二十三``,
    ``十五``), a zero (〇, 零) only before a digit (``一百〇五``). ``十十`` (which ``chinese_to_int``
    adds up to 20), ``二三十`` and ``十百`` are not."""
    if not numeral:
        return False
    if numeral.isascii():
        return numeral.isdigit()
    if any(ch not in DIGITS and ch not in UNITS for ch in numeral):
        return False
    if not any(ch in UNITS for ch in numeral):
        return True
    last_unit, previous = None, None
    for ch in numeral:
        if ch in UNITS:
            if (last_unit is not None and UNITS[ch] >= last_unit) or (previous is not None and DIGITS[previous] == 0):
                return False
            last_unit, previous = UNITS[ch], None
        else:
            if previous is not None and DIGITS[previous] != 0:
                return False
            previous = ch
    return previous is None or DIGITS[previous] != 0


def int_to_chinese(value: int) -> str:
    """The Chinese numeral of a juan number as titles write it: 10 → ``"十"``,
    15 → ``"十五"``, 20 → ``"二十"``, 105 → ``"一百〇五"``, 123 → ``"一百二十三"``, 0 → ``"〇"``.
    Raises ``ValueError`` for negative numbers or numbers of 10,000 and more."""
    if not 0 <= value < 10000:
        raise ValueError(f"juan number out of range: {value}")
    if value == 0:
        return "〇"
    digits = "〇一二三四五六七八九"
    out, zero = [], False
    for unit_value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = value // unit_value % 10
        if d == 0:
            zero = bool(out)
            continue
        if zero:
            out.append("〇")
            zero = False
        if not (d == 1 and unit == "十" and not out):
            out.append(digits[d])
        out.append(unit)
    return "".join(out)
