"""Flask blueprints, one per area; each view loads the request, calls the core, dumps."""
