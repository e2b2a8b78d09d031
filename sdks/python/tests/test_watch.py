"""`client.datasets.watch` against the running platform: iterate, drop the connection, resume."""

from __future__ import annotations

import os
import secrets
import socket
import threading
import unittest
from typing import List, Set, Tuple
from urllib.parse import urlparse

from svc import Client, DatasetVersionEvent, SvcError

BASE_URL = os.environ.get("SVC_BASE_URL")
API_KEY = os.environ.get("SVC_API_KEY")


def setUpModule() -> None:  # noqa: N802 (unittest's name)
    if not BASE_URL or not API_KEY:
        raise unittest.SkipTest("set SVC_BASE_URL and SVC_API_KEY to a running platform to run these tests")


class CuttableRelay:
    """A TCP relay to the platform whose open connections can be cut at once, as a network failure does."""

    def __init__(self, target: str) -> None:
        parsed = urlparse(target)
        self.upstream = (parsed.hostname or "127.0.0.1", parsed.port or 80)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        self.sockets: Set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.upstream)
            with self.lock:
                self.sockets.update((client, upstream))
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while True:
                chunk = source.recv(65536)
                if not chunk:
                    break
                target.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        with self.lock:
            for end in self.sockets:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()
            self.sockets.clear()

    def close(self) -> None:
        self.cut()
        self.server.close()


class WatchTest(unittest.TestCase):
    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(api_key=API_KEY, base_url=BASE_URL)

    def make_dataset(self) -> Tuple[str, str]:
        project = self.client.projects.create(name=f"py watch {secrets.token_hex(4)}")
        dataset = self.client.datasets.create(project.slug, name="qa")
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "q0", "input": "1+1"}])
        return project.slug, dataset.slug

    def test_resumes_after_a_dropped_connection_without_a_gap_or_a_repeat(self) -> None:
        p, d = self.make_dataset()
        relay = CuttableRelay(str(BASE_URL))
        through = Client(api_key=API_KEY, base_url=relay.base_url)
        events: List[DatasetVersionEvent] = []
        try:
            iterator = through.datasets.watch(p, d, since=0, timeout=10)
            events.append(next(iterator))
            self.client.datasets.update_row(p, d, "q0", output="2")
            events.append(next(iterator))
            relay.cut()
            # Made while the connection is down: the reconnection's replay brings them.
            self.client.datasets.update_row(p, d, "q0", output="3")
            self.client.datasets.insert_rows(p, d, rows=[{"id": "q1", "input": "2+2"}])
            events.append(next(iterator))
            events.append(next(iterator))
            iterator.close()
        finally:
            relay.close()
        self.assertEqual(
            [(event.version, event.operation, event.row_ids) for event in events],
            [(1, "insert", ["q0"]), (2, "update", ["q0"]), (3, "update", ["q0"]), (4, "insert", ["q1"])],
        )
        self.assertFalse(events[3].row_ids_truncated)
        self.assertEqual(events[3].actor.kind, "apiKey")

    def test_starts_with_the_next_version_by_default(self) -> None:
        p, d = self.make_dataset()
        iterator = self.client.datasets.events(p, d)
        got: List[DatasetVersionEvent] = []
        reader = threading.Thread(target=lambda: got.append(next(iterator)), daemon=True)
        reader.start()
        reader.join(0.5)
        self.client.datasets.delete_rows(p, d, selection={"mode": "all"})
        reader.join(10)
        self.assertEqual([(event.version, event.operation, event.rows_deleted) for event in got], [(2, "delete", 1)])
        iterator.close()

    def test_raises_the_platforms_error_for_a_dataset_that_does_not_exist(self) -> None:
        p, _ = self.make_dataset()
        with self.assertRaises(SvcError) as raised:
            next(self.client.datasets.watch(p, "missing"))
        self.assertEqual((raised.exception.status, raised.exception.code), (404, "not_found"))


if __name__ == "__main__":
    unittest.main()
