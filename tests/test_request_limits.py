"""Request limits (clubsite/request_limits.py): a body over its page's limit
is answered 413 with a page that names the limit, before anything reads it; a refused paste
is not sent back; an uploaded file is streamed to disk, not memory; nothing answers 500."""

from __future__ import annotations

import io
from unittest import mock

import pytest
from django.core.files.uploadedfile import (
    InMemoryUploadedFile,
    SimpleUploadedFile,
    TemporaryUploadedFile,
)
from django.test import Client
from django.test.client import encode_multipart
from django.urls import reverse

from clubsite.models import Member
from clubsite.request_limits import body_limit, size_words
from scoring.models import Hanchan

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
LINE = "L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)\n"


def logged_in(member: Member, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language}, raise_request_exception=False)
    client.force_login(member.user)
    return client


class Exploding(io.BytesIO):
    """A request body that must not be read: reading it fails the test."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the body was read")


def test_the_limits_are_per_page():
    assert body_limit(reverse("game_import")) == 5 * MIB
    assert body_limit(reverse("game_list")) == 512 * 1024
    assert body_limit("/games/1/hands/") == 512 * 1024
    assert body_limit("/no/such/page/") == 512 * 1024
    assert (size_words(5 * MIB), size_words(512 * 1024)) == ("5 MB", "512 KB")


def test_an_upload_over_5_mb_is_refused_unread_with_the_limits(member):
    """The audit's 20 files of 20 MB (400 MB) held a worker 30 s until it was killed: now the
    length alone refuses it, and the body is never read."""
    client = logged_in(member)
    response = client.generic(
        "POST",
        reverse("game_import"),
        b"",
        content_type="multipart/form-data; boundary=BoUnDaRy",
        headers={"content-length": str(400 * MIB)},
        **{"wsgi.input": Exploding()},
    )
    assert response.status_code == 413
    assert response["Connection"] == "close"
    text = response.text
    assert "<h1>Too large to send</h1>" in text
    assert "This page takes at most 5 MB at a time: nothing was read or stored." in text
    assert "up to 20 files and 5 MB in one upload; pasted text up to 512 KB" in text


def test_a_big_urlencoded_body_elsewhere_is_refused_at_512_kb(member, other_member):
    """The audit's 3 MB urlencoded body cost 15 s and 90 MB; anywhere but an upload page the
    limit is 512 KB, checked before the CSRF check reads the form."""
    client = logged_in(member, "ja")
    body = b"x=" + b"a" * (600 * 1024)
    response = client.post(
        "/games/1/hands/", body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert "このページが一度に受け取れるのは 512 KB までです" in response.text
    assert "a" * 100 not in response.text
    assert Hanchan.objects.count() == 0


def test_too_many_files_or_fields_get_the_same_page(member):
    client = logged_in(member)
    files = [SimpleUploadedFile(f"log{i}.json", b"{}") for i in range(21)]
    response = client.post(reverse("game_import"), {"logs": files})
    assert response.status_code == 413
    assert "up to 20 files and 5 MB in one upload" in response.text
    fields = "&".join(f"f{i}=1" for i in range(1001)).encode()
    response = client.post(
        reverse("game_import"), fields, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413


def test_form_text_over_512_kb_in_an_upload_is_refused(member):
    """Within the upload's 5 MB, the form's text (the paste) is still at most 512 KB: the
    audit's 10,000-line paste (895 KB) is refused, and not echoed back."""
    client = logged_in(member)
    paste = LINE * 10_000
    response = client.post(reverse("game_import"), {"lines": paste})
    assert response.status_code == 413
    assert LINE.strip() not in response.text
    assert len(response.content) < 20_000


def test_a_paste_over_40000_characters_is_refused_without_its_text(member):
    client = logged_in(member)
    paste = LINE * 700  # 42,000 characters, 70 KB
    response = client.post(reverse("game_import"), {"lines": paste})
    assert response.status_code == 200
    text = response.text
    assert (
        f"At most 40000 characters at a time (this text has {len(paste.strip())}): paste fewer "
        "lines. "
        "Nothing was stored."
    ) in text
    assert "A(+45.0)" not in text.split('id="id_lines"')[1].split("</textarea>")[0]
    assert text.count("A(+45.0) B(+10.0)") == 1  # the help text's example only
    assert "Choose game logs or paste result lines." not in text
    assert Hanchan.objects.count() == 0


