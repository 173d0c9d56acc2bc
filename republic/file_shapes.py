"""What no file a club uploads holds, read before the file is built into data: the nesting past which a file
(a scenario, a chart, a saved game) is refused, the number of values, and the characters no name may hold. Pure
text checks, beneath the models that keep a chart and the forms that take a file."""

import unicodedata
from typing import Any

import yaml

YAML_DEPTH = 24
"""Lists and mappings inside each other: a scenario goes a dozen deep (sides, commands, corps, divisions, brigades,
fields), a chart less; Python's own recursion ends near a thousand."""
YAML_VALUES = 100_000
"""A 400-unit scenario is 20,000 values, the shipped chart 2,000: past this, a file is refused before it is built
into data, which costs hundreds of bytes a value."""

_OPENS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSES = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def past_any_file(text: str) -> tuple[int, str] | None:
    """Where a YAML (or JSON) text nests lists and mappings more than ``YAML_DEPTH`` deep, or holds more than
    ``YAML_VALUES`` values, and which: (line, words), or None. Read as a stream of events, which no nesting makes
    recursive and no length builds up; a text that is not YAML is for its parser to name."""
    for loader in (getattr(yaml, "CSafeLoader", yaml.SafeLoader), yaml.SafeLoader):
        depth = values = 0
        try:
            for event in yaml.parse(text, Loader=loader):
                line = event.start_mark.line + 1 if event.start_mark else 1
                if isinstance(event, _OPENS):
                    depth += 1
                    if depth > YAML_DEPTH:
                        return line, f"lists and mappings nested more than {YAML_DEPTH} deep"
                elif isinstance(event, _CLOSES):
                    depth -= 1
                    continue
                values += 1
                if values > YAML_VALUES:
                    return line, f"more than {YAML_VALUES:,} values"
        except yaml.YAMLError:
            continue  # libyaml stops at its own depth (a thousand): PyYAML's parser reads on
        return None
    return None


def data_too_deep(data: Any, most: int) -> bool:
    """Whether plain data (JSON's lists and objects) nests more than ``most`` deep, walked without recursion."""
    waiting = [(data, 1)]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, dict | list):
            if depth > most:
                return True
            waiting.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return False


def control_character(text: str, lines: bool = False) -> str:
    """The first character of ``text`` no one types into a name (a NUL, an escape, half of a UTF-16 pair), as the
    table can find it ('the control character U+0000'), or ''. A NUL is no text to PostgreSQL, and a saved game
    refuses it; ``lines`` lets a description keep its line breaks and tabs."""
    for character in text:
        if lines and character in "\n\r\t":
            continue
        if unicodedata.category(character) in ("Cc", "Cs"):
            return f"the control character U+{ord(character):04X}"
    return ""
