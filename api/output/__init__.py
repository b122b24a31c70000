"""Explicit serializers that turn core results into the documented JSON."""
