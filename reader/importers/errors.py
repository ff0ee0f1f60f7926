"""The one error type an importer raises for input it cannot take."""


class TextFormatError(ValueError):
    """Input that cannot be imported, located in its file.

    ``path`` is the file as the user named it, ``line`` and ``column`` are 1-based and
    count characters (code points) for decoded text, or the position where decoding
    failed. ``str(error)`` reads ``path:line:column: message`` like a compiler message.
    """

    def __init__(self, path: str, line: int, column: int, message: str):
        self.path = str(path)
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{self.path}:{line}:{column}: {message}")

    def __reduce__(self):  # pickled whole (a parse in a worker process, reader.importers.readahead)
        return type(self), (self.path, self.line, self.column, self.message)


class NoTextError(TextFormatError):
    """A file that holds a header and nothing else (Kanripo has such files: no juan title, no
    heading, no text): importers skip it with a notice instead of refusing the run. A file with
    a juan title or a heading and no text is a juan without text, not this error (史記正義
    卷二十二, ``KR2a0004_022.txt``). Located like ``TextFormatError``."""


class StrayBracket(TextFormatError):
    """A note bracket that does not pair (a closing one without its opening one, an opening
    one never closed or not closed before the next): damaged markup, not a reason to refuse
    a file. ``line`` and ``column`` (1-based) locate the bracket the parser keeps as text
    when it reads the file again (``keep_stray_brackets``); ``message`` says what was
    wrong, for the warning."""


#: Damaged brackets kept as text in one file before it is refused as not of its form at all.
MAX_STRAY = 20


def keep_stray_brackets(parse, limit: int = MAX_STRAY):
    """``parse(literal)`` called with the set of ``(line, column)`` places of brackets to
    read as text, growing it by one for each ``StrayBracket`` it raises, until it parses.

    Returns ``(document, warnings)``: the document and one ``path:line:column: message:
    kept as text`` per bracket kept. Raises the ``StrayBracket`` as a ``TextFormatError``
    when more than ``limit`` brackets would be kept (or the same place is reported twice),
    and any other ``TextFormatError`` as raised: a file with nothing readable is refused.
    The same rule as the mandoku parser's (``mandoku.parser.parse_mandoku``)."""
    literal: set[tuple[int, int]] = set()
    warnings: list[str] = []
    while True:
        try:
            return parse(frozenset(literal)), warnings
        except StrayBracket as exc:
            if len(literal) >= limit or (exc.line, exc.column) in literal:
                raise TextFormatError(exc.path, exc.line, exc.column, exc.message) from None
            literal.add((exc.line, exc.column))
            warnings.append(f"{exc}: kept as text")
