"""Builders of ``characters/data`` and the folding evaluation (run as scripts from the
project root; ``script_labels`` and ``rare_merges`` are also imported by the tests). Not used by the product."""
