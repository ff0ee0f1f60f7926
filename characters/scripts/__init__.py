"""Builders of ``characters/data`` and the folding evaluation (run as scripts from the
project root; ``evaluation`` is also imported by the tests). Not used by the product."""
