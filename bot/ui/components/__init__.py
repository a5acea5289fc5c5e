"""The components users press in Discord, one module per feature.

- :mod:`.ids`: the one custom-id scheme (``hx:<kind>:…``; older ids still parsed);
- :mod:`.registry`: which cog's handler answers a press (the bot holds the registry);
- :mod:`.board`: the controls under a board; :mod:`.panel` the private Play panel,
  whose steps :mod:`.panel_steps` works out as plain data from the legal actions;
- :mod:`.challenge`, :mod:`.takeback`, :mod:`.claim`, :mod:`.gameover`: the buttons under
  those messages; :mod:`.pages`: stepping through move lists, replays and the tutorial.
"""
