"""The REST API (issue 21): /api/v1/, over the same services and selectors as the pages."""
