"""Decodes the service's answers with a Python client quicktype generated from the OpenAPI document.

Usage: decode.py MODULE_DIR ANSWERS_JSONL. MODULE_DIR holds `bismarck_client.py` (quicktype's output)
and `openapi.json` (the document quicktype read); each line of
ANSWERS_JSONL is {"schema": name, "what": label, "body": answer}. Each answer is decoded with its
schema's class and encoded back: the round trip must give the answer again, so a field the client
drops or changes fails as surely as one it refuses. Prints a JSON summary on stdout.
test/python-client.e2e-spec.ts runs it.
"""
import importlib
import json
import re
import sys
import types
from datetime import datetime


def dateutil_or_stand_in():
    # quicktype's Python reads `format: date-time` with python-dateutil, a pip package that a fresh
    # machine may lack (and there is no pip index to get it from): the stdlib reads RFC 3339 then.
    try:
        import dateutil.parser  # noqa: F401
        return "python-dateutil " + dateutil.__version__
    except ImportError:
        pass
    parser = types.ModuleType("dateutil.parser")
    parser.parse = lambda s: datetime.fromisoformat(s[:-1] + "+00:00" if s.endswith("Z") else s)
    package = types.ModuleType("dateutil")
    package.parser = parser
    sys.modules["dateutil"], sys.modules["dateutil.parser"] = package, parser
    return "stand-in (datetime.fromisoformat)"


DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def same(a, b, path="$"):
    """The first place where a and b differ, or None. A date-time is compared as the instant it
    names: quicktype encodes `…T12:00:00.123Z` back as `…T12:00:00.123000+00:00`; a number as the
    number it is (JSON has one number type: 25 and 25.0 are the same)."""
    if isinstance(a, str) and isinstance(b, str) and a != b and DATE_TIME.match(a) and DATE_TIME.match(b):
        parse = sys.modules["dateutil.parser"].parse
        return None if parse(a) == parse(b) else path
    # A JSON number is one type: a `number` property that happens to be whole (mu 25) comes back as 25.0.
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
        return None if a == b else path
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = same(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}.length"
        for i, (x, y) in enumerate(zip(a, b)):
            found = same(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else path


class Exact:
    """Two things quicktype's Python cannot say, put right by what the schema says (its bugs, not the
    document's):
    - a oneOf of objects becomes one class holding every member's fields, all optional (its unions
      hold one class at most: glideapps/quicktype#2213). A client tells the members apart by the
      discriminator, as the document does, and decodes each with its member's own class: so does this.
    - an optional property is None both when absent and when null, and `to_dict` leaves None out
      (glideapps/quicktype#1391): a null the answer had where the schema makes the property optional
      and lets it be null (from_dict checked that) is put back, and counted."""

    def __init__(self, module, schemas):
        self.module, self.schemas, self.members, self.optional_nulls = module, schemas, {}, {}

    def resolve(self, schema, value):
        while True:
            if "$ref" in schema:
                schema = self.schemas[schema["$ref"].split("/")[-1]]
            elif len(schema.get("allOf", [])) == 1 and "properties" not in schema:
                schema = schema["allOf"][0]
            elif "anyOf" in schema and value is not None:
                schema = next(s for s in schema["anyOf"] if s.get("type") != "null")
            else:
                return schema

    def encode(self, value, back, schema):
        """`back` (the envelope's encoding of `value`) with each discriminated member encoded by its own class
        alone, as a client decodes it (docs/clients.md): a field only the union's class has would be lost."""
        schema = self.resolve(schema, value)
        if "discriminator" in schema and isinstance(value, dict):
            rule = schema["discriminator"]
            name = rule["mapping"][value[rule["propertyName"]]].split("/")[-1]
            back = getattr(self.module, name).from_dict(value).to_dict()
            self.members[name] = self.members.get(name, 0) + 1
            back = self.encode(value, back, self.schemas[name])
        if isinstance(value, dict) and isinstance(back, dict):
            for key, sub in schema.get("properties", {}).items():
                if key in value and key in back:
                    back[key] = self.encode(value[key], back[key], sub)
                elif key in value and value[key] is None and key not in schema.get("required", []):
                    back[key] = None
                    self.optional_nulls[key] = self.optional_nulls.get(key, 0) + 1
        if isinstance(value, list) and isinstance(back, list) and "items" in schema:
            back = [self.encode(v, b, schema["items"]) for v, b in zip(value, back)]
        return back


def main(module_dir, answers_path):
    dateutil = dateutil_or_stand_in()
    sys.path.insert(0, module_dir)
    module = importlib.import_module("bismarck_client")
    with open(f"{module_dir}/openapi.json", encoding="utf-8") as f:
        schemas = json.load(f)["components"]["schemas"]
    exact = Exact(module, schemas)
    decoded, refused, failures = {}, {}, []
    with open(answers_path, encoding="utf-8") as f:
        for line, text in enumerate(f, 1):
            answer = json.loads(text)
            schema, body = answer["schema"], answer["body"]
            try:
                back = getattr(module, schema).from_dict(body).to_dict()
                back = exact.encode(body, back, schemas[schema])
                differs = same(body, back)
                if differs:
                    raise AssertionError(f"the round trip changed {differs}")
            except Exception as e:  # quicktype's decoders assert: any exception is a refusal
                failures.append({"line": line, "schema": schema, "what": answer["what"], "error": f"{type(e).__name__}: {e}"})
                refused[schema] = refused.get(schema, 0) + 1
                continue
            decoded[schema] = decoded.get(schema, 0) + 1
    summary = {
        "decoded": decoded,
        "members": exact.members,
        "optionalNulls": exact.optional_nulls,
        "total": sum(decoded.values()),
        "failed": len(failures),
        "refused": refused,
        "errors": sorted({f["error"].split(":")[0] for f in failures}),
        "failures": failures[:20],
        "python": sys.version.split()[0],
        "dateutil": dateutil,
    }
    print(json.dumps(summary, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
