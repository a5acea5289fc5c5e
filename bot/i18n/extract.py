"""What ``pybabel extract`` reads from the bot's code (configured in ``babel.cfg``).

Two kinds of message: calls of :func:`bot.i18n.t` / ``tc`` / ``tn`` anywhere (Babel's own
Python extractor), and the texts Discord shows in the command list, written as the
``app_commands`` decorators' arguments: command names (context ``command``), option names
(``option``; a renamed one ``option /<command>``), choice names (``choice``: ``Choice(name=…)`` and
module-level ``Literal[…]`` types of the choice modules) and descriptions (no context). The command tree's
translator (:mod:`bot.i18n.commands`) looks them up under the same contexts.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

#: Babel's extraction result: line, function name, message (or (context, message)), comments
Extracted = tuple[int, str, Any, list[str]]
#: parameters of a command callback that are not options
NOT_OPTIONS = {"self", "interaction"}


def extract_bot(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                options: Mapping[str, Any]) -> Iterator[Extracted]:
    """Babel's Python extraction, then the command texts of the file's ``app_commands`` decorators."""
    source = fileobj.read()
    fileobj.seek(0)
    # Babel's annotations give extractors the shape of extract()'s results; they yield this one
    python: Iterator[Extracted] = extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[arg-type, assignment]
    yield from python
    yield from command_texts(source.decode("utf-8"), choices=str(getattr(fileobj, "name", "")).endswith(CHOICES))


#: the modules whose module-level ``Literal[…]`` types are options' choices
CHOICES = ("bot/choices.py", "tournaments/model.py")


def command_texts(source: str, choices: bool = False) -> Iterator[Extracted]:
    """The command list's texts in a module's decorators, each with its context (see the module doc)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef):
            yield from _decorated(node)
        elif isinstance(node, ast.Call) and _called(node) == "Choice":
            for kw in node.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    yield node.lineno, "pgettext", ("choice", kw.value.value), []
        elif isinstance(node, ast.ClassDef):
            # a GroupCog's group: its name and description (``group_name=``, ``group_description=``)
            texts = {kw.arg: kw.value.value for kw in node.keywords
                     if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)}
            if "group_name" in texts:
                yield node.lineno, "pgettext", ("command", texts["group_name"]), []
            if "group_description" in texts:
                yield node.lineno, "gettext", texts["group_description"], []
    if choices:
        # options' choices spelled as module-level Literal types (``Seat = Literal["first", …]``):
        # discord.py offers each value as a choice
        for node in ast.parse(source).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) \
                    and isinstance(node.value.value, ast.Name) and node.value.value.id == "Literal":
                literal = node.value.slice
                for value in literal.elts if isinstance(literal, ast.Tuple) else [literal]:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        yield node.lineno, "pgettext", ("choice", value.value), []


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _decorated(fn: ast.AsyncFunctionDef | ast.FunctionDef) -> Iterator[Extracted]:
    calls = [d for d in fn.decorator_list if isinstance(d, ast.Call)]
    if not any(_called(d) == "command" for d in calls):
        return
    renamed: dict[str, str] = {}
    command = ""
    for call in calls:
        texts = {kw.arg: kw.value.value for kw in call.keywords
                 if kw.arg and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)}
        kind = _called(call)
        if kind == "command":
            command = texts.get("name", fn.name)
            if "name" in texts:
                yield call.lineno, "pgettext", ("command", texts["name"]), []
            if "description" in texts:
                yield call.lineno, "gettext", texts["description"], []
        elif kind == "describe":
            for text in texts.values():
                yield call.lineno, "gettext", text, []
        elif kind == "rename":
            renamed.update(texts)
    for arg in fn.args.args + fn.args.kwonlyargs:
        if arg.arg in renamed:
            # a renamed option shares its English name with others of another meaning
            # (/record's game is a game's number): its own context, "option /record"
            yield fn.lineno, "pgettext", (f"option /{command}", renamed[arg.arg]), []
        elif arg.arg not in NOT_OPTIONS:
            yield fn.lineno, "pgettext", ("option", arg.arg), []


#: the words of a limit in ``bot/data/limits.toml`` that users read (the /settings option's
#: description, the summary's label, the unit a refused value's range is counted in)
LIMIT_WORDS = ("what", "label", "unit")


def extract_limits(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                   options: Mapping[str, Any]) -> Iterator[Extracted]:
    """The limits' words users read (``what``: descriptions; ``label``: context ``limit``; ``unit``: context
    ``unit``)."""
    import tomllib

    data = tomllib.loads(fileobj.read().decode("utf-8"))
    for limit in data.get("server", {}).values():
        yield 0, "gettext", limit["what"], []
        yield 0, "pgettext", ("limit", limit["label"]), []
        yield 0, "pgettext", ("unit", limit["unit"]), []
