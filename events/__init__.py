"""The event store: streams, envelopes, appends, and the one path that executes a command."""
