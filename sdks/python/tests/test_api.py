"""The SDK against the running platform: SVC_BASE_URL and SVC_API_KEY name it (the vitest wrapper starts one)."""

from __future__ import annotations

import io
import json
import os
import secrets
import tempfile
import unittest
import urllib.request
from typing import Callable, List, Tuple
from unittest import mock

import svc
from svc import Client, SvcError

BASE_URL = os.environ.get("SVC_BASE_URL")
API_KEY = os.environ.get("SVC_API_KEY")
ADMIN_TOKEN = os.environ.get("SVC_ADMIN_TOKEN")
LOSSY_BASE_URL = os.environ.get("SVC_LOSSY_BASE_URL")
"""A proxy to the platform that drops the reply to the first request carrying each Idempotency-Key."""


def setUpModule() -> None:  # noqa: N802 (unittest's name)
    if not BASE_URL or not API_KEY:
        raise unittest.SkipTest("set SVC_BASE_URL and SVC_API_KEY to a running platform to run these tests")


def unique(prefix: str) -> str:
    return f"{prefix} {secrets.token_hex(4)}"


class PlatformTest(unittest.TestCase):
    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(api_key=API_KEY, base_url=BASE_URL)

    def make_dataset(self, columns: int = 0) -> Tuple[svc.Project, svc.Dataset, List[svc.DatasetColumn]]:
        project = self.client.projects.create(name=unique("py project"))
        dataset = self.client.datasets.create(project.slug, name=unique("qa set"))
        made = [
            self.client.datasets.create_column(project.slug, dataset.slug, name=f"custom {i}") for i in range(columns)
        ]
        return project, dataset, made

    def capture(self, call: Callable[..., object], *args: object, **kwargs: object) -> SvcError:
        with self.assertRaises(SvcError) as raised:
            call(*args, **kwargs)
        return raised.exception