def test_an_uploaded_file_over_256_kb_is_streamed_to_a_temporary_file(member):
    """Django's upload handlers stream the files of a request over FILE_UPLOAD_MAX_MEMORY_SIZE
    to disk; a small upload stays in memory."""
    from scoring.views.online import _source

    seen = []

    def look(upload):
        seen.append(type(upload))
        return _source(upload)

    with mock.patch("scoring.views.online._source", side_effect=look):
        logged_in(member).post(
            reverse("game_import"),
            {
                "logs": [
                    SimpleUploadedFile("big.json", b"[" * (300 * 1024)),
                    SimpleUploadedFile("small.json", b"[]"),
                ]
            },
        )
    assert seen == [TemporaryUploadedFile, TemporaryUploadedFile]
    with mock.patch("scoring.views.online._source", side_effect=look):
        logged_in(member).post(
            reverse("game_import"), {"logs": [SimpleUploadedFile("small.json", b"[]")]}
        )
    assert seen[2] is InMemoryUploadedFile


def test_an_upload_within_the_limits_is_read_as_before(member):
    body = encode_multipart("BoUnDaRy", {"logs": [SimpleUploadedFile("x.json", b"{}")]})
    response = logged_in(member).generic(
        "POST", reverse("game_import"), body, content_type="multipart/form-data; boundary=BoUnDaRy"
    )
    assert response.status_code == 200
    assert "Not a game log" in response.text


def test_a_bad_request_gets_a_page_that_shows_nothing_of_it(member):
    response = logged_in(member).get("/", headers={"host": "evil.example<script>"})
    assert response.status_code == 400
    assert "<h1>Not understood</h1>" in response.text
    assert "evil.example" not in response.text


def test_an_uploaded_file_unpacks_to_at_most_2_mb(member):
    """The audit's gzip bombs: 20 files within the 5 MB, each 20 MB unpacked, held a worker
    4 s; the upload page unpacks a file only to 2 MB (the command still to 20 MB)."""
    import gzip

    from scoring.ledger.online import path as online  # where the upload's files are read
    from scoring.online.log import LogError
    from scoring.online.reading import NotAGameLog, read_game_file

    bomb = gzip.compress(b"[" * (3 * MIB))
    with mock.patch.object(online, "read_game_file", wraps=read_game_file) as reader:
        response = logged_in(member).post(
            reverse("game_import"), {"logs": [SimpleUploadedFile("bomb.json.gz", bomb)]}
        )
    assert "Not a game log" in response.text
    assert reader.call_args.kwargs == {"limit": 2 * MIB}
    with pytest.raises(NotAGameLog, match="larger than 2 MB: not a game log"):
        read_game_file(bomb, "bomb.json.gz", limit=2 * MIB)
    with pytest.raises(LogError, match="not valid JSON"):  # unpacked whole, then read
        read_game_file(bomb, "bomb.json.gz")


def test_files_left_when_the_reading_time_runs_out_are_refused_unread(member):
    """An upload's files are read for 2.5 s at most; the rest are refused by name, unread."""
    clock = iter([0.0, 0.0, 3.0, 3.0])
    with mock.patch("scoring.views.online._clock", side_effect=lambda: next(clock)):
        response = logged_in(member).post(
            reverse("game_import"),
            {"logs": [SimpleUploadedFile(f"log{i}.json", b"{}") for i in range(3)]},
        )
    text = response.text
    assert text.count("Not a game log") == 1
    assert text.count("Not read: this upload took too long to read.") == 2
    assert "log1.json" in text and "log2.json" in text


def test_the_benchmark_sends_what_it_declares_and_judges_by_the_targets():
    """benchmarks/request_limits.py (make bench): a generated upload is as long as its
    Content-Length says, and a worker held over 5 s, a 500, a killed worker or a reset
    difference of 10 ms or more fails the run."""
    from benchmarks.request_limits import Answer, _huge_upload, report

    upload = _huge_upload(3, 100_000)
    assert upload.chunks is not None
    assert sum(len(chunk) for chunk in upload.chunks) == upload.length
    resets = {"queued": {"known": [0.030, 0.031], "unknown": [0.029, 0.030]}}
    ok, lines = report({"upload": [Answer(413, 0.02, 2400), Answer(413, 0.03, 2400)]}, 0, resets)
    assert ok and lines[0].startswith("upload") and "0.03 s (0.02-0.03)" in lines[0]
    assert "difference 1.0 ms target < 10 ok" in lines[-1]
    assert not report({"upload": [Answer(200, 5.5, 100)]}, 0, resets)[0]
    assert not report({"upload": [Answer(500, 0.1, 100)]}, 0, resets)[0]
    assert not report({"upload": [Answer(200, 0.1, 100)]}, 1, resets)[0]
    slow = {"queued": {"known": [0.045], "unknown": [0.030]}}
    assert not report({"upload": [Answer(200, 0.1, 100)]}, 0, slow)[0]
