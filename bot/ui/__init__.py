"""What users see and touch in Discord: components, messages, answers, words and pictures.

- :mod:`.components`: every persistent button and menu, their custom ids and who answers them;
- :mod:`.messages`: the message that shows a game (content, embed, board, controls);
  :mod:`.boards`: posting a board, which also makes it the game's live board;
- :mod:`.answers`: acknowledging and answering interactions (public, private, refusals);
- :mod:`.texts`: the words; :mod:`.pictures`: board images drawn off the event loop;
- :mod:`.visibility`: which of a server's games the member who asks may see;
- :mod:`.tutorial`: the ``/rules`` pages; :mod:`.records` and :mod:`.movelist`: records,
  move lists and replays as messages.

Nothing here decides a rule of a game or of the table: that is :mod:`bot.service` and :mod:`engine`.
"""
