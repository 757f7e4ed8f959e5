"""Sending the club's e-mails: one message at a time, so that one bad address never stops the
others, and a message the mail server did not take sent again later, with backoff.

A message that fails is logged and, where the task backend runs tasks later (the worker's
queue, ``CLUB_TASKS_BACKEND=database``), handed to :func:`resend_email`: attempt 2 runs a
minute later, then 5 minutes, 30 minutes, 2 hours and 6 hours after each failed attempt
(``clubsite.task_retries``). The last attempt that fails marks its task failed, with the
error, on the stewards' task page (``clubsite.task_queue``). The immediate backend (``make
run``, the tests) has no later: there a failed message is logged only, as before.

A sender may give an ``origin`` (JSON: the meetups give ``{"notice": id}``): it goes with the
message's attempts, and a later attempt that delivers it sends :data:`mail_delivered` with it,
so the sender can take the recipient off what it shows as not delivered.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.core.mail import EmailMessage, EmailMultiAlternatives, mailers
from django.core.mail.backends import console
from django.dispatch import Signal
from django.tasks import task

from clubsite.task_retries import MAX_ATTEMPTS, error_text, requeue

logger = logging.getLogger("clubsite.mail")

mail_delivered = Signal()
"""Sent (``sender`` None) when a later attempt delivered a message that had failed, with
``origin`` (the dict its sender gave :func:`send_each`) and ``recipient`` (its ``To``
addresses joined by ", ", as :func:`send_each` reported it failed)."""


class MailNotDelivered(Exception):
    """The last attempt at a message failed: its task ends failed, with this error."""


def send_each(
    messages: Sequence[EmailMessage], what: str, *, origin: dict[str, Any] | None = None
) -> tuple[int, list[str]]:
    """Send the messages one by one: one that fails (a refused address, a name the mail
    server chokes on, the server gone) is logged with ``what`` and its recipient and queued
    for another attempt (:func:`retry_later`, with ``origin``), and the others still go out.
    Returns how many were sent and the recipients that failed this time (each message's
    ``To`` addresses joined by ", ")."""
    sent = 0
    failed: list[str] = []
    for message in messages:
        try:
            sent += mailers.default.send_messages([message]) or 0
        except Exception as error:
            recipient = ", ".join(message.to)
            logger.exception("%s: e-mail to %s not delivered", what, recipient)
            failed.append(recipient)
            retry_later(message, what=what, attempt=2, error=error, origin=origin)
    return sent, failed


def message_data(message: EmailMessage) -> dict[str, Any] | None:
    """The message as a task's JSON argument: subject, body, sender, recipients and extra
    headers; None for one with attachments or alternative parts, which the site's e-mails
    never have and which are not carried."""
    if message.attachments or (
        isinstance(message, EmailMultiAlternatives) and message.alternatives
    ):
        return None
    return {
        "subject": str(message.subject),
        "body": str(message.body),
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": {str(k): str(v) for k, v in message.extra_headers.items()},
    }


def message_from_data(data: dict[str, Any]) -> EmailMessage:
    """The message :func:`message_data` described."""
    return EmailMessage(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )


def retry_later(
    message: EmailMessage | dict[str, Any],
    *,
    what: str,
    attempt: int,
    error: BaseException,
    origin: dict[str, Any] | None = None,
) -> bool:
    """Queue attempt number ``attempt`` (2 or more) of ``message`` as :func:`resend_email`
    (:func:`clubsite.task_retries.requeue`, with ``origin`` when given); returns whether it
    was queued: not past ``MAX_ATTEMPTS``, nor with a backend that runs nothing later (the
    immediate one), nor for a message that cannot be carried (:func:`message_data`)."""
    data = message if isinstance(message, dict) else message_data(message)
    if data is None:
        logger.error("%s: e-mail with attachments not retried", what)
        return False
    extra = {"origin": origin} if origin is not None else None
    return requeue(resend_email, [data, what], attempt=attempt, error=error, kwargs=extra)


@task
def resend_email(
    message: dict[str, Any],
    what: str,
    *,
    attempt: int = 2,
    last_error: str = "",
    origin: dict[str, Any] | None = None,
) -> int:
    """Attempt number ``attempt`` at a message that failed before (``last_error``: why the
    previous attempt failed, shown on the task page while this one waits). Returns 1 once
    sent (then :data:`mail_delivered` is sent with ``origin``, when given), 0 when it failed
    again and the next attempt is queued.

    Raises:
        MailNotDelivered: this was attempt ``MAX_ATTEMPTS`` and it failed too.
    """
    recipient = ", ".join(message["to"])
    try:
        sent = mailers.default.send_messages([message_from_data(message)]) or 0
    except Exception as error:
        logger.exception(
            "%s: e-mail to %s not delivered (attempt %d of %d)",
            what,
            recipient,
            attempt,
            MAX_ATTEMPTS,
        )
        if retry_later(message, what=what, attempt=attempt + 1, error=error, origin=origin):
            return 0
        raise MailNotDelivered(
            f"{what}: e-mail to {recipient} not delivered after {attempt} attempts: "
            f"{error_text(error)}"
        ) from error
    if sent and origin is not None:
        mail_delivered.send(sender=None, origin=origin, recipient=recipient)
    return sent


# The headers a reader of a development console needs, in this order.
CONSOLE_HEADERS = ("Subject", "From", "To", "Cc", "Reply-To", "Date")


class ConsoleEmailBackend(console.EmailBackend):
    """Development's e-mail: each message printed as its reader would see it, its headers
    decoded and its text as written, instead of the wire form Django's console backend prints
    (a Japanese body in base64, an English one in quoted-printable with a link cut by a soft
    line break ``=``). What is sent by SMTP is unchanged."""

    def write_message(self, message: EmailMessage) -> None:
        mime = message.message()
        lines = [f"{name}: {mime[name]}" for name in CONSOLE_HEADERS if mime[name] is not None]
        texts = [
            part.get_content()
            for part in mime.walk()
            if part.get_content_type() == "text/plain" and not part.is_attachment()
        ]
        self.stream.write("\n".join(lines) + "\n\n" + "\n".join(texts).rstrip("\n") + "\n")
        self.stream.write("-" * 79 + "\n")
