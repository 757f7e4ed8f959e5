"""Where an imported online game can be watched again and reviewed.

- **Replay**: the service's own viewer, by the service's log id: Tenhou's
  ``https://tenhou.net/0/?log=<id>`` (its client's link), Mahjong Soul's
  ``https://game.mahjongsoul.com/?paipu=<uuid>`` (the client reads ``?paipu=uuid[_a<account>]``;
  without the account the game is shown from the first seat). A log with no service id (an
  mjai log, a file with no Tenhou id: ``sha256:…``) has no replay.
- **AI review**: mjai-reviewer's web app (``https://mjai.ekyu.moe``, "Try it online" in
  Equim-chan/mjai-reviewer's README, commit 2dc5ec5c8b28517cfb45f57eb21536d9a8f67aa9) reviews a
  Tenhou or Mahjong Soul game with Mortal from its log link, pasted into the page: no public
  review page takes the log id in its address, so the link opens the page and the replay link
  is what to paste (docs/online-logs.md).

Pure Python: no Django import.
"""

from __future__ import annotations

from .log import TENHOU_LOG_ID

REVIEW_PAGE = "https://mjai.ekyu.moe/"
# The services whose games the review page reads from their log link.
_REVIEWED = ("tenhou", "majsoul")


def replay_url(service: str, log_id: str) -> str:
    """The service's replay page of the game ``log_id``, or ``""`` where there is none."""
    if service == "tenhou" and TENHOU_LOG_ID.fullmatch(log_id):
        return f"https://tenhou.net/0/?log={log_id}"
    if service == "majsoul" and log_id and not log_id.startswith("sha256:"):
        return f"https://game.mahjongsoul.com/?paipu={log_id}"
    return ""


def review_url(service: str, log_id: str) -> str:
    """The AI review page for a game of ``service`` with a replay link, or ``""``."""
    if service in _REVIEWED and replay_url(service, log_id):
        return REVIEW_PAGE
    return ""
