"""Background reactions to appended events: AI seats, turn deadlines and notifications."""
