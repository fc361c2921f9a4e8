#!/usr/bin/env python3
"""Validates every line of a -f jsonl output (argv[1]) against
formats/jsonl.schema.json, its report against formats/report.schema.json;
prints the first error and exits 1 when a line does not follow them."""
import json
import sys

import jsonschema

line_schema = json.load(open("formats/jsonl.schema.json"))
report_schema = json.load(open("formats/report.schema.json"))


def validator():
    try:
        from referencing import Registry, Resource
    except ImportError:  # python3-jsonschema before 4.18 (Debian 12)
        resolver = jsonschema.RefResolver.from_schema(
            line_schema, store={report_schema["$id"]: report_schema})
        return jsonschema.Draft202012Validator(line_schema,
                                               resolver=resolver)
    reg = Registry().with_resource(report_schema["$id"],
                                   Resource.from_contents(report_schema))
    return jsonschema.Draft202012Validator(line_schema, registry=reg)


v = validator()
n = 0
for n, text in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    try:
        v.validate(json.loads(text))
    except jsonschema.ValidationError as e:
        print("line %d: %s" % (n, e.message[:300]))
        sys.exit(1)
if n == 0:
    print("no line")
    sys.exit(1)
