#!/usr/bin/env python3
"""What in survey's own code links full Foundation (and with it CoreFoundation and ICU's data).

`make foundation-links` runs this after `make dist`. It links the release objects again with
lld's --why-extract and prints
  1. the chain of references that brought in ICU's data (icudt*_dat), from our object on, and
  2. for each of our object files, the symbols it takes from libFoundation, libCoreFoundation
     or libFoundationInternationalization: the calls FoundationEssentials does not have.
The binary only sheds ICU (about 34 MB of the 60) when part 2 is empty (it is: 16.5 MB); which module merely
`import`s Foundation does not matter to the linker, what it references does.
usage: foundation-links.py OBJECTS.LinkFileList  (from .build/dist/release/survey.product/)
"""
import collections, os, re, shutil, subprocess, sys, tempfile

FOUNDATION_LIBS = ("libFoundation.a", "libCoreFoundation.a", "libFoundationInternationalization.a")


def static_lib_dir():
    swift = os.path.realpath(shutil.which("swift"))
    return os.path.join(os.path.dirname(os.path.dirname(swift)), "lib", "swift_static", "linux")


def defined_symbols(archive):
    out = subprocess.run(["nm", "--defined-only", "-g", archive], capture_output=True, text=True).stdout
    return {fields[-1] for fields in (line.split() for line in out.splitlines()) if len(fields) >= 3}


def demangle(symbols):
    out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols),
                         capture_output=True, text=True).stdout
    return out.splitlines()


def main():
    link_list = sys.argv[1]
    objects = [line.strip() for line in open(link_list) if line.strip()]
    libs = static_lib_dir()
    with tempfile.TemporaryDirectory() as tmp:
        why = os.path.join(tmp, "why.txt")
        subprocess.run(["swiftc", "-static-stdlib", "-use-ld=lld", "-emit-executable", "@" + link_list,
                        "-lncursesw", "-lz", "-o", os.path.join(tmp, "survey"),
                        "-Xlinker", "--why-extract=" + why, "-Xlinker", "--defsym=main=survey_main"], check=True)
        rows = [line.rstrip("\n").split("\t") for line in open(why)][1:]
    first = {}
    for reference, extracted, symbol in rows:
        first.setdefault(extracted, (reference, symbol))
    short = lambda path: re.sub(r".*/", "", path)
    icu = [e for e in first if "icu_packaged_data" in e]
    print("ICU data linked:", "yes" if icu else "no")
    if icu:
        member = icu[0]
        while member in first:
            reference, symbol = first[member]
            print(f"  {short(member)}  <-  {short(reference)}  ({demangle([symbol])[0][:80]})")
            member = reference
    # Only archives the link actually took members from: a C struct's type metadata ($sSo…,
    # pthread_mutex_t) is also defined in CoreFoundation, yet comes from our own objects.
    linked = {name for name in FOUNDATION_LIBS if any(name + "(" in short(e) for e in first)}
    foundation = {name: defined_symbols(os.path.join(libs, name)) for name in FOUNDATION_LIBS if name in linked}
    found = collections.defaultdict(set)
    for obj in objects:
        undefined = subprocess.run(["nm", "-u", obj], capture_output=True, text=True).stdout.split()
        for symbol in undefined:
            for name, defined in foundation.items():
                # Generic specialisations of the standard library that a Foundation archive also
                # happens to define are not Foundation's API: keep Foundation's own names and C.
                own = "10Foundation" in symbol or "30FoundationInternationalization" in symbol \
                    or symbol.startswith("$sSo") or name == "libCoreFoundation.a"
                if symbol in defined and own:
                    module = os.path.basename(os.path.dirname(obj)).removesuffix(".build")
                    found[f"{module}/{short(obj).removesuffix('.swift.o')}"].add(symbol)
    print(f"\nObjects that reference full Foundation: {len(found)}")
    for name in sorted(found):
        calls = sorted({re.sub(r"^(type metadata accessor for|nominal type descriptor for) ", "", d)[:60]
                        for d in demangle(sorted(found[name]))})
        print(f"  {name}: " + "; ".join(calls))


if __name__ == "__main__":
    main()
