"""The OpenAPI contract: per-view documentation, shared components and the document builder."""
