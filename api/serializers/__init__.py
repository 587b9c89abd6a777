"""The API's serializers, a module an area (as `api/views/`)."""
