"""The maintained benchmarks: each prints figures and ratios against a baseline run in the same
process. Run from the repository root as modules, e.g. ``python -m bench.load --quick``; they
are not tests (the figures depend on the machine) and not part of the installed package.
"""
