"""The benchmark's fixed query mix (``bench/engines.py``, ``bench/run.py``): plain data,
importable without Django."""

#: The fixed query mix: 1 to 6 characters, common and rare, phrases across notes, OR, exclusion.
QUERY_MIX = [
    "公", "射", "之", "也", "君", "鵠", "鼔", "賔", "𤣥", "觶",
    "主人", "大射", "司射", "卿大夫", "三耦", "釋獲", "燕禮", "鄭注",
    "戒射宰戒", "取矢視算", "飲不勝者", "鄉射記", "大射之儀", "君有命戒射",
    "主人獻賓", "賓降洗升媵", "公升即席", "射?獲", "大射 OR 鄉射", "獲 -釋獲", "侯 鵠", "&KR0221;",
]

#: Queries beyond the mix that the Whoosh engine answered slowly at 107 M characters (issue 30:
#: 2 to 35 s of CPU, verified on the stored text or read from thousands of pair terms): wildcards
#: and NEAR beside the most frequent characters, and OR with them. ``bench/service_cpu.py --hard``
#: times each in the exact mode, in the default mode, and with a layer filter (``HARD_LAYER``).
HARD_QUERIES = ["之?也", "?之", "之?", "也?之", "子曰?", "之??也", "??之", "之 NEAR/5 也", "之 NEAR/1 之",
                "之 OR 也", "之?也 OR 也?之", "射 NEAR/10 之?"]
HARD_LAYER = "classic"
