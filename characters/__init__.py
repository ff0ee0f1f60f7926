"""Character knowledge, the bottom layer of the project: what a character is, whatever text
it appears in.

- ``characters.folding``: the folding table (異體字, simplified forms, compatibility
  ideographs, width forms and radicals, one code point to one) and what each code point is
  to search (text, separator, invisible, selector);
- ``characters.gaiji``: Kanripo's gaiji entities (``&KR1969;``), characters Unicode lacks,
  and what Kanripo's gaiji table reads them as;
- ``characters.variants``: whether two written forms are one character (異體) or two (異字),
  for collation: folding, the variant tables and the gaiji table;
- ``characters.dictionary``: readings, definitions and variant forms for the character page;
- ``characters/data/``: the shipped tables with their licences (``ATTRIBUTION*.md``);
- ``characters/scripts/``: the builders of those tables and the folding evaluation.

Pure Python apart from ``apps.py``: no models, and no import of ``reader``, ``search``,
``collation`` or ``api`` (the layers above it import this package, never the reverse).
"""
