"""What a club uploads (a scenario, a chart, a saved game): each kind of file's size limit, said on its form and
held before the file is read, the nesting past which a file is refused before it is built into data, and the
characters no name in it may hold.

A file is never read whole into memory to be measured: Django keeps a large upload in a temporary file, and
``CappedUpload`` (first of the upload handlers in the settings) keeps no more than the largest limit of any of
them, counting the rest without keeping it, so a file of gigabytes costs neither memory nor disk."""

import unicodedata
from typing import Any

import yaml
from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler

KB = 1024
MB = 1024 * KB
SCENARIO_MOST = 1 * MB
"""A 400-unit club battle is 80 KB as YAML, 160 KB as indented JSON: six times the largest, descriptions and all."""
CHART_MOST = 256 * KB
"""The shipped chart is a tenth of this."""
SAVED_GAME_MOST = 16 * MB
"""A 400-unit battle's whole day (2,000 to 3,000 events) saves as 2 to 3 MB."""
LARGEST = max(SCENARIO_MOST, CHART_MOST, SAVED_GAME_MOST)

YAML_DEPTH = 24
"""Lists and mappings inside each other: a scenario goes a dozen deep (sides, commands, corps, divisions, brigades,
fields), a chart less; Python's own recursion ends near a thousand."""
YAML_VALUES = 100_000
"""A 400-unit scenario is 20,000 values, the shipped chart 2,000: past this, a file is refused before it is built
into data, which costs hundreds of bytes a value."""


def in_words(size: int) -> str:
    """A size as a table reads it: '1 MB', '256 KB', '12.5 MB'."""
    if size >= MB:
        return f"{size / MB:.1f}".removesuffix(".0") + " MB"
    return f"{max(1, round(size / KB))} KB"


class LimitedFileField(forms.FileField):
    """A file upload whose limit its form says ("At most 1 MB."), refused by its size before anything reads it."""

    def __init__(self, *, most: int, what: str, **kwargs: Any) -> None:
        super().__init__(help_text=f"At most {in_words(most)}.", **kwargs)
        self.most, self.what = most, what

    def clean(self, data: Any, initial: Any = None) -> Any:
        upload = super().clean(data, initial)
        if upload and upload.size > self.most:
            raise forms.ValidationError(
                f"The file is {in_words(upload.size)}; {self.what} is at most {in_words(self.most)}."
            )
        return upload


class TooLarge(UploadedFile):
    """A file past every limit, as ``CappedUpload`` leaves it: its name and its size, and none of its bytes."""

    def __init__(self, name: str, size: int, content_type: str | None) -> None:
        super().__init__(None, name, content_type, size)

    def read(self, *args: Any, **kwargs: Any) -> bytes:
        return b""

    def chunks(self, chunk_size: int | None = None) -> Any:
        return iter(())

    def close(self) -> None:
        pass


class CappedUpload(FileUploadHandler):
    """Hands the handlers after it a file's bytes up to one past ``LARGEST``; past that, only counts them, and
    gives the file as ``TooLarge``, which every upload field refuses by its size."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        return None if self.received > LARGEST else raw_data

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if self.received <= LARGEST:
            return None  # the handlers after this one make the file
        return TooLarge(self.file_name or "", self.received, self.content_type)


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
