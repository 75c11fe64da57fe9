"""What the OpenAPI 3.0.3 document cannot tell Schemathesis, for scripts/contract-test.sh.

Each hook stands for a rule the document states in words because 3.0.3 has no keyword for it
(see schemathesis.toml for the reasons).
"""

import schemathesis
from schemathesis.core.parameters import ParameterLocation


def _without_refused_keys(value):
    """The body with `$` starting and `.` containing keys renamed, at any depth."""
    if isinstance(value, dict):
        return {_allowed_key(key): _without_refused_keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_refused_keys(item) for item in value]
    return value


def _allowed_key(key):
    key = key.replace(".", "_")
    return "_" + key[1:] if key.startswith("$") else key


@schemathesis.hook
def before_call(context, case, kwargs):
    if isinstance(case.body, (dict, list)):
        case.body = _without_refused_keys(case.body)
    negative_query = case.meta is not None and case.meta.is_negative_at(ParameterLocation.QUERY)
    if isinstance(case.query, dict) and "cursor" in case.query and not negative_query:
        case.query = {name: value for name, value in case.query.items() if name != "cursor"}
