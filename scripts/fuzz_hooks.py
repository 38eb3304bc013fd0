"""Schemathesis hooks for `just fuzz` (loaded through SCHEMATHESIS_HOOKS): sends the text generated for
`message/rfc822` bodies (POST /inbound/dsn) as the raw message, as a relay's mailer would."""

import schemathesis

schemathesis.serializer.alias("message/rfc822", "text/plain")
