#!/usr/bin/env python3
"""Builds Tests/SurveyModelTests/Fixtures/forms/pyxform-entities/ : the entity forms of
pyxform's test suite that pyxform REFUSES (tests/entities/*.py), with pyxform's whole error
for each. The forms it converts are already in pyxform-suite/ (packaging/pyxform-suite-corpus.py).
`XLSFormEntityTests` checks that survey refuses each at pyxform's row, for pyxform's reason,
and asks the installed pyxform again, so the manifest cannot drift from the oracle.

pyxform is BSD-2-Clause: its license is copied beside the corpus (LICENSE-pyxform).

Usage: python3 packaging/pyxform-entities-corpus.py GIT_DIR [OUT_DIR]
  GIT_DIR: a clone of https://github.com/XLSForm/pyxform (its .git folder, or a bare repo)
"""
import hashlib, importlib.util, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("corpus", os.path.join(HERE, "pyxform-suite-corpus.py"))
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)
DEFAULT_OUT = os.path.join(HERE, "..", "Tests", "SurveyModelTests", "Fixtures", "forms", "pyxform-entities")


def main():
    gitdir = sys.argv[1]
    out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT)
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))
    commit = corpus.git(gitdir, "rev-parse", "HEAD").strip()
    files = [f for f in corpus.git(gitdir, "ls-tree", "-r", "--name-only", "HEAD", "tests/entities").splitlines()
             if f.endswith(".py")]
    manifest, seen = {"pyxform_commit": commit, "refused": []}, set()
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        for function, text in corpus.md_forms(corpus.git(gitdir, "show", f"HEAD:{path}"), path):
            body = text.encode()
            digest = hashlib.sha1(body).hexdigest()[:8]
            error = corpus.converts(body, ".md")
            # A template pyxform's test formats first ({case}, {type}) is no entity form.
            if digest in seen or not error or "{" in text.replace("${", ""):
                continue
            seen.add(digest)
            entry = f"{stem}--{function}-{digest}.md"
            with open(os.path.join(out, entry), "wb") as f:
                f.write(body)
            manifest["refused"].append({"form": entry, "error": error.split(": ", 1)[1]})
    manifest["refused"].sort(key=lambda e: e["form"])
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    license_text = corpus.git(gitdir, "show", "HEAD:LICENSE")
    with open(os.path.join(out, "LICENSE-pyxform"), "w") as f:
        f.write("The forms in this folder are taken from pyxform's test suite\n"
                f"(https://github.com/XLSForm/pyxform, commit {commit}),\n"
                "by packaging/pyxform-entities-corpus.py, under pyxform's license:\n\n" + license_text)
    print(f"{len(manifest['refused'])} entity forms refused by pyxform")


if __name__ == "__main__":
    main()
