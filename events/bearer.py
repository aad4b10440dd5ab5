"""The shape of every bearer token: a seat's, a player's, the admin's, a stream ticket, a mail's link. Kept
apart from the store's modules so that reading the settings imports no Redis client (gunicorn's master
reads them before its workers patch `ssl` for gevent)."""

TOKEN = r"[A-Za-z0-9_-]{16,128}"
