"""Retries, idempotency keys, timeouts and request building, against a deliberately failing local server."""

from __future__ import annotations

import json
import os
import time
import unittest
from typing import Any, Dict, List, Optional
from unittest import mock

from svc import Client, SvcError
from svc._transport import parse_retry_after

from .scripted_server import ScriptedServer

EDIT = {"versionId": "v0000000000000000000000001", "version": 7}
UNAVAILABLE = {
    "status": 503,
    "body": {"error": "A service is not answering", "code": "service_unavailable", "requestId": "req_1"},
}


class ScriptedTest(unittest.TestCase):
    server: Optional[ScriptedServer] = None

    def tearDown(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    def client_for(self, steps: List[Dict[str, Any]], **options: Any) -> Client:
        if self.server is not None:
            self.server.close()
        self.server = ScriptedServer(steps)
        return Client(api_key="svc_test", base_url=self.server.base_url, **options)

    @property
    def requests(self) -> List[Any]:
        assert self.server is not None
        return self.server.requests

    def capture(self, call: Any, *args: Any, **kwargs: Any) -> SvcError:
        with self.assertRaises(SvcError) as raised:
            call(*args, **kwargs)
        return raised.exception


class RetryTest(ScriptedTest):
    def test_retries_a_503_with_the_same_idempotency_key(self) -> None:
        client = self.client_for([UNAVAILABLE, UNAVAILABLE, {"status": 200, "body": EDIT}])
        result = client.datasets.update_row("p", "d", "r1", expected_output="4")
        self.assertEqual(result.version, 7)
        self.assertEqual(len(self.requests), 3)
        keys = {request.headers["idempotency-key"] for request in self.requests}
        self.assertEqual(len(keys), 1)
        self.assertRegex(keys.pop(), r"^svc_idem_[0-9a-f]{32}$")
        self.assertEqual([json.loads(r.body) for r in self.requests], [{"expectedOutput": "4"}] * 3)
        self.assertEqual((self.requests[0].method, self.requests[0].path), ("PATCH", "/v1/projects/p/datasets/d/rows/r1"))
        self.assertEqual(self.requests[0].headers["authorization"], "Bearer svc_test")

    def test_each_call_gets_its_own_key_and_a_given_key_is_used(self) -> None:
        client = self.client_for([{"status": 200, "body": EDIT}])
        client.datasets.update_row("p", "d", "r", input=1)
        client.datasets.update_row("p", "d", "r", input=1)
        client.datasets.update_row("p", "d", "r", input=1, idempotency_key="mine-1")
        keys = [request.headers["idempotency-key"] for request in self.requests]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "mine-1")

    def test_a_read_has_no_idempotency_key(self) -> None:
        client = self.client_for([{"status": 200, "body": {"items": [], "nextCursor": None, "hasMore": False}}])
        client.projects.list()
        self.assertNotIn("idempotency-key", self.requests[0].headers)

    def test_gives_up_after_max_retries(self) -> None:
        client = self.client_for([UNAVAILABLE], max_retries=1)
        error = self.capture(client.projects.get, "p")
        self.assertEqual((error.status, error.code, error.request_id), (503, "service_unavailable", "req_1"))
        self.assertEqual(len(self.requests), 2)

    def test_honours_retry_after(self) -> None:
        limited = {"status": 429, "headers": {"Retry-After": "1"}, "body": {"error": "e", "code": "rate_limited", "requestId": "r"}}
        client = self.client_for([limited, {"status": 200, "body": {"id": "p"}}])
        client.projects.get("p")
        self.assertGreaterEqual(self.requests[1].at - self.requests[0].at, 0.95)

    def test_retries_408_502_504_and_a_dropped_connection(self) -> None:
        now = {"Retry-After": "0"}
        client = self.client_for(
            [
                {"drop": True},
                {"status": 408, "headers": now},
                {"status": 502, "headers": now},
                {"status": 504, "headers": now},
                {"status": 200, "body": {"id": "p"}},
            ],
            max_retries=4,
        )
        self.assertEqual(client.projects.get("p").id, "p")
        self.assertEqual(len(self.requests), 5)

    def test_does_not_retry_a_client_error_or_a_500(self) -> None:
        for status, code in [(400, "validation_failed"), (404, "not_found"), (409, "conflict"), (500, "internal_error")]:
            client = self.client_for([{"status": status, "body": {"error": "no", "code": code, "requestId": "x"}}])
            error = self.capture(client.projects.create, name="n")
            self.assertEqual((error.status, error.code), (status, code))
            self.assertEqual(len(self.requests), 1)

    def test_an_answer_without_an_error_body_keeps_its_status(self) -> None:
        client = self.client_for([{"status": 502, "body": "<html>Bad gateway</html>"}], max_retries=0)
        error = self.capture(client.projects.get, "p")
        self.assertEqual((error.status, error.code, error.request_id), (502, "http_502", "req_scripted"))
        self.assertIn("Bad gateway", error.message)

    def test_a_refused_connection_is_a_connection_error(self) -> None:
        client = Client(base_url="http://127.0.0.1:9", max_retries=1)
        error = self.capture(client.projects.list)
        self.assertEqual((error.status, error.code), (0, "connection_error"))


