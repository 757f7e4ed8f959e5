"""The venue's Wi-Fi of the fault runs (:mod:`benchmarks.faults`): a loopback TCP proxy
between the phones (Python clients and Chromium pages alike) and gunicorn, which a run cuts
and restores. A phone on mobile data reaches gunicorn directly and is not cut."""

from __future__ import annotations

import contextlib
import socket
import threading
import time


class Venue:
    """A loopback TCP proxy between the phones and gunicorn, standing for the venue's Wi-Fi.

    ``up``: bytes pass both ways. ``down``: every open connection is cut and a new one is
    closed at once. ``lossy``: requests reach the server, and a connection is cut as soon as
    the server starts to answer (the answer is lost, the work done)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.mode = "up"
        self.down_until = 0.0  # time.monotonic() the current cut is to end (0: none planned)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=256)
        self.port = int(self._listener.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def set_mode(self, mode: str, seconds: float = 0.0) -> None:
        """Switch to ``mode``; for ``down``, ``seconds`` is how long the cut is planned to
        last (:meth:`cut_left`)."""
        with self._lock:
            self.down_until = time.monotonic() + seconds if mode == "down" else 0.0
            self.mode = mode
            cut = list(self._open) if mode == "down" else []
        for sock in cut:
            _cut(sock)

    def cut_left(self) -> float:
        """Seconds the current cut still has to last as planned; 0 while not down."""
        if self.mode != "down":
            return 0.0
        return max(0.0, self.down_until - time.monotonic())

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.mode == "down":
                _cut(client)
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                _cut(client)
                continue
            with self._lock:
                self._open.add(client)
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, answer: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if answer and self.mode == "lossy":
                    break
                target.sendall(chunk)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(target)
            _cut(source)
            _cut(target)

    def close(self) -> None:
        self._listener.close()
        self.set_mode("down")


def _cut(sock: socket.socket) -> None:
    """Drop a connection: shut down first, which wakes the pump blocked reading it (a bare
    close from another thread would leave the phone waiting for its timeout)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
