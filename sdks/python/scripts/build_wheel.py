"""Writes the SDK's wheel from pyproject.toml with the standard library alone, so that
`pip install --no-index dist/svc_sdk-<version>-py3-none-any.whl` needs nothing but Python.

The wheel is reproducible: entries sorted, every timestamp 1980-01-01, fixed permissions, so two
builds of the same sources are byte-identical. Why not setuptools: docs/decisions/0016-python-wheel.md.

Usage: build_wheel.py [--quiet] [--out DIR] [PROJECT_DIR]   (defaults: this SDK, PROJECT_DIR/dist)
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import os
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:
    sys.exit("build_wheel.py needs Python 3.11 or later (for tomllib); PYTHON names the interpreter to use")

# The earliest time a zip entry can carry: the same in every build.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# A regular file, rw-r--r--, as Unix made it (create_system 3).
FILE_MODE = 0o100644
TAG = "py3-none-any"
# The [project] keys this builder writes; anything else fails rather than being left out silently.
KNOWN_KEYS = {"name", "version", "description", "readme", "requires-python", "dependencies", "classifiers"}
README_TYPES = {".md": "text/markdown", ".rst": "text/x-rst", ".txt": "text/plain"}
VERSION = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$")


def main() -> None:
    parser = argparse.ArgumentParser(description="Build the SDK's wheel without setuptools.")
    parser.add_argument("project", nargs="?", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--out", type=Path, help="where the wheel goes (default: PROJECT/dist)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    project: Path = args.project.resolve()
    wheel = build_wheel(project, args.out or project / "dist")
    if not args.quiet:
        print(f"wrote {wheel} ({wheel.stat().st_size} bytes)")


def build_wheel(project: Path, out: Path) -> Path:
    pyproject = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    meta = project_table(pyproject)
    distribution = re.sub(r"[-_.]+", "_", meta["name"]).lower()
    dist_info = f"{distribution}-{meta['version']}.dist-info"
    files = package_files(project, pyproject)
    files.append((f"{dist_info}/METADATA", metadata(project, meta)))
    files.append((f"{dist_info}/WHEEL", wheel_file()))
    top_level = sorted({path.split("/")[0] for path, _ in files if not path.startswith(dist_info)})
    files.append((f"{dist_info}/top_level.txt", "".join(f"{name}\n" for name in top_level).encode()))
    files.append((f"{dist_info}/RECORD", record(files, f"{dist_info}/RECORD")))

    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{distribution}-{meta['version']}-{TAG}.whl"
    write_zip(target, files)
    # A wheel of another version left from an earlier build would make `dist/*.whl` ambiguous.
    for stale in out.glob(f"{distribution}-*-{TAG}.whl"):
        if stale != target:
            stale.unlink()
    return target


def project_table(pyproject: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = pyproject["project"]
    unknown = sorted(set(meta) - KNOWN_KEYS)
    if unknown:
        sys.exit(f"pyproject.toml [project] sets {', '.join(unknown)}, which build_wheel.py does not write; "
                 "teach it to, or the wheel would leave them out")
    version = meta["version"]
    if not VERSION.match(version):
        sys.exit(f'pyproject.toml: version "{version}" is not a normalised PEP 440 version (like 1.2.0rc1)')
    return meta


def write_zip(target: Path, files: list[tuple[str, bytes]]) -> None:
    """Every entry with the same time and mode, in the order given. Written beside the target and
    renamed, so that nobody reads half a wheel."""
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for path, data in files:
            entry = zipfile.ZipInfo(path, date_time=ZIP_TIME)
            entry.create_system = 3
            entry.external_attr = FILE_MODE << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    os.replace(partial, target)


def package_files(project: Path, pyproject: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The modules of [tool.setuptools] packages and their package-data, sorted: what setuptools would
    put in the wheel, and nothing else (no tests, no bytecode)."""
    setuptools: dict[str, Any] = pyproject.get("tool", {}).get("setuptools", {})
    packages: list[str] = setuptools.get("packages", [])
    package_data: dict[str, list[str]] = setuptools.get("package-data", {})
    if not packages:
        sys.exit("pyproject.toml: [tool.setuptools] packages must list the packages to ship")
    found: list[tuple[str, bytes]] = []
    for package in packages:
        folder = project / package.replace(".", "/")
        patterns = ["*.py", *package_data.get(package, [])]
        paths = {path for pattern in patterns for path in folder.glob(pattern) if path.is_file()}
        if folder / "__init__.py" not in paths:
            sys.exit(f"pyproject.toml lists the package {package}, but {folder}/__init__.py is missing")
        found += [(path.relative_to(project).as_posix(), path.read_bytes()) for path in paths]
    return sorted(found)


def metadata(project: Path, meta: dict[str, Any]) -> bytes:
    """Core metadata 2.1, the README as its body."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {meta['name']}",
        f"Version: {meta['version']}",
    ]
    if "description" in meta:
        lines.append(f"Summary: {meta['description']}")
    if "requires-python" in meta:
        lines.append(f"Requires-Python: {meta['requires-python']}")
    lines += [f"Classifier: {c}" for c in meta.get("classifiers", [])]
    lines += [f"Requires-Dist: {d}" for d in meta.get("dependencies", [])]
    body = ""
    if "readme" in meta:
        readme = project / meta["readme"]
        content_type = README_TYPES.get(readme.suffix.lower())
        if content_type is None:
            sys.exit(f"pyproject.toml: readme {readme.name} is none of {', '.join(README_TYPES)}")
        lines.append(f"Description-Content-Type: {content_type}")
        body = "\n" + readme.read_text(encoding="utf-8")
    return ("\n".join(lines) + "\n" + body).encode()


def wheel_file() -> bytes:
    return f"Wheel-Version: 1.0\nGenerator: build_wheel.py\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode()


def record(files: list[tuple[str, bytes]], record_path: str) -> bytes:
    """Every file with its sha256 (urlsafe base64, unpadded) and size; RECORD itself has neither."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([path, f"sha256={digest}", len(data)])
    writer.writerow([record_path, "", ""])
    return text.getvalue().encode()


if __name__ == "__main__":
    main()
