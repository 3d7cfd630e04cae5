"""A profile pasted as YAML or JSON (a fenced block, or a turn that is one JSON object), for the rules reader: its
keys become a form's labels and its values their lines' values, so labelled.py reads it as it reads a form.
Nested lists and mappings come out one line each ("household: [cat: Mochi]" -> "Cat: Mochi").

    profile_lines("```yaml\\nage: 36\\nallergies:\\n  - shellfish\\n  - sesame\\nhousehold:\\n  - cat: Mochi\\n```")
    # "Age: 36\\nAllergies: shellfish, sesame\\nPet: Mochi (cat)"

A block that does not parse, or parses to no mapping of at least two keys, is left as written.
"""
from __future__ import annotations

import json
import re
from typing import Any

import yaml

FENCE = re.compile(r"```[ \t]*(?:ya?ml|json|YAML|JSON)?[ \t]*\n(.*?)\n[ \t]*```", re.S)


def profile_lines(text: str) -> str:
    """`text` with each YAML or JSON profile in it written as a form's lines; the same text when it has none."""
    if "```" in text:
        return FENCE.sub(lambda m: _lines(m.group(1)) or m.group(0), text)
    if text.lstrip().startswith("{") and text.rstrip().endswith("}"):
        return _lines(text) or text
    return text


def _lines(block: str) -> str | None:
    try:
        data = yaml.safe_load(block)
    except yaml.YAMLError:
        try:
            data = json.loads(block)
        except ValueError:
            return None
    if not isinstance(data, dict) or len(data) < 2:
        return None
    return "\n".join(_said(data))


def _said(data: dict) -> list[str]:
    out = []
    for key, value in data.items():
        label = re.sub(r"[_-]+", " ", str(key)).strip()
        if isinstance(value, dict):
            out += _said(value)
        elif isinstance(value, list):
            plain = [str(v) for v in value if isinstance(v, str | int | float) and not isinstance(v, bool)]
            if plain:
                out.append(f"{label.capitalize()}: {', '.join(plain)}")
            for item in value:
                if isinstance(item, dict):
                    out += _said(item)
        elif value is not None and not isinstance(value, bool):
            out.append(f"{label.capitalize()}: {_scalar(value)}")
    return out


def _scalar(value: Any) -> str:
    return str(value).strip().replace("\n", " ")