class RowsTest(PlatformTest):
    def test_creates_a_project_a_dataset_a_column_and_rows(self) -> None:
        project, dataset, [difficulty] = self.make_dataset(columns=1)
        self.assertEqual(dataset.version, 0)
        self.assertEqual(dataset.project_id, project.id)
        self.assertEqual(difficulty.source.kind, "custom")

        inserted = self.client.datasets.insert_rows(
            project.slug,
            dataset.slug,
            rows=[
                {"id": "q-1", "input": {"question": "2+2?"}, "expectedOutput": {"answer": "5"}},
                {"input": "hello", "custom": {difficulty.identifier: "easy"}},
            ],
        )
        self.assertEqual(inserted.version, 1)
        self.assertEqual(len(inserted.row_ids), 2)
        self.assertEqual(inserted.row_ids[0], "q-1")

        row = self.client.datasets.get_row(project.slug, dataset.slug, "q-1")
        self.assertIsInstance(row, svc.DatasetRow)
        self.assertEqual(row.input, {"question": "2+2?"})
        self.assertEqual(row.expected_output, {"answer": "5"})

        columns = self.client.datasets.list_columns(project.slug, dataset.slug).columns
        self.assertEqual(
            [column.identifier for column in columns],
            ["input", "output", "expectedOutput", "metadata", difficulty.identifier],
        )

    def test_update_row_returns_version_and_version_id(self) -> None:
        project, dataset, [first, second] = self.make_dataset(columns=2)
        self.client.datasets.insert_rows(
            project.slug,
            dataset.slug,
            rows=[{"id": "r1", "input": "q", "output": "o", "custom": {first.identifier: "a", second.identifier: "b"}}],
        )
        result = self.client.datasets.update_row(
            project.slug, dataset.slug, "r1", expected_output={"answer": "4"}, custom={first.identifier: "easy"}
        )
        self.assertIsInstance(result, svc.UpdateDatasetRowResponse)
        self.assertEqual(result.version, 2)
        self.assertRegex(result.version_id, r"^[a-z0-9]{24}$")
        self.assertEqual(result["versionId"], result.version_id)
        self.assertEqual(result.to_dict(), {"versionId": result.version_id, "version": 2})

        row = self.client.datasets.get_row(project.slug, dataset.slug, "r1")
        self.assertEqual(row.input, "q")
        self.assertEqual(row.output, "o")
        self.assertEqual(row.expected_output, {"answer": "4"})
        self.assertEqual(row.custom, {first.identifier: "easy", second.identifier: "b"})

    def test_none_sets_a_cell_to_null_and_a_keyword_left_out_leaves_it(self) -> None:
        project, dataset, _ = self.make_dataset()
        self.client.datasets.insert_rows(
            project.slug, dataset.slug, rows=[{"id": "r", "input": "i", "output": "o", "expectedOutput": "e"}]
        )
        self.client.datasets.update_row(project.slug, dataset.slug, "r", expected_output=None)
        row = self.client.datasets.get_row(project.slug, dataset.slug, "r")
        self.assertIsNone(row.expected_output)
        self.assertIn("expectedOutput", row)
        self.assertEqual((row.input, row.output), ("i", "o"))
        self.assertEqual(row.version, 2)

    def test_iterates_over_120_rows_in_pages_of_50(self) -> None:
        project, dataset, _ = self.make_dataset()
        ids = [f"row-{i:03d}" for i in range(120)]
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": i, "input": i} for i in ids])

        opened: List[str] = []
        opener = urllib.request.build_opener()

        def counting(request: urllib.request.Request, timeout: float) -> object:
            opened.append(request.full_url)
            return opener.open(request, timeout=timeout)

        client = Client(api_key=API_KEY, base_url=BASE_URL, opener=counting)
        seen = [row.row_id for row in client.datasets.iterate_rows(project.slug, dataset.slug, limit=50)]
        self.assertEqual(len(seen), 120)
        self.assertEqual(set(seen), set(ids))
        self.assertEqual(len(opened), 3)
        self.assertIn("limit=50", opened[0])
        self.assertNotIn("cursor=", opened[0])
        self.assertIn("cursor=", opened[1])

        page = self.client.datasets.list_rows(project.slug, dataset.slug, limit=50, sort_direction="asc")
        self.assertEqual(len(page.items), 50)
        self.assertTrue(page.has_more)
        self.assertIsInstance(page.next_cursor, str)
        self.assertIsInstance(page.items[0], svc.DatasetRow)

    def test_iterates_over_versions_and_row_history(self) -> None:
        project, dataset, _ = self.make_dataset()
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "h", "input": 1}])
        self.client.datasets.update_row(project.slug, dataset.slug, "h", input=2)
        self.client.datasets.update_row(project.slug, dataset.slug, "h", input=3)
        versions = [v.version for v in self.client.datasets.iterate_versions(project.slug, dataset.slug, limit=1)]
        self.assertEqual(versions, [3, 2, 1])
        history = self.client.datasets.iterate_row_history(project.slug, dataset.slug, "h", limit=2)
        self.assertEqual([entry.cells.input for entry in history], [3, 2, 1])
        version = self.client.datasets.get_version(project.slug, dataset.slug, 2)
        self.assertEqual((version.operation, version.rows_updated, version.actor.kind), ("update", 1, "apiKey"))

    def test_if_match_applies_an_edit_only_at_that_version(self) -> None:
        project, dataset, _ = self.make_dataset()
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "r", "input": "x"}])
        self.assertEqual(self.client.datasets.update_row(project.slug, dataset.slug, "r", input="y", if_match=1).version, 2)
        error = self.capture(self.client.datasets.update_row, project.slug, dataset.slug, "r", input="z", if_match=1)
        self.assertEqual((error.status, error.code), (412, "version_mismatch"))

    def test_a_write_sent_twice_with_one_idempotency_key_is_applied_once(self) -> None:
        project, dataset, _ = self.make_dataset()
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "r", "input": 0}])
        key = f"py-test-{secrets.token_hex(8)}"
        first = self.client.datasets.update_row(project.slug, dataset.slug, "r", input=1, idempotency_key=key)
        again = self.client.datasets.update_row(project.slug, dataset.slug, "r", input=1, idempotency_key=key)
        self.assertEqual(again, first)
        self.assertEqual(self.client.datasets.get(project.slug, dataset.slug).version, 2)

    def test_deletes_rows_columns_and_datasets(self) -> None:
        project, dataset, [column] = self.make_dataset(columns=1)
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "a", "input": 1}, {"id": "b", "input": 2}])
        deleted = self.client.datasets.delete_rows(project.slug, dataset.slug, selection={"mode": "selected", "rowIds": ["a"]})
        self.assertEqual((deleted.version, deleted.deleted_count), (2, 1))
        self.assertIsNone(self.client.datasets.delete_column(project.slug, dataset.slug, column.identifier))
        columns = self.client.datasets.list_columns(project.slug, dataset.slug, include_removed=True).columns
        removed = [c for c in columns if c.identifier == column.identifier]
        self.assertTrue(removed[0].removed)
        self.assertIsNone(self.client.datasets.delete(project.slug, dataset.slug))
        self.assertEqual(self.capture(self.client.datasets.get, project.slug, dataset.slug).status, 404)


