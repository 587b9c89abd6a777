"""Model fields of our own."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import models

from troefclub.bidi import name_text


def nfc(value: str) -> str:
    """`value` in Unicode normal form C: "Kolibrië" is one code point for the "ë" however
    it was typed, so equal names compare, sort and search equal."""
    return unicodedata.normalize("NFC", value)


class NameField(models.CharField):
    """A CharField that stores its text in Unicode NFC, without bidirectional control
    characters (`troefclub.bidi.name_text`: a name can't turn the text around it).

    Every path cleans it: forms and the admin (`to_python`, via full_clean), saves and
    bulk creates (`pre_save`), and `update()` / exact lookups (`get_prep_value`).
    """

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return name_text(value) if isinstance(value, str) else value

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = getattr(model_instance, self.attname)
        if isinstance(value, str):
            value = name_text(value)
            setattr(model_instance, self.attname, value)
        return value

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        return name_text(value) if isinstance(value, str) else value
