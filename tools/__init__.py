"""Tools that make the engine's data files (the Hex opening book, the learned priors' weights).

Run by hand from the repository root, e.g. ``python -m tools.hex_book --write``; they are not
part of the installed package.
"""
