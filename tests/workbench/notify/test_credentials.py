"""Client credentials: UUID4 secrets shown once, stored hashed; rotate, retire; bad ids refused."""

from __future__ import annotations

import uuid

import pytest

from workbench.notify import CredentialError, NotifyService
from workbench.notify.credentials import check_secret, hash_secret


def test_create_gives_a_uuid4_secret_and_stores_only_a_hash(service: NotifyService) -> None:
    issued = service.credentials.create("cns-main")
    assert uuid.UUID(issued.secret).version == 4
    assert issued.secret not in repr(issued)
    stored = service.db.query("SELECT secret_hash FROM notify_client_secrets")
    assert len(stored) == 1 and issued.secret not in stored[0][0] and stored[0][0].startswith("sha256$")
    if service.db.dialect == "sqlite":
        for f in service.state_dir.glob("notify.db*"):
            assert issued.secret.encode() not in f.read_bytes()
    assert service.credentials.authenticate("cns-main", issued.secret)
    assert not service.credentials.authenticate("cns-main", str(uuid.uuid4()))
    assert not service.credentials.authenticate("cns-nobody", issued.secret)


def test_default_client_id_is_generated(service: NotifyService) -> None:
    a, b = service.credentials.create(), service.credentials.create()
    assert a.client_id.startswith("cns-") and a.client_id != b.client_id


def test_rotate_then_retire(service: NotifyService) -> None:
    first = service.credentials.create("cns-r")
    second = service.credentials.rotate("cns-r")
    assert service.credentials.authenticate("cns-r", first.secret)
    assert service.credentials.authenticate("cns-r", second.secret)
    assert service.credentials.retire("cns-r") == [first.secret_id]
    assert not service.credentials.authenticate("cns-r", first.secret)
    assert service.credentials.authenticate("cns-r", second.secret)
    frame = service.credentials.frame()
    assert list(frame["live"]) == [False, True] and "secret_hash" not in frame.columns
    with pytest.raises(CredentialError, match="only one live secret"):
        service.credentials.retire("cns-r")


def test_retire_a_named_secret(service: NotifyService) -> None:
    first = service.credentials.create("cns-n")
    second = service.credentials.rotate("cns-n")
    service.credentials.retire("cns-n", second.secret_id)
    assert service.credentials.authenticate("cns-n", first.secret)
    assert not service.credentials.authenticate("cns-n", second.secret)
    with pytest.raises(CredentialError, match="no live secret"):
        service.credentials.retire("cns-n", second.secret_id)


@pytest.mark.parametrize(("client_id", "message"), [
    ("ab", "not valid"), ("has space", "not valid"), ("colon:id", "not valid"), ("-lead", "not valid"),
    ("x" * 65, "not valid"), ("ünï", "not valid"),
])
def test_bad_client_ids(service: NotifyService, client_id: str, message: str) -> None:
    with pytest.raises(CredentialError, match=message):
        service.credentials.create(client_id)


def test_duplicate_and_unknown_clients(service: NotifyService) -> None:
    service.credentials.create("cns-dup")
    with pytest.raises(CredentialError, match="already exists"):
        service.credentials.create("cns-dup")
    with pytest.raises(CredentialError, match="known clients: cns-dup"):
        service.credentials.rotate("cns-missing")


@pytest.mark.parametrize("stored", ["", "sha256$zz$00", "md5$00$00", "sha256$00"])
def test_malformed_hashes_never_match(stored: str) -> None:
    assert not check_secret("anything", stored)


def test_hash_is_salted() -> None:
    assert hash_secret("same") != hash_secret("same")
    assert check_secret("same", hash_secret("same"))
