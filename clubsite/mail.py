"""Sending the club's e-mails: one message at a time, so that one bad address never stops the
others (issue 9)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.core.mail import EmailMessage, mailers

logger = logging.getLogger("clubsite.mail")


def send_each(messages: Sequence[EmailMessage], what: str) -> tuple[int, list[str]]:
    """Send the messages one by one: one that fails (a refused address, a name the mail
    server chokes on, the server gone) is logged with ``what`` and its recipient, and the
    others still go out. Returns how many were sent and the recipients that failed."""
    sent = 0
    failed: list[str] = []
    for message in messages:
        try:
            sent += mailers.default.send_messages([message]) or 0
        except Exception:
            recipient = ", ".join(message.to)
            logger.exception("%s: e-mail to %s not delivered", what, recipient)
            failed.append(recipient)
    return sent, failed
