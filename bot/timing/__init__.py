"""Time in the bot: the clock, timed events that survive restarts, and the game clocks.

- :mod:`.clock`: the time source (injectable, so tests never sleep);
- :mod:`.timers`: timed events as database rows, one loop dispatching the due ones;
- :mod:`.clocks`: time per move, the timers a game in progress has, time left in words.

The service's rules about time (wins on time, abandoned games) are
:mod:`bot.service.timed`, a part of :class:`bot.service.GameService`.
"""
