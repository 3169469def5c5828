#!/usr/bin/env python3
"""Validates every Assets/scenes/*.json against docs/scene.schema.json.

With file arguments it checks those files instead. Developer tooling only: `pip install jsonschema` to use it. Without the module it
prints a message and exits 0. Exits 1 when a scene does not match the schema,
printing the file, the JSON path and the error. The schema is generated from the
format's one table (Sources/GLESGlass/Scene/SceneFormat.swift, LayerFormat.swift,
PaintFormat.swift; GLASS_UPDATE_DOCS=1 swift test --filter SceneFormatDocs), all
but its cross-field rules and `animation`. `glass-gpu validate` is the authority.
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("check-schema: the jsonschema module is not installed (pip install jsonschema); skipping")
    sys.exit(0)

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(root, "docs", "scene.schema.json")) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)


def strict_object(pairs):
    # The reader refuses duplicate keys and non-numbers such as NaN; so does this check.
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError('the key "%s" appears twice' % key)
    return dict(pairs)


def no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def location(path):
    out = ""
    for part in path:
        out += "[%d]" % part if isinstance(part, int) else ("." if out else "") + part
    return out or "the scene"


files = sorted(sys.argv[1:] or glob.glob(os.path.join(root, "Assets", "scenes", "*.json")))
failures = 0
for name in files:
    shown = name if sys.argv[1:] else os.path.relpath(name, root)
    try:
        with open(name) as f:
            scene = json.load(f, object_pairs_hook=strict_object, parse_constant=no_constant)
    except (OSError, ValueError) as error:
        print("%s: %s" % (shown, error))
        failures += 1
        continue
    errors = list(validator.iter_errors(scene))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        print("%s: %s: %s" % (shown, location(best.absolute_path), best.message))
        failures += 1
print("check-schema: %d of %d scenes match docs/scene.schema.json" % (len(files) - failures, len(files)))
sys.exit(1 if failures else 0)
