"""What a club uploads (a scenario, a chart, a saved game): each kind of file's size limit, said on its form and
held before the file is read (what the file may hold once read: republic/file_shapes.py).

A file is never read whole into memory to be measured: Django keeps a large upload in a temporary file, and
``CappedUpload`` (first of the upload handlers in the settings) keeps no more than the largest limit of any of
them, counting the rest without keeping it, so a file of gigabytes costs neither memory nor disk."""

from typing import Any

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
