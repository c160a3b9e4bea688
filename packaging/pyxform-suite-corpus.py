#!/usr/bin/env python3
"""Builds Tests/SurveyModelTests/Fixtures/forms/pyxform-suite/ from pyxform's own test suite.

Every XLSForm the suite holds: the Markdown tables written inline in its tests (`md=` strings
in tests/**/*.py) and the workbooks and CSV files under tests/example_xls and
tests/bug_example_xls. Each is converted with the installed pyxform (no ODK Validate); the
forms it converts are written to the corpus, so `make test` opens them with survey's reader
with no network and no git; the forms it refuses are written to refused/, with pyxform's error
in the manifest, so `make test` checks survey refuses them too (`PyxformVerdictTests`). A
refused test string that is a template its test fills in first (`{case}`, `{value}`) is no
form: it is listed under "templates", not written. A `.xls` (which survey refuses as a format, with what to do) is
written as pyxform's CSV layout of the same sheets, read by pyxform's own xls backend.

pyxform is BSD-2-Clause: its license is copied beside the corpus (LICENSE-pyxform).

Usage: python3 packaging/pyxform-suite-corpus.py GIT_DIR [OUT_DIR]
  GIT_DIR: a clone of https://github.com/XLSForm/pyxform (its .git folder, or a bare repo)
"""
import ast, csv, hashlib, io, json, os, re, subprocess, sys, tempfile

from pyxform import xls2xform
from pyxform.xls2json_backends import xls_to_dict

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "Tests", "SurveyModelTests", "Fixtures", "forms", "pyxform-suite")


def git(gitdir, *args, binary=False):
    out = subprocess.run(["git", "--git-dir", gitdir, *args], check=True, capture_output=True).stdout
    return out if binary else out.decode()


def md_forms(source, path):
    """(name, text) for each string in a test file that is a Markdown XLSForm (a `| survey |` row)."""
    tree = ast.parse(source)
    found = []
    def walk(node, function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if any(line.strip().replace(" ", "").lower().startswith("|survey|") for line in text.splitlines()):
                found.append((function or "module", text))
        for child in ast.iter_child_nodes(node):
            walk(child, function)
    walk(tree, None)
    return found


def converts(data, file_type):
    """None when pyxform converts the form, else its error."""
    try:
        xls2xform.convert(xlsform=data, file_type=file_type, warnings=[])
        return None
    except Exception as e:  # pyxform's refusals are several exception types
        return f"{type(e).__name__}: {e}"


def is_template(text):
    """A test's form with Python format fields (`{case}`, `{value}`) it fills in before use."""
    return re.search(r"(?<!\$)\{[A-Za-z_][A-Za-z0-9_]*\}", text) is not None


def xls_as_csv(data):
    """A .xls workbook in pyxform's CSV layout: each sheet's name on its own row, its rows indented."""
    with tempfile.NamedTemporaryFile(suffix=".xls") as f:
        f.write(data)
        f.flush()
        sheets = xls_to_dict(f.name)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for name in sheets.get("sheet_names", []):
        rows = sheets.get(name) or []
        columns = [c for header in sheets.get(name + "_header", []) for c in header]
        for row in rows:
            for key in row:
                if key not in columns:
                    columns.append(key)
        writer.writerow([name] + [""] * len(columns))
        writer.writerow([""] + columns)
        for row in rows:
            writer.writerow([""] + [row.get(c) or "" for c in columns])
    return out.getvalue()


def main():
    gitdir = sys.argv[1]
    out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT)
    refused_out = os.path.join(out, "refused")
    os.makedirs(refused_out, exist_ok=True)
    for folder in (out, refused_out):
        for old in os.listdir(folder):
            if os.path.isfile(os.path.join(folder, old)):
                os.remove(os.path.join(folder, old))
    commit = git(gitdir, "rev-parse", "HEAD").strip()
    files = git(gitdir, "ls-tree", "-r", "--name-only", "HEAD", "tests").splitlines()
    seen, manifest = set(), {"pyxform_commit": commit, "converted": [], "refused": [], "templates": []}

    def keep(name, text_or_bytes, ext, file_type, data_for_pyxform):
        body = text_or_bytes.encode() if isinstance(text_or_bytes, str) else text_or_bytes
        digest = hashlib.sha1(body).hexdigest()[:8]
        if digest in seen:
            return
        seen.add(digest)
        error = converts(data_for_pyxform, file_type)
        entry = f"{name}-{digest}.{ext}"
        if error:
            if ext == "md" and is_template(text_or_bytes):
                manifest["templates"].append(entry)
                return
            with open(os.path.join(refused_out, entry), "wb") as f:
                f.write(body)
            manifest["refused"].append({"form": entry, "error": error})
            return
        with open(os.path.join(out, entry), "wb") as f:
            f.write(body)
        manifest["converted"].append(entry)

    for path in files:
        base = os.path.basename(path)
        stem = os.path.splitext(base)[0]
        if path.endswith(".py"):
            source = git(gitdir, "show", f"HEAD:{path}")
            for function, text in md_forms(source, path):
                keep(f"{stem}--{function}", text, "md", ".md", text.encode())
        elif path.startswith(("tests/example_xls/", "tests/bug_example_xls/")):
            ext = os.path.splitext(base)[1].lower().lstrip(".")
            if ext not in ("xls", "xlsx", "csv"):
                continue
            data = git(gitdir, "show", f"HEAD:{path}", binary=True)
            folder = path.split("/")[1]
            if ext == "xls":
                try:
                    text = xls_as_csv(data)
                except Exception as e:
                    manifest["refused"].append({"form": f"{folder}--{base}", "error": f"unreadable .xls: {e}"})
                    continue
                keep(f"{folder}--{stem}", text, "csv", ".csv", text.encode())
            else:
                keep(f"{folder}--{stem}", data, ext, "." + ext, data)

    manifest["converted"].sort()
    manifest["templates"].sort()
    manifest["refused"].sort(key=lambda e: e["form"])
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    license_text = git(gitdir, "show", "HEAD:LICENSE")
    with open(os.path.join(out, "LICENSE-pyxform"), "w") as f:
        f.write("The forms in this folder are taken from pyxform's test suite\n"
                f"(https://github.com/XLSForm/pyxform, commit {commit}),\n"
                "by packaging/pyxform-suite-corpus.py, under pyxform's license:\n\n" + license_text)
    print(f"{len(manifest['converted'])} forms converted, {len(manifest['refused'])} refused by pyxform, "
          f"{len(manifest['templates'])} templates left out")


if __name__ == "__main__":
    main()
