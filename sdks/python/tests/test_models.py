"""The generated surface: models, the unset sentinel, and one method per operation of the document."""

from __future__ import annotations

import ast
import copy
import inspect
import json
import pathlib
import pickle
import typing
import unittest

import svc
from svc import UNSET, Client, Model
from svc._models import drop_unset

PACKAGE = pathlib.Path(svc.__file__).parent
DOCUMENT = PACKAGE.parents[2] / "shared" / "contracts" / "openapi.json"


class ModelTest(unittest.TestCase):
    def test_attributes_are_snake_case_and_items_are_wire_names(self) -> None:
        result = svc.UpdateDatasetRowResponse({"versionId": "v1", "version": 2})
        self.assertEqual((result.version_id, result.version), ("v1", 2))
        self.assertEqual((result["versionId"], result["version"]), ("v1", 2))
        self.assertEqual(result.to_dict(), {"versionId": "v1", "version": 2})
        self.assertEqual(result, {"versionId": "v1", "version": 2})
        self.assertIn("versionId", result)
        self.assertEqual(sorted(result), ["version", "versionId"])

    def test_nested_objects_become_their_models_and_cells_stay_plain(self) -> None:
        page = svc.ListDatasetRowsResponse(
            {
                "items": [{"rowId": "r", "input": {"q": 1}, "custom": {"k": "v"}}],
                "nextCursor": None,
                "hasMore": False,
            }
        )
        row = page.items[0]
        self.assertIsInstance(row, svc.DatasetRow)
        self.assertEqual(row.row_id, "r")
        self.assertEqual(type(row.input), dict)
        self.assertEqual(row.custom, {"k": "v"})
        self.assertIsNone(page.next_cursor)
        self.assertIs(page.has_more, False)

    def test_a_declared_field_that_is_absent_reads_as_none_and_an_unknown_one_raises(self) -> None:
        column = svc.DatasetColumn({"identifier": "input", "name": "Input", "source": {"kind": "builtin"}})
        self.assertIsNone(column.removed)
        self.assertEqual(column.source.kind, "builtin")
        with self.assertRaises(AttributeError):
            column.no_such_field  # noqa: B018
        with self.assertRaises(AttributeError):
            column.name = "other"  # type: ignore[misc]

    def test_models_repr_and_compare_by_value(self) -> None:
        one = svc.Project({"slug": "a"})
        self.assertEqual(repr(one), "Project({'slug': 'a'})")
        self.assertEqual(one, svc.Project({"slug": "a"}))
        self.assertNotEqual(one, svc.Project({"slug": "b"}))

    def test_unset_is_one_falsy_value_that_survives_copies(self) -> None:
        self.assertIs(copy.deepcopy(UNSET), UNSET)
        self.assertIs(pickle.loads(pickle.dumps(UNSET)), UNSET)
        self.assertFalse(UNSET)
        self.assertEqual(repr(UNSET), "UNSET")
        self.assertEqual(drop_unset({"a": UNSET, "b": None, "c": 0}), {"b": None, "c": 0})


class GeneratedSurfaceTest(unittest.TestCase):
    def test_every_operation_of_the_document_is_a_method(self) -> None:
        document = json.loads(DOCUMENT.read_text())
        client = Client(api_key="svc_unused")
        documented = {
            op["operationId"]: (method.upper(), path, op["x-svc-paginated"])
            for path, item in document["paths"].items()
            for method, op in item.items()
            # Files sent or received (an import, an export) are not JSON calls, and the browser's
            # session is the web application's alone.
            if "x-svc-file" not in op
            and "x-svc-events" not in op
            and "x-svc-browser-session" not in op
        }
        self.assertEqual(set(svc.OPERATIONS), set(documented))
        for operation_id, (method, path, paginated) in documented.items():
            entry = svc.OPERATIONS[operation_id]
            self.assertEqual((entry["http_method"], entry["path"]), (method, path))
            resource = getattr(client, str(entry["resource"]))
            self.assertTrue(callable(getattr(resource, str(entry["method"]))), operation_id)
            if paginated:
                self.assertTrue(callable(getattr(resource, str(entry["iterator"]))), operation_id)

    def test_methods_mirror_the_typescript_names(self) -> None:
        self.assertEqual(svc.OPERATIONS["updateDatasetRow"]["method"], "update_row")
        self.assertEqual(svc.OPERATIONS["listDatasetRows"]["iterator"], "iterate_rows")
        self.assertEqual(svc.OPERATIONS["listApiKeys"]["resource"], "api_keys")

    def test_update_row_takes_path_parameters_then_keywords_that_default_to_unset(self) -> None:
        signature = inspect.signature(Client().datasets.update_row)
        names = list(signature.parameters)
        self.assertEqual(names[:3], ["project_slug", "dataset_slug", "row_id"])
        for keyword in ["input", "output", "expected_output", "metadata", "custom", "if_match"]:
            self.assertIs(signature.parameters[keyword].default, UNSET, keyword)
            self.assertEqual(signature.parameters[keyword].kind, inspect.Parameter.KEYWORD_ONLY)

    def test_every_type_hint_resolves(self) -> None:
        client = Client()
        for name in svc._generated.__all__:
            value = getattr(svc._generated, name)
            if isinstance(value, type) and (issubclass(value, Model) or issubclass(value, dict)):
                typing.get_type_hints(value)
        for resource in vars(client).values():
            for name, method in inspect.getmembers(resource, inspect.ismethod):
                if not name.startswith("_"):
                    typing.get_type_hints(method)

    def test_the_package_version_is_the_one_in_pyproject(self) -> None:
        pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
        self.assertIn(f'\nversion = "{svc.__version__}"\n', pyproject)

    def test_the_sources_parse_as_python_3_9(self) -> None:
        for path in sorted(PACKAGE.glob("*.py")):
            ast.parse(path.read_text(), filename=str(path), feature_version=(3, 9))
        self.assertTrue((PACKAGE / "py.typed").exists())
