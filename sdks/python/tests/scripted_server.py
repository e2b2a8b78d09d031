"""A deliberately failing or slow HTTP server for the retry and timeout tests (never a stand-in for the API)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional


class Received:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: str) -> None:
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.at = time.monotonic()


class ScriptedServer:
    """Answers the requests it receives with `steps` in order (the last one repeats), recording each.

    A step is a dict: {"status": 503, "body": {...}, "headers": {...}}, {"hang": seconds} or {"drop": True}.
    """

    def __init__(self, steps: List[Dict[str, Any]]) -> None:
        self.steps = steps
        self.requests: List[Received] = []
        self._lock = threading.Lock()
        self._release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8") if length else ""
                with server._lock:
                    server.requests.append(
                        Received(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    step = server.steps[min(len(server.requests), len(server.steps)) - 1]
                if "hang" in step:
                    server._release.wait(step["hang"])
                    return
                if step.get("drop"):
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                payload = step.get("body")
                data = b"" if payload is None else (payload if isinstance(payload, str) else json.dumps(payload)).encode()
                self.send_response(step["status"])
                self.send_header("X-Request-Id", "req_scripted")
                if payload is not None and not isinstance(payload, str):
                    self.send_header("Content-Type", "application/json")
                for name, value in step.get("headers", {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_DELETE = _serve  # noqa: N815

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()

    def header(self, index: int, name: str) -> Optional[str]:
        return self.requests[index].headers.get(name.lower())
