"""Registered players and what the API and the workers both do for them: accounts, vacations, webhooks."""
