#!/usr/bin/env python3
"""Kubernetes' OpenAPI v2 document (api/openapi-spec/swagger.json) -> one JSON schema per kind.

Writes the schemas kubeconform reads (`<kind>-<group>-<version>.json`, e.g.
`deployment-apps-v1.json`, `service-v1.json`), standalone (every $ref inlined) and strict (an
object rejects fields its schema does not list), as the published kubernetes-json-schema
`-standalone-strict` sets are made. Those are fetched from GitHub; this makes them from the spec.

    openapi-to-json-schemas.py SWAGGER_JSON OUTPUT_DIR
"""

import json
import os
import sys

REF_PREFIX = "#/definitions/"
# Types the API server decodes from more than one JSON type.
SPECIAL = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {
        "oneOf": [{"type": "string"}, {"type": "integer"}]
    },
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {
        "oneOf": [{"type": "string"}, {"type": "number"}]
    },
}


class Converter:
    def __init__(self, definitions):
        self.definitions = definitions
        self.done = {}

    def definition(self, name, stack):
        """The schema of a definition, refs inlined. A definition met again inside itself (the
        CRD's JSONSchemaProps) is cut to {}, which accepts anything. Returns (schema, cut)."""
        if name in SPECIAL:
            return SPECIAL[name], False
        if name in self.done:
            return self.done[name], False
        if name in stack:
            return {}, True
        if name not in self.definitions:
            raise SystemExit(f"openapi-to-json-schemas: unknown $ref {REF_PREFIX}{name}")
        schema, cut = self.node(self.definitions[name], stack + (name,))
        if not cut:
            self.done[name] = schema
        return schema, cut

    def node(self, value, stack):
        if isinstance(value, list):
            items = [self.node(item, stack) for item in value]
            return [item for item, _ in items], any(cut for _, cut in items)
        if not isinstance(value, dict):
            return value, False
        ref = value.get("$ref")
        if isinstance(ref, str):
            if not ref.startswith(REF_PREFIX):
                raise SystemExit(f"openapi-to-json-schemas: unsupported $ref {ref}")
            return self.definition(ref[len(REF_PREFIX) :], stack)
        out, cut = {}, False
        for key, item in value.items():
            # Prose and vendor extensions only make the files bigger.
            if (key == "description" and isinstance(item, str)) or key.startswith("x-"):
                continue
            if key == "format" and item == "int-or-string":
                return SPECIAL["io.k8s.apimachinery.pkg.util.intstr.IntOrString"], False
            out[key], item_cut = self.node(item, stack)
            cut = cut or item_cut
        if isinstance(out.get("properties"), dict) and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out, cut


def file_name(group, version, kind):
    """As kubeconform builds it: the first label of the group, if any."""
    parts = [kind.lower()] + ([group.split(".")[0].lower()] if group else []) + [version.lower()]
    return "-".join(parts) + ".json"


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    swagger_path, output_dir = sys.argv[1:]
    with open(swagger_path, encoding="utf-8") as spec:
        definitions = json.load(spec)["definitions"]
    converter = Converter(definitions)
    os.makedirs(output_dir, exist_ok=True)
    written = 0
    for name, definition in definitions.items():
        for gvk in definition.get("x-kubernetes-group-version-kind", []):
            group, version, kind = gvk["group"], gvk["version"], gvk["kind"]
            schema, _ = converter.definition(name, ())
            schema = dict(schema, properties=dict(schema.get("properties", {})))
            api_version = f"{group}/{version}" if group else version
            for field, value in (("apiVersion", api_version), ("kind", kind)):
                if field in schema["properties"]:
                    schema["properties"][field] = dict(schema["properties"][field], enum=[value])
            with open(os.path.join(output_dir, file_name(group, version, kind)), "w") as out:
                json.dump(schema, out, separators=(",", ":"))
            written += 1
    if written == 0:
        raise SystemExit(f"openapi-to-json-schemas: no kinds in {swagger_path}")
    print(f"openapi-to-json-schemas: {written} schemas in {output_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
