"""The routes of API v1."""
