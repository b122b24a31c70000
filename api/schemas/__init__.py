"""marshmallow envelopes of every endpoint's request and response."""