class LostReplyTest(PlatformTest):
    """Writes through a proxy that loses their first reply: the SDK retries with the same key, once applied."""

    lossy: Client

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        if not LOSSY_BASE_URL:
            raise unittest.SkipTest("set SVC_LOSSY_BASE_URL to a reply-losing proxy (the vitest wrapper starts one)")
        cls.lossy = Client(api_key=API_KEY, base_url=LOSSY_BASE_URL)

    def test_rows_inserted_once_when_the_first_reply_is_lost(self) -> None:
        project, dataset, _ = self.make_dataset()
        inserted = self.lossy.datasets.insert_rows(project.slug, dataset.slug, rows=[{"input": "once"}])
        self.assertEqual(inserted.version, 1)
        # Rows without ids get new ones at each insert: a second application would show as a second row.
        rows = self.client.datasets.list_rows(project.slug, dataset.slug).items
        self.assertEqual([row.row_id for row in rows], inserted.row_ids)
        self.assertEqual(self.client.datasets.get(project.slug, dataset.slug).version, 1)

    def test_a_row_edited_once_when_the_first_reply_is_lost(self) -> None:
        project, dataset, _ = self.make_dataset()
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "r", "input": 0}])
        edited = self.lossy.datasets.update_row(project.slug, dataset.slug, "r", input=1)
        self.assertEqual(edited.version, 2)
        versions = self.client.datasets.list_versions(project.slug, dataset.slug).items
        self.assertEqual([(v.version, v.operation) for v in versions], [(2, "update"), (1, "insert")])
        self.assertEqual(versions[0].version_id, edited.version_id)
        self.assertEqual(self.client.datasets.get_row(project.slug, dataset.slug, "r").input, 1)

    def test_a_connection_error_when_retries_are_off(self) -> None:
        project, dataset, _ = self.make_dataset()
        error = self.capture(
            self.lossy.datasets.insert_rows, project.slug, dataset.slug, rows=[{"input": "x"}], max_retries=0
        )
        self.assertEqual((error.status, error.code), (0, "connection_error"))
        # Applied all the same: only a retry with the same key would have told the caller so.
        self.assertEqual(self.client.datasets.get(project.slug, dataset.slug).version, 1)


