"""A juan's export made once however many requests ask for it at once (``JuanExport`` of
``api.views``): 30 simultaneous cold JSON exports of one juan each built the whole juan in memory
(``bench/juan_exports.py``, 春秋左傳 卷十, 0.9 MB of JSON: a worker of 132 MB peaked at 207 MB and kept
205 MB). Made in a thread of ``JUAN_EXPORTS`` (``config.kept_work``), the requests asking meanwhile
share it and the memory it took is given back to the system when it is made (the same: 146 MB at its
peak and after).
"""
from __future__ import annotations

import gc

from django.conf import settings

from config.budget import BudgetExceeded
from config.kept_work import PENDING, Crowded, KeptWork, request_wait
from config.memory import give_back

#: The juans' exports, each made once in a thread of its own however many requests ask for it at
#: once (``JUAN_EXPORT_THREADS`` at a time), and kept (the 4 last asked for).
JUAN_EXPORTS = KeptWork("juan-export", lambda: settings.JUAN_EXPORT_THREADS, keep=4,
                        seconds_per_unit=lambda: settings.JUAN_EXPORT_SECONDS_PER_CHAR, measured_from=10_000)


def made_export(key, make, chars: int) -> bytes:
    """``make()`` (a juan's export as bytes; ``chars``: the juan's characters) made once for ``key``
    (the juan, the kind, the address asked and the corpus version) in a thread of ``JUAN_EXPORTS``,
    the requests asking for it meanwhile waiting for that one, never past their budget less one
    second; with no budget, made in the request (and not kept: the corpus version a test's
    rows leave unchanged would name it). Raises ``BudgetExceeded`` with
    ``Retry-After`` while it is being made past the wait (``expected_wait``), or when as many exports
    as ``JUAN_EXPORTS`` takes are being made (``crowded_wait``)."""
    wait = request_wait(0)
    if wait is None:
        return make()
    advice = "Try again in {retry} s: the file is then read from what was kept."
    try:
        made = JUAN_EXPORTS.answer(key, make, wait, size=chars)
    except Crowded as exc:
        retry = JUAN_EXPORTS.crowded_wait()
        raise BudgetExceeded("waiting for other juans' exports to be made", advice.format(retry=retry), retry,
                             f"請 {retry} 秒後再試。", detail=f"Other juans' exports are being made: this one was not "
                             f"started; the first of them is expected to be made in {retry} s.",
                             detail_zh=f"其他卷的匯出檔正在作成，本卷的未能開始；其中最先的預計 {retry} 秒後作成。") from exc
    if made is PENDING:
        retry = JUAN_EXPORTS.expected_wait(key, chars)
        raise BudgetExceeded("making the juan's export", advice.format(retry=retry), retry,
                             f"請 {retry} 秒後再試：屆時直接讀取已存的檔案。",
                             detail="The export of this juan is being made: it takes longer than a request may wait, "
                                    "goes on without this request and is kept when done.",
                             detail_zh="本卷的匯出檔正在作成：所需時間超過一次請求可等候的時限，作成後即存留。")
    return made


def joined(chunks) -> bytes:
    """The chunks as one UTF-8 file, the memory they held given back to the system
    (``config.memory.give_back``): a juan's views are freed once its file is made."""
    data = "".join(chunks).encode("utf-8")
    gc.collect(1)
    give_back()
    return data
