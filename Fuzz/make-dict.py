#!/usr/bin/env python3
"""Writes the scene fuzzer's vocabulary from docs/scene.schema.json: every field
name and every string value it names (a layer's type too, "text" or "image",
though it is also a field's name), as Fuzz/dict/scene.dict (the libFuzzer
dictionary, quoted as they appear in a scene file, with JSON's own tokens and a
few texts that stress shaping) and as Fuzz/Sources/fuzz-scene/SceneVocabulary.swift
(for the structure-aware mutator). Run it when the format changes: Fuzz/make-dict.py."""
import json
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "docs/scene.schema.json").read_text())
keys, values = set(), set()


def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                keys.update(value)
            elif key == "required" and isinstance(value, list):
                keys.update(value)
            elif key == "enum" and isinstance(value, list):
                values.update(v for v in value if isinstance(v, str))
            elif key == "const" and isinstance(value, str):
                values.add(value)
            walk(value)
    elif isinstance(node, list):
        for item in node:
            walk(item)


walk(schema)


def entry(text):
    """A libFuzzer dictionary entry: printable ASCII as is (backslash and quote
    escaped), any other byte of the UTF-8 as \\xNN."""
    out = ""
    for byte in text.encode():
        if byte in (0x5C, 0x22):
            out += "\\" + chr(byte)
        elif 0x20 <= byte < 0x7F:
            out += chr(byte)
        else:
            out += f"\\x{byte:02X}"
    return '"' + out + '"'


lines = ["# The scene fuzzer's dictionary, written by Fuzz/make-dict.py from docs/scene.schema.json."]
lines += [entry(f'"{k}":') for k in sorted(keys)]
lines += [entry(f'"{v}"') for v in sorted(values)]
lines += [entry(t) for t in ["{", "}", "[", "]", ":", ",", "true", "false", "null", "-0", "1e308", "-1e-7", "0.5",
                             "65536", "16384", "#ff000080", '"#', "\\u0000", "\\ud800", "{}", "[]", "\\n",
                             "\\u200f", "\\u0301", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627",
                             "\U0001f44d\U0001f3fd", "Show", "Hide"]]
(root / "Fuzz/dict/scene.dict").write_text("\n".join(lines) + "\n")
names = sorted(keys)
strings = sorted(values)


def swift_list(items):
    out, line = [], "   "
    for item in items:
        word = f' "{item}",'
        if len(line) + len(word) > 118:
            out.append(line)
            line = "   "
        line += word
    out.append(line)
    return "\n".join(out)


(root / "Fuzz/Sources/fuzz-scene/SceneVocabulary.swift").write_text(
    "// Written by Fuzz/make-dict.py from docs/scene.schema.json; do not edit.\n\n"
    "/// The scene format's words, for the structure-aware mutator.\n"
    "enum SceneVocabulary {\n"
    "  /// Every field name.\n"
    f"  static let keys: [String] = [\n{swift_list(names)}\n  ]\n"
    "  /// Every string value (a layer's type too, though it is also a field's name).\n"
    f"  static let values: [String] = [\n{swift_list(strings)}\n  ]\n"
    "}\n")
print(f"Fuzz/dict/scene.dict: {len(keys)} fields, {len(values)} values")
