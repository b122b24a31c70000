"""``python -m api.openapi > openapi.yaml`` regenerates the committed contract."""

from api import create_app
from api.openapi.spec import spec_yaml

print(spec_yaml(create_app()), end="")
