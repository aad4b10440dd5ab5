"""Sign-in links asked for through the API and answered by a real `meeple worker`: the worker looks
the address up, mails a link to a player's confirmed address only, and mails one player at most
LINKS_PER_HOUR an hour however many clients ask."""

from __future__ import annotations

import email
import email.policy
import os
from pathlib import Path

import pytest

from events.execute import Executor
from players.accounts import PlayerStore
from players.mail import Mailboxes
from players.sign_in import LINKS_PER_HOUR
from service.app import create_app
from tests.conftest import Start
from tests.service.conftest import unlimited
from tests.workers.conftest import wait_for

pytestmark = pytest.mark.redis


def test_the_worker_mails_links_to_confirmed_addresses_only_and_boundedly(
    executor: Executor, start_worker: Start, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_SMTP_URL", raising=False)
    monkeypatch.setitem(os.environ, "MEEPLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setitem(os.environ, "MEEPLE_PUBLIC_URL", "https://play.example")
    store = executor.store.redis
    ann = PlayerStore(store).register("ann", "ann", "ann-token-0123456789")
    boxes = Mailboxes(store)
    assert boxes.confirm(boxes.ask_confirmation(ann.id, "ann@example.org") or "") == ann.id
    boxes.ask_confirmation(PlayerStore(store).register("bo", "bo", "bo-token-01234567890").id, "bo@example.org")
    api = create_app(unlimited(), client=store).test_client()
    asked = ["nobody@example.org", "bo@example.org"] + ["Ann@example.org"] * (LINKS_PER_HOUR + 2)
    for number, address in enumerate(asked):  # each from a client of its own
        answer = api.post("/v1/sign-in-links", json={"address": address}, environ_base={"REMOTE_ADDR": f"10.0.0.{number}"})
        assert (answer.status_code, answer.json) == (202, {"expires_in": 900})
    start_worker()
    folder = tmp_path / "data" / "mail"
    assert wait_for(lambda: folder.is_dir() and len(list(folder.glob("*.eml"))) >= LINKS_PER_HOUR, timeout=30)
    wait_for(lambda: len(list(folder.glob("*.eml"))) > LINKS_PER_HOUR, timeout=3)
    written = [email.message_from_bytes(path.read_bytes(), policy=email.policy.default) for path in folder.glob("*.eml")]
    assert [(m["To"], m["Subject"]) for m in written] == [("ann@example.org", "Sign in to Meeple")] * LINKS_PER_HOUR
    texts = {m.get_body(("plain",)).get_content() for m in written}  # type: ignore[union-attr]
    assert all("https://play.example/sign-in#link=" in text for text in texts) and len(texts) == LINKS_PER_HOUR
