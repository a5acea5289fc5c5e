"""Data files of the bot (read with importlib.resources): ``limits.toml``, the limits against abuse."""
