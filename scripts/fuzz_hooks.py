"""Schemathesis hooks for `just fuzz` (loaded through SCHEMATHESIS_HOOKS): sends the text generated for
`message/rfc822` bodies (POST /inbound/dsn) as the raw message, as a relay's mailer would; and lets one thread at a
time build an AST, which CPython 3.11 before 3.11.8 cannot do safely."""

import ast
import threading

import schemathesis

# CPython 3.11 keeps the AST constructor's recursion depth in state the interpreter's threads share, so two
# threads in `ast.parse` at once (hypothesis describes each filter's lambda with it, and the fuzz runs two workers)
# can fail with "SystemError: AST constructor recursion depth mismatch": python/cpython#106905, fixed in 3.11.8,
# and this machine's Python is 3.11.7. Such a failure is the fuzzer's own, never a finding against the service,
# yet it failed a run on 2026-11-29, so every parse takes one lock.
_parse = ast.parse
_one_parse_at_a_time = threading.Lock()


def _parse_alone(*args, **kwargs):
    with _one_parse_at_a_time:
        return _parse(*args, **kwargs)


ast.parse = _parse_alone

schemathesis.serializer.alias("message/rfc822", "text/plain")