class ErrorsTest(PlatformTest):
    def test_a_404_is_an_svc_error_with_the_api_fields(self) -> None:
        project, _, _ = self.make_dataset()
        error = self.capture(self.client.datasets.get, project.slug, "no-such-dataset", request_id="req-py-404")
        self.assertEqual(error.status, 404)
        self.assertEqual(error.code, "not_found")
        self.assertRegex(error.message, "(?i)not found")
        self.assertEqual(error.request_id, "req-py-404")
        self.assertIsNone(error.details)

    def test_an_unknown_column_is_a_400_with_details_and_changes_nothing(self) -> None:
        project, dataset, _ = self.make_dataset()
        self.client.datasets.insert_rows(project.slug, dataset.slug, rows=[{"id": "r", "input": "x"}])
        error = self.capture(self.client.datasets.update_row, project.slug, dataset.slug, "r", input="y", custom={"nope": 1})
        self.assertEqual((error.status, error.code), (400, "unknown_column"))
        self.assertIn('"nope"', error.message)
        self.assertIsInstance(error.request_id, str)
        self.assertEqual(error.details, {"column": "nope"})
        self.assertEqual(self.client.datasets.get_row(project.slug, dataset.slug, "r").input, "x")

    def test_a_body_that_breaks_the_schema_lists_its_issues(self) -> None:
        project, dataset, _ = self.make_dataset()
        error = self.capture(self.client.datasets.create_column, project.slug, dataset.slug, name="")
        self.assertEqual((error.status, error.code), (400, "validation_failed"))
        self.assertIn("issues", error.details or {})


