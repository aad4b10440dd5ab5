"""Registered players, and what the API and the workers both do for them: their accounts and
vacations, their webhooks and the addresses those may reach, and when their time to act runs out."""
