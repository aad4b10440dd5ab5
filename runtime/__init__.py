"""Process plumbing that the API and the workers share: settings, store connections, the
embedded store, log lines, metrics and the listening socket's connection sharing."""
