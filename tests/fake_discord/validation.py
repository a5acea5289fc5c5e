"""Discord's documented limits that its OpenAPI schema does not encode.

The schema (:mod:`.openapi`) checks types, lengths and ranges the spec states;
this module adds what the developer documentation states on top of it (2,000
characters of content, the 6,000-character embed total, the command-name
pattern, required options first, a button's label or emoji…). Sources:
https://discord.com/developers/docs — resources/message (create message,
embed limits), interactions/message-components, interactions/application-commands,
interactions/receiving-and-responding, resources/channel (start thread).

Each checker returns a list of ``(field.path, CODE, message)`` problems; the
REST layer turns a non-empty list into ``400 50035 Invalid Form Body`` and
records it as a violation (see :meth:`FakeDiscord.take_violations`).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterator

import regex

from .models import FLAG_COMPONENTS_V2, FLAG_EPHEMERAL, FLAG_SUPPRESS_EMBEDS, FLAG_SUPPRESS_NOTIFICATIONS

Problem = tuple[str, str, str]
Problems = list[Problem]

MAX_CONTENT = 2000  # the spec allows 4,000 (Nitro users); bots get 2,000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS = 25
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_V2_COMPONENTS = 40
MAX_FILES = 10
MAX_CHOICES = 25
MAX_OPTIONS = 25
MAX_COMMAND_CHARS = 4000
MAX_COMMANDS = 100
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-naming
COMMAND_NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
CHAT_INPUT, SUB_COMMAND, SUB_COMMAND_GROUP = 1, 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10
SELECT_TYPES = (3, 5, 6, 7, 8)
FLAG_VOICE_MESSAGE = 1 << 13
#: Flags each kind of message creation may set (docs: "only … can be set").
CHANNEL_MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_VOICE_MESSAGE | FLAG_COMPONENTS_V2
INTERACTION_MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
EMBED_URL_FIELDS = (("image", "url"), ("thumbnail", "url"), ("author", "icon_url"), ("footer", "icon_url"))


def _too_long(path: str, limit: int) -> Problem:
    return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


@functools.cache
def available_locales() -> frozenset[str]:
    """The locales Discord accepts as keys of ``*_localizations`` (the spec's ``AvailableLocalesEnum``)."""
    from .openapi import spec

    enum = spec().document["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(str(item["const"]) for item in enum["oneOf"])


def _check_localizations(obj: dict[str, Any], where: str, names: str) -> Problems:
    """A command's, option's or choice's ``name_localizations`` and ``description_localizations``.

    Keys: Discord's locales. ``names``: ``"command"`` (each name obeys the naming rule, like
    the default one) or ``"choice"`` (1–100 characters). Descriptions: 1–100 characters."""
    problems: Problems = []
    pre = f"{where}." if where else ""
    for key in ("name_localizations", "description_localizations"):
        texts = obj.get(key) or {}
        if not isinstance(texts, dict):
            continue
        for locale, text in texts.items():
            field = f"{pre}{key}.{locale}"
            if locale not in available_locales():
                problems.append((field, "BASE_TYPE_CHOICES", f"Value must be one of {sorted(available_locales())}."))
            elif key == "name_localizations" and names == "command":
                if not valid_command_name(text):
                    problems.append((field, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
            elif not 1 <= len(_text(text)) <= 100:
                problems.append(_length(field, 1, 100))
    return problems


def _length(path: str, low: int, high: int) -> Problem:
    return (path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _required(path: str) -> Problem:
    return (path, "BASE_TYPE_REQUIRED", "This field is required")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


# --------------------------------------------------------------------------- messages


def check_embeds(embeds: Any) -> Problems:
    """≤ 10 embeds; title 256, description 4,096, ≤ 25 fields (name 256, value 1,024), footer text
    (required) 2,048, author name (required) 256; ≤ 6,000 characters in all."""
    problems: Problems = []
    if embeds is None:
        return problems
    if not isinstance(embeds, list):
        return [("embeds", "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(embeds) > MAX_EMBEDS:
        problems.append(_too_long("embeds", MAX_EMBEDS))
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        for key, limit in EMBED_LIMITS.items():
            text = _text(embed.get(key))
            total += len(text)
            if len(text) > limit:
                problems.append(_too_long(f"embeds.{i}.{key}", limit))
        fields = embed.get("fields") or []
        if len(fields) > MAX_FIELDS:
            problems.append(_too_long(f"embeds.{i}.fields", MAX_FIELDS))
        for j, fld in enumerate(fields):
            name, value = _text(fld.get("name")), _text(fld.get("value"))
            total += len(name) + len(value)
            if not 1 <= len(name) <= 256:
                problems.append(_length(f"embeds.{i}.fields.{j}.name", 1, 256))
            if not 1 <= len(value) <= 1024:
                problems.append(_length(f"embeds.{i}.fields.{j}.value", 1, 1024))
        for part, key, limit in (("footer", "text", 2048), ("author", "name", 256)):
            obj = embed.get(part)
            if obj is None:
                continue
            text = _text(obj.get(key))
            total += len(text)
            if not text:
                problems.append(_required(f"embeds.{i}.{part}.{key}"))
            elif len(text) > limit:
                problems.append(_too_long(f"embeds.{i}.{part}.{key}", limit))
    if total > MAX_EMBED_TOTAL:
        problems.append(("embeds", "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"))
    return problems


def attachment_refs(embeds: Any) -> Iterator[tuple[str, str]]:
    """``(field.path, filename)`` of every ``attachment://filename`` URL in the embeds."""
    for i, embed in enumerate(embeds or []):
        for part, key in EMBED_URL_FIELDS:
            url = (embed.get(part) or {}).get(key) if isinstance(embed, dict) else None
            if isinstance(url, str) and url.startswith("attachment://"):
                yield f"embeds.{i}.{part}.{key}", url[len("attachment://"):]


def check_attachment_refs(embeds: Any, filenames: set[str]) -> Problems:
    """Every ``attachment://name`` must name a file the message has."""
    return [(path, "ATTACHMENT_NOT_FOUND", f"No attachment named {name!r} in this message.")
            for path, name in attachment_refs(embeds) if name not in filenames]


def _walk(components: list[Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every component with its field path, depth first (rows, containers, accessories, labels)."""
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = f"{path}.{i}"
        yield here, comp
        yield from _walk(list(comp.get("components") or []), f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from _walk([comp[key]], f"{here}.{key}")


def check_components(components: Any, flags: int, path: str = "components") -> Problems:
    """≤ 5 action rows of ≤ 5 buttons or one select; buttons with a label or emoji, link buttons
    with a url and no custom_id, others with a custom_id ≤ 100 (unique); labels ≤ 80; selects
    with 1–25 options and a sane min/max."""
    problems: Problems = []
    if components is None:
        return problems
    if not isinstance(components, list):
        return [(path, "LIST_TYPE_CONVERT", "Must be an array.")]
    if flags & FLAG_COMPONENTS_V2:
        if sum(1 for _ in _walk(components, path)) > MAX_V2_COMPONENTS:
            problems.append(_too_long(path, MAX_V2_COMPONENTS))
    else:
        if len(components) > MAX_ROWS:
            problems.append(_too_long(path, MAX_ROWS))
        for i, row in enumerate(components):
            if not isinstance(row, dict) or row.get("type") != 1:
                problems.append((f"{path}.{i}.type", "UNION_TYPE_CHOICES",
                                 'Value of field "type" must be one of (1,) without IS_COMPONENTS_V2.'))
                continue
            children = row.get("components") or []
            if not 1 <= len(children) <= MAX_PER_ROW:
                problems.append(_length(f"{path}.{i}.components", 1, MAX_PER_ROW))
            if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
                problems.append((f"{path}.{i}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                 "The specified component exceeds the maximum width"))
    seen: set[str] = set()
    for where, comp in _walk(components, path):
        ctype, cid = comp.get("type"), comp.get("custom_id")
        if cid is not None:
            if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
                problems.append(_length(f"{where}.custom_id", 1, 100))
            elif cid in seen:
                problems.append((f"{where}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
                                 f"Component custom id cannot be duplicated: {cid}"))
            seen.add(str(cid))
        if ctype == 2:
            problems += _check_button(comp, where)
        elif ctype in SELECT_TYPES:
            problems += _check_select(comp, where)
    return problems


def _check_button(comp: dict[str, Any], where: str) -> Problems:
    problems: Problems = []
    style, cid, label = comp.get("style"), comp.get("custom_id"), comp.get("label")
    if isinstance(label, str) and len(label) > 80:
        problems.append(_too_long(f"{where}.label", 80))
    if style == 6:  # premium: sku_id only
        if not comp.get("sku_id"):
            problems.append(_required(f"{where}.sku_id"))
        return problems
    if not label and not comp.get("emoji"):
        problems.append((f"{where}.label", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                         "A button needs a label or an emoji."))
    if style == 5:
        if not comp.get("url"):
            problems.append(_required(f"{where}.url"))
        if cid is not None:
            problems.append((f"{where}.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
                             "A link button cannot have a custom_id."))
    else:
        if not cid:
            problems.append(_required(f"{where}.custom_id"))
        if comp.get("url") is not None:
            problems.append((f"{where}.url", "BUTTON_COMPONENT_URL_INVALID", "Only link buttons can have a url."))
    return problems


def _check_select(comp: dict[str, Any], where: str) -> Problems:
    problems: Problems = []
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append(_length(f"{where}.options", 1, 25))
        for j, opt in enumerate(options):
            for key in ("label", "value"):
                if not 1 <= len(_text(opt.get(key))) <= 100:
                    problems.append(_length(f"{where}.options.{j}.{key}", 1, 100))
    low, high = comp.get("min_values"), comp.get("max_values")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append((f"{where}.min_values", "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                         "min_values must be less than or equal to max_values."))
    return problems


def check_allowed_mentions(am: Any) -> Problems:
    """``parse`` values, and no ``parse: users`` together with a ``users`` list."""
    if not isinstance(am, dict):
        return []
    problems: Problems = []
    parse = am.get("parse") or []
    for value in parse:
        if value not in ("users", "roles", "everyone"):
            problems.append(("allowed_mentions.parse", "ENUM_TYPE_COERCE", f"Value \"{value}\" is not a valid enum value."))
    for kind in ("users", "roles"):
        if kind in parse and am.get(kind):
            problems.append(("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                             f"parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive."))
    if len(am.get("users") or []) > 100:
        problems.append(_too_long("allowed_mentions.users", 100))
    return problems


def check_message(data: dict[str, Any], n_files: int) -> Problems:
    """Content, embeds, components, allowed_mentions and file count of a create/edit body."""
    problems: Problems = []
    content = data.get("content")
    flags = int(data.get("flags") or 0)
    if content is not None:
        if not isinstance(content, str):
            problems.append(("content", "BASE_TYPE_STRING", "Must be a string."))
        elif len(content) > MAX_CONTENT:
            problems.append(_too_long("content", MAX_CONTENT))
    if flags & FLAG_COMPONENTS_V2 and (content or data.get("embeds")):
        problems.append(("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                         "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2"))
    problems += check_embeds(data.get("embeds"))
    problems += check_components(data.get("components"), flags)
    problems += check_allowed_mentions(data.get("allowed_mentions"))
    if n_files > MAX_FILES:
        problems.append(_too_long("files", MAX_FILES))
    if len(data.get("attachments") or []) > MAX_FILES:
        problems.append(_too_long("attachments", MAX_FILES))
    return problems


def check_flags(data: dict[str, Any], allowed: int, path: str = "flags") -> Problems:
    """Only the documented flags may be set when creating a message (ephemeral: interactions only)."""
    flags = data.get("flags")
    if not isinstance(flags, int) or not flags & ~allowed:
        return []
    if flags & FLAG_EPHEMERAL and not allowed & FLAG_EPHEMERAL:
        return [(path, "MESSAGE_FLAGS_INVALID", "Only messages answering an interaction can be ephemeral (flag 64).")]
    return [(path, "MESSAGE_FLAGS_INVALID", f"Only the flags {allowed} can be set here.")]


# --------------------------------------------------------------------------- interaction responses


def check_choices(choices: Any, path: str = "choices") -> Problems:
    """Autocomplete result: ≤ 25 choices, names 1–100 chars, string values ≤ 100 chars."""
    problems: Problems = []
    if not isinstance(choices, list):
        return [(path, "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(choices) > MAX_CHOICES:
        problems.append(_too_long(path, MAX_CHOICES))
    for i, choice in enumerate(choices):
        problems += _check_choice(choice, f"{path}.{i}", None)
    return problems


def _check_choice(choice: Any, where: str, option_type: int | None) -> Problems:
    if not isinstance(choice, dict):
        return [(where, "DICT_TYPE_CONVERT", "Must be an object.")]
    problems: Problems = []
    if not 1 <= len(_text(choice.get("name"))) <= 100:
        problems.append(_length(f"{where}.name", 1, 100))
    problems += _check_localizations(choice, where, "choice")
    value = choice.get("value")
    if value is None:
        problems.append(_required(f"{where}.value"))
    elif isinstance(value, str) and not 1 <= len(value) <= 100:
        problems.append(_length(f"{where}.value", 1, 100))
    elif option_type is not None and not _of_type(value, option_type):
        problems.append((f"{where}.value", "BASE_TYPE_BAD_TYPE", f"The value must match the option's type ({option_type})."))
    return problems


def _of_type(value: Any, option_type: int) -> bool:
    if option_type == STRING:
        return isinstance(value, str)
    if option_type == INTEGER:
        return isinstance(value, int) and not isinstance(value, bool)
    if option_type == NUMBER:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return True


def check_modal(data: dict[str, Any], path: str = "") -> Problems:
    """A modal needs a custom_id ≤ 100, a title 1–45 chars and 1–5 components."""
    pre = f"{path}." if path else ""
    problems: Problems = []
    if not 1 <= len(_text(data.get("custom_id"))) <= 100:
        problems.append(_length(f"{pre}custom_id", 1, 100))
    if not 1 <= len(_text(data.get("title"))) <= 45:
        problems.append(_length(f"{pre}title", 1, 45))
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append(_length(f"{pre}components", 1, 5))
    return problems


# --------------------------------------------------------------------------- application commands


def valid_command_name(name: Any) -> bool:
    """The documented slash-command/option name rule: the pattern, and lower case where a case exists."""
    return isinstance(name, str) and bool(COMMAND_NAME.match(name)) and name == name.lower()


def check_command(cmd: Any, path: str) -> Problems:
    """Name and description rules per command type, options (≤ 25, required first, unique names,
    choices, min ≤ max) and ≤ 4,000 characters in all."""
    pre = f"{path}." if path else ""
    if not isinstance(cmd, dict):
        return [(path, "DICT_TYPE_CONVERT", "Must be an object.")]
    problems: Problems = []
    name = cmd.get("name")
    ctype = cmd.get("type") or CHAT_INPUT
    if ctype == CHAT_INPUT:
        if not valid_command_name(name):
            problems.append((f"{pre}name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        if not 1 <= len(_text(cmd.get("description"))) <= 100:
            problems.append(_length(f"{pre}description", 1, 100))
        problems += _check_localizations(cmd, path, "command")
    else:
        if not 1 <= len(_text(name)) <= 32:
            problems.append(_length(f"{pre}name", 1, 32))
        if cmd.get("description"):
            problems.append((f"{pre}description", "APPLICATION_COMMAND_DESCRIPTION_INVALID",
                             "User and message commands have no description."))
        if cmd.get("options"):
            problems.append((f"{pre}options", "APPLICATION_COMMAND_OPTIONS_INVALID",
                             "User and message commands have no options."))
    problems += _check_options(cmd.get("options") or [], f"{pre}options")
    for locale, size in command_sizes(cmd).items():
        if size > MAX_COMMAND_CHARS:
            where = f" (locale {locale})" if locale else ""
            problems.append((path, "APPLICATION_COMMAND_TOO_LARGE",
                             f"Command exceeds maximum size ({MAX_COMMAND_CHARS}){where}"))
    return problems


def check_commands(commands: Any) -> Problems:
    """A bulk overwrite: each command, ≤ 100 of them, names unique per type."""
    if not isinstance(commands, list):
        return [("", "LIST_TYPE_CONVERT", "Must be an array.")]
    problems: Problems = []
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        problems += check_command(cmd, str(i))
        if isinstance(cmd, dict):
            key = (cmd.get("type") or CHAT_INPUT, str(cmd.get("name")))
            if key in seen:
                problems.append((f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME",
                                 f"Application command names must be unique: {key[1]}"))
            seen.add(key)
    if len(commands) > MAX_COMMANDS:
        problems.append(_too_long("", MAX_COMMANDS))
    problems += _unique_per_locale([c for c in commands if isinstance(c, dict)], "", "APPLICATION_COMMANDS_DUPLICATE_NAME")
    return problems


def _unique_per_locale(items: list[dict[str, Any]], path: str, code: str) -> Problems:
    """Names (of commands, or of one command's options) stay unique in each locale, a localized
    name standing in for the default one."""
    problems: Problems = []
    locales = {locale for item in items for locale in (item.get("name_localizations") or {})}
    for locale in sorted(locales):
        seen: set[str] = set()
        for i, item in enumerate(items):
            name = str((item.get("name_localizations") or {}).get(locale) or item.get("name"))
            if name in seen:
                where = f"{path}.{i}" if path else str(i)
                problems.append((f"{where}.name_localizations.{locale}", code, f"Names must be unique: {name}"))
            seen.add(name)
    return problems


def _check_options(options: Any, path: str) -> Problems:
    if not isinstance(options, list):
        return [(path, "LIST_TYPE_CONVERT", "Must be an array.")]
    problems: Problems = []
    if len(options) > MAX_OPTIONS:
        problems.append(_too_long(path, MAX_OPTIONS))
    names: set[str] = set()
    seen_optional = False
    problems += _unique_per_locale([o for o in options if isinstance(o, dict)], path,
                                   "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS")
    for i, opt in enumerate(options):
        where = f"{path}.{i}"
        name = opt.get("name")
        if not valid_command_name(name):
            problems.append((f"{where}.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        if name in names:
            problems.append((f"{where}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique"))
        names.add(str(name))
        if not 1 <= len(_text(opt.get("description"))) <= 100:
            problems.append(_length(f"{where}.description", 1, 100))
        problems += _check_localizations(opt, where, "command")
        otype = opt.get("type")
        if otype in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += _check_options(opt.get("options") or [], f"{where}.options")
            continue
        if opt.get("required"):
            if seen_optional:
                problems.append((f"{where}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                 "Required options must be placed before non-required options"))
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(_too_long(f"{where}.choices", MAX_CHOICES))
        for j, choice in enumerate(choices):
            problems += _check_choice(choice, f"{where}.choices.{j}", otype)
        if choices and opt.get("autocomplete"):
            problems.append((f"{where}.autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES",
                             "Autocomplete cannot be set with choices"))
        for low, high in (("min_value", "max_value"), ("min_length", "max_length")):
            a, b = opt.get(low), opt.get(high)
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > b:
                problems.append((f"{where}.{low}", "APPLICATION_COMMAND_OPTION_MIN_GREATER_THAN_MAX",
                                 f"{low} must be less than or equal to {high}."))
        for key in ("min_length", "max_length"):
            value = opt.get(key)
            if value is not None and not (isinstance(value, int) and 0 <= value <= 6000):
                problems.append((f"{where}.{key}", "NUMBER_TYPE_MAX", "int value should be between 0 and 6000."))
    return problems


def command_sizes(cmd: dict[str, Any]) -> dict[str | None, int]:
    """Characters of name, description and choice names/values, per locale (None = default).

    "The maximum combined sum of characters across name, description, and
    value properties of a command, its options and its choices is 4,000 …
    for each locale" (docs; localized text replaces the default one)."""
    locales: set[str] = set()

    def collect(obj: dict[str, Any]) -> None:
        for key in ("name_localizations", "description_localizations"):
            locales.update((obj.get(key) or {}).keys())
        for child in list(obj.get("options") or []) + list(obj.get("choices") or []):
            if isinstance(child, dict):
                collect(child)

    def size(obj: dict[str, Any], locale: str | None) -> int:
        total = 0
        for key in ("name", "description"):
            text = ((obj.get(f"{key}_localizations") or {}).get(locale) if locale else None) or obj.get(key)
            total += len(_text(text))
        value = obj.get("value")
        if value is not None:
            total += len(str(value))
        for child in list(obj.get("options") or []) + list(obj.get("choices") or []):
            if isinstance(child, dict):
                total += size(child, locale)
        return total

    collect(cmd)
    return {locale: size(cmd, locale) for locale in [None, *sorted(locales)]}


# --------------------------------------------------------------------------- per operation


def check_thread(data: dict[str, Any]) -> Problems:
    """Starting a thread without a message: API v10 requires ``type`` (no default any more)."""
    return [] if data.get("type") is not None else [_required("type")]


def check_callback(data: dict[str, Any]) -> Problems:
    """An interaction response, by its type (the message parts are checked when the message is made)."""
    rtype, body = data.get("type"), data.get("data") or {}
    if not isinstance(body, dict):
        return []
    if rtype == 8:
        return check_choices(body.get("choices"), "data.choices")
    if rtype == 9:
        return check_modal(body, "data")
    if rtype in (4, 5, 7):
        return check_flags(body, INTERACTION_MESSAGE_FLAGS, "data.flags")
    return []


#: operationId → the documented limits of its body beyond the schema.
LIMITS: dict[str, Callable[[Any], Problems]] = {
    "bulk_set_application_commands": check_commands,
    "bulk_set_guild_application_commands": check_commands,
    "create_application_command": lambda body: check_command(body, ""),
    "create_guild_application_command": lambda body: check_command(body, ""),
    "create_interaction_response": check_callback,
    "create_message": lambda body: check_flags(body, CHANNEL_MESSAGE_FLAGS),
    "execute_webhook": lambda body: check_flags(body, INTERACTION_MESSAGE_FLAGS),
    "create_thread": check_thread,
}


def check_limits(operation_id: str, body: Any) -> Problems:
    """The documented limits of one operation's body (message bodies: see :func:`check_message`)."""
    checker = LIMITS.get(operation_id)
    if checker is None or body is None:
        return []
    if isinstance(body, dict) or operation_id.startswith("bulk_"):
        return checker(body)
    return []