class TimeoutTest(ScriptedTest):
    def test_an_attempt_slower_than_the_timeout_fails_with_code_timeout(self) -> None:
        client = self.client_for([{"hang": 5}], timeout=0.3, max_retries=0)
        started = time.monotonic()
        error = self.capture(client.projects.list)
        elapsed = time.monotonic() - started
        self.assertEqual((error.status, error.code), (0, "timeout"))
        self.assertGreaterEqual(elapsed, 0.29)
        self.assertLess(elapsed, 3)

    def test_a_timed_out_write_is_retried_with_the_same_key(self) -> None:
        client = self.client_for([{"hang": 5}, {"status": 201, "body": {"id": "p"}}])
        self.assertEqual(client.projects.create(name="n", timeout=0.3).id, "p")
        self.assertEqual(len(self.requests), 2)
        self.assertEqual(self.requests[0].headers["idempotency-key"], self.requests[1].headers["idempotency-key"])


class RequestTest(ScriptedTest):
    def test_encodes_path_parameters_and_the_query(self) -> None:
        client = self.client_for([{"status": 200, "body": {"columns": []}}])
        client.datasets.list_columns("p", "a/b?c", include_removed=True)
        client.datasets.list_rows("p", "d", limit=10, search="two words")
        self.assertEqual(
            [request.path for request in self.requests],
            [
                "/v1/projects/p/datasets/a%2Fb%3Fc/columns?includeRemoved=true",
                "/v1/projects/p/datasets/d/rows?limit=10&search=two+words",
            ],
        )

    def test_sends_only_the_keywords_given_and_none_as_null(self) -> None:
        client = self.client_for([{"status": 200, "body": EDIT}])
        client.datasets.update_row("p", "d", "r", expected_output=None, custom={"k": None})
        self.assertEqual(json.loads(self.requests[0].body), {"expectedOutput": None, "custom": {"k": None}})

    def test_sends_request_id_if_match_and_extra_headers(self) -> None:
        client = self.client_for([{"status": 200, "body": EDIT}])
        client.datasets.update_row(
            "p", "d", "r", input=1, if_match=3, request_id="req-mine", headers={"Authorization": "Bearer other"}
        )
        headers = self.requests[0].headers
        self.assertEqual(headers["if-match"], "3")
        self.assertEqual(headers["x-request-id"], "req-mine")
        self.assertEqual(headers["authorization"], "Bearer other")
        self.assertTrue(headers["user-agent"].startswith("svc-python/"))

    def test_a_204_returns_none(self) -> None:
        client = self.client_for([{"status": 204}])
        self.assertIsNone(client.api_keys.delete("k"))
        self.assertEqual((self.requests[0].method, self.requests[0].body), ("DELETE", ""))

    def test_follows_next_cursor_until_the_last_page(self) -> None:
        client = self.client_for(
            [
                {"status": 200, "body": {"items": [{"slug": "a"}, {"slug": "b"}], "nextCursor": "c1", "hasMore": True}},
                {"status": 200, "body": {"items": [{"slug": "c"}], "nextCursor": None, "hasMore": False}},
            ]
        )
        self.assertEqual([project.slug for project in client.projects.iterate(limit=2)], ["a", "b", "c"])
        self.assertEqual([r.path for r in self.requests], ["/v1/projects?limit=2", "/v1/projects?cursor=c1&limit=2"])

    def test_a_list_read_through_post_carries_its_cursor_in_the_body(self) -> None:
        client = self.client_for(
            [
                {"status": 200, "body": {"items": [{"traceId": "t1"}], "nextCursor": "c1", "hasMore": True}},
                {"status": 200, "body": {"items": [{"traceId": "t2"}], "nextCursor": None, "hasMore": False}},
            ]
        )
        if not hasattr(client, "traces"):
            self.skipTest("the document has no traces resource yet")
        self.assertEqual([t.trace_id for t in client.traces.iterate("p", limit=1)], ["t1", "t2"])
        self.assertEqual([json.loads(r.body) for r in self.requests], [{"limit": 1}, {"cursor": "c1", "limit": 1}])
        self.assertNotEqual(self.requests[0].headers["idempotency-key"], self.requests[1].headers["idempotency-key"])


class SettingsTest(unittest.TestCase):
    def test_reads_the_environment_and_defaults(self) -> None:
        with mock.patch.dict(os.environ, {"SVC_API_KEY": "svc_from_env", "SVC_BASE_URL": "http://example.test:1/"}):
            client = Client()
            self.assertEqual(client.base_url, "http://example.test:1")
            self.assertEqual(client._transport.api_key, "svc_from_env")  # type: ignore[attr-defined]
        with mock.patch.dict(os.environ, {}, clear=True):
            client = Client()
            self.assertEqual(client.base_url, "http://127.0.0.1:8080")
            self.assertIsNone(client._transport.api_key)  # type: ignore[attr-defined]
            self.assertEqual(client._transport.timeout, 60.0)  # type: ignore[attr-defined]

    def test_rejects_settings_that_cannot_work(self) -> None:
        with self.assertRaises(ValueError):
            Client(timeout=0)
        with self.assertRaises(ValueError):
            Client(max_retries=-1)

    def test_reads_retry_after_as_seconds_or_a_date(self) -> None:
        self.assertEqual(parse_retry_after("2"), 2.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))
        in_five = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 5))
        self.assertGreater(parse_retry_after(in_five) or 0, 3)
