"""The API's views, a module an area; each module lists its own `urlpatterns`."""