class AccountTest(PlatformTest):
    def test_api_keys_roles_and_revocation(self) -> None:
        created = self.client.api_keys.create(name=unique("py key"), role="viewer")
        # A first answer has the token; only a replay of its request comes without it.
        self.assertFalse(created.token_already_shown)
        assert created.token is not None
        self.assertTrue(created.token.startswith("svc_"))
        viewer = Client(api_key=created.token, base_url=BASE_URL)
        self.assertEqual(viewer.account.get().role, "viewer")
        self.assertEqual(self.capture(viewer.projects.create, name=unique("denied")).code, "forbidden")
        listed = [key.id for key in self.client.api_keys.list().api_keys]
        self.assertIn(created.id, listed)
        self.client.api_keys.delete(created.id)
        self.assertEqual(self.capture(viewer.account.get).status, 401)

    @unittest.skipUnless(ADMIN_TOKEN, "SVC_ADMIN_TOKEN is not set")
    def test_per_call_headers_reach_the_operator_route(self) -> None:
        created = self.client.organizations.create(name=unique("org"), headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert created.api_key.token is not None
        other = Client(api_key=created.api_key.token, base_url=BASE_URL)
        self.assertEqual(other.account.get().organization.id, created.organization.id)

    def test_renames_and_deletes_a_project_keeping_its_slug(self) -> None:
        project = self.client.projects.create(name=unique("to rename"))
        renamed = self.client.projects.update(project.slug, name=unique("renamed"))
        self.assertEqual((renamed.id, renamed.slug), (project.id, project.slug))
        self.assertNotEqual(renamed.name, project.name)
        self.assertIsNone(self.client.projects.delete(project.slug))
        self.assertEqual(self.capture(self.client.projects.get, project.slug).code, "not_found")

    def test_adds_lists_changes_and_removes_members(self) -> None:
        email = f"{secrets.token_hex(4)}@example.com"
        member = self.client.members.add(email=email, role="viewer")
        self.assertEqual((member.email, member.role), (email, "viewer"))
        self.assertIn(email, [listed.email for listed in self.client.members.iterate(limit=1)])
        self.assertEqual(self.client.members.update(member.id, role="admin").role, "admin")
        self.client.members.remove(member.id)
        self.assertNotIn(member.id, [listed.id for listed in self.client.members.list(limit=200).items])

    def test_iterates_over_projects(self) -> None:
        project = self.client.projects.create(name=unique("listed"))
        self.assertIn(project.slug, [p.slug for p in self.client.projects.iterate(limit=1)])


class EnvironmentTest(unittest.TestCase):
    def test_reads_svc_api_key_and_svc_base_url_when_not_given(self) -> None:
        with mock.patch.dict(os.environ, {"SVC_API_KEY": API_KEY or "", "SVC_BASE_URL": f"{BASE_URL}/"}):
            client = Client()
            self.assertEqual(client.base_url, BASE_URL)
            self.assertEqual(client.account.get().role, "owner")

    def test_an_explicit_key_wins_over_the_environment(self) -> None:
        with mock.patch.dict(os.environ, {"SVC_API_KEY": API_KEY or "", "SVC_BASE_URL": BASE_URL or ""}):
            with self.assertRaises(SvcError) as raised:
                Client(api_key="svc_wrong_key_for_this_test_000000").account.get()
        self.assertEqual(raised.exception.status, 401)
        self.assertEqual(raised.exception.code, "unauthenticated")


class FilesTest(PlatformTest):
    def test_imports_a_csv_from_a_path_with_a_map_and_exports_it_to_a_file(self) -> None:
        project, dataset, _ = self.make_dataset()
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "golden.csv")
            with open(source, "w", encoding="utf-8", newline="") as handle:
                handle.write('key,question,answer\nq1,"2+2, then?",4\nq2,"línea\nдва",""\n')
            seen: List[str] = []
            done = self.client.datasets.import_file(
                project.slug,
                dataset.slug,
                source,
                map={"question": "input", "answer": "expectedOutput"},
                id_field="key",
                poll_interval=0.05,
                on_progress=lambda job: seen.append(job.state),
            )
            self.assertEqual((done.state, done.format, done.rows_inserted), ("succeeded", "csv", 2))
            self.assertEqual(seen[-1], "succeeded")
            rows = self.client.datasets.list_rows(project.slug, dataset.slug, sort_direction="asc").items
            self.assertEqual(
                [(row.row_id, row.input, row.expected_output) for row in rows],
                [("q1", "2+2, then?", 4), ("q2", "línea\nдва", None)],
            )

            target = os.path.join(folder, "export.jsonl")
            written = self.client.datasets.export_file(project.slug, dataset.slug, format="jsonl", to=target)
            with open(target, encoding="utf-8") as handle:
                lines = [json.loads(line) for line in handle]
            self.assertEqual(written, os.path.getsize(target))
            self.assertEqual([(line["rowId"], line["expectedOutput"]) for line in lines], [("q1", 4), ("q2", None)])

            # The CSV export, imported back as an update from a file object, changes nothing.
            exported = self.client.datasets.export_file(project.slug, dataset.slug, format="csv")
            assert isinstance(exported, bytes)
            again = self.client.datasets.import_file(
                project.slug, dataset.slug, io.BytesIO(exported), format="csv", mode="update", poll_interval=0.05
            )
            self.assertEqual((again.state, again.version_id, again.version), ("succeeded", None, done.version))

            # So does the Parquet export.
            parquet = self.client.datasets.export_file(project.slug, dataset.slug, format="parquet")
            assert isinstance(parquet, bytes)
            self.assertEqual((parquet[:4], parquet[-4:]), (b"PAR1", b"PAR1"))
            same = self.client.datasets.import_file(
                project.slug, dataset.slug, io.BytesIO(parquet), format="parquet", mode="update", poll_interval=0.05
            )
            self.assertEqual((same.state, same.version_id, same.version), ("succeeded", None, done.version))

    def test_a_bad_line_raises_its_number_and_writes_nothing(self) -> None:
        project, dataset, _ = self.make_dataset()
        error = self.capture(
            self.client.datasets.import_file,
            project.slug,
            dataset.slug,
            b'{"input": 1}\n{"input": \n',
            format="jsonl",
            poll_interval=0.05,
        )
        self.assertEqual(error.code, "validation_failed")
        self.assertEqual((error.details or {}).get("line"), 2)
        self.assertTrue(str(error).startswith("Line 2: "))
        self.assertEqual(self.client.datasets.get(project.slug, dataset.slug).version, 0)
        with self.assertRaisesRegex(ValueError, "needs format="):
            self.client.datasets.import_file(project.slug, dataset.slug, b"a,b\n")
