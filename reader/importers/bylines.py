"""A Siku byline (``婺源江永撰``, ``宋朱熹撰``) read as dynasty, native place and author: the
convention of the 四庫全書's title pages, shared by the Siku parser (the title line's byline),
the plain-text parser (the byline line under a 提要 file's title) and the mandoku header. Pure.
"""
from __future__ import annotations

import re

#: Dynasty prefixes of Siku bylines (宋朱熹撰); 國朝 marks a Qing author.
DYNASTIES = ("國朝", "皇朝", "後漢", "東漢", "西漢", "南唐", "後周", "北魏", "北齊", "北周",
             "漢", "魏", "晉", "宋", "齊", "梁", "陳", "隋", "唐", "元", "明", "清", "周")
#: A role of two words (編輯: 唐劉蛻集 ``明吳馡編輯``) is one role, not a name's last character and a role.
ROLE = re.compile(r"(撰集|同撰|奉勅撰|編輯|撰|著|編|輯|纂|述|注|註|集注|集解|疏|訂|校)$")


def parse_byline(byline: str) -> tuple[str, str, str]:
    """Split a Siku byline into ``(dynasty, native_place, author)``.

    ``"婺源江永撰"`` → ``("", "婺源", "江永")``; ``"宋朱熹撰"`` → ``("宋", "", "朱熹")``.
    Rule (the Siku convention): strip the role word (撰, 注, …); a leading dynasty name
    is the dynasty; otherwise four or more characters are a two-character native place
    followed by the name (Qing authors are written 籍貫 + 姓名). A heuristic: a
    three-character place name would be split wrongly, and the raw line is kept.
    """
    rest = ROLE.sub("", byline.strip())
    for dynasty in DYNASTIES:
        if rest.startswith(dynasty) and len(rest) - len(dynasty) >= 2:
            return dynasty, "", rest[len(dynasty):]
    if len(rest) >= 4:
        return "", rest[:2], rest[2:]
    return "", "", rest
