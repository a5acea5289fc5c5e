"""The Hex AI's research against MoHex 2.0: match drivers, reviews, head-to-head runs, and the
patches of experiments that were measured and not kept (``research/experiments/``).

Run by hand from the repository root, e.g. ``python -m research.mohex_review --help``; MoHex is
a measuring tool here, never a dependency. Not part of the installed package.
"""
