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
    """A file that holds a header and no text (Kanripo has such files): importers skip it
    with a notice instead of refusing the run. Located like ``TextFormatError``."""
