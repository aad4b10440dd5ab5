"""Process plumbing the API and the workers share: settings, connections, the embedded store, logs, metrics."""
