"""The HTTP API: a Flask app over the event store."""
