"""The `meeple` command: serves the API with its workers and store, imports logs, writes the contract."""
