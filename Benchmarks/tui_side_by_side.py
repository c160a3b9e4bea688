#!/usr/bin/env python3
"""`make bench`'s side-by-side: the real `survey` binary and abook (the Debian package), through a
pseudo-terminal, on the same generated records, one table per size.

usage: tui_side_by_side.py --survey BIN [--sizes 1000,10000,100000] [--runs 5] [--keys 50]
                           [--commits 9] [--data DIR] [--json FILE] [--no-abook] [--quick]

Each run is one fresh process of each app, on a fresh copy of the document (so commits do not
accumulate), with HOME pointed at a scratch folder:
  survey: start (first frame *showing data*: the screen reads "1 of …", which a large document
          shows while the rest of it loads; *whole document loaded*: it reads "of N"), F2 (the list pane; it
          already has the focus in the split layout at 120x40), --keys × Down, Enter (the form),
          --keys × Right (next record), peak memory (VmHWM) read here, F2, "/" and the filter
          characters one by one, Esc, peak memory again, Ctrl-Q.
  abook:  start (the screen reads "/N"), --keys × Down, Enter (the entry editor), --keys × ">"
          (next entry: abook's editor's → is its tab switch), peak memory, Q (quits, no save).
Then commit_bench.py (the tool the issue's figures come from) times --commits commits of a field
in survey: each is a save of the whole document, and the frame after it is drawn only once the
save (atomic, fsync) is done, so "redraw done" is "durable".

A key's time is tui_bench.py's "redraw done": from writing the key to the last byte of the output
burst it causes (the burst ends after 80 ms of silence), read through the same Session class; a
frame's bytes are that burst's size. Per run a figure is the median over its keys; the table
prints the median over runs and, in brackets, the lowest and highest run. p99 is over every key
of every run pooled. Nothing here asserts a time: the "met?" column only compares with the
targets of the performance issue. Needs pyte for "showing data" (else the first frame is the
first output burst, and commits are skipped). Prints the tables; --json writes every raw figure.
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True     # no __pycache__ inside the Swift target folder
sys.path.insert(0, HERE)
import tui_bench  # noqa: E402  (copied unchanged from shared/tools: same method as the issue's figures)
from tui_bench import Session, resolve_key  # noqa: E402

TERM = "xterm-256color"
ROWS, COLS = 40, 120
QUIET_START, QUIET_KEY = 0.5, 0.08          # tui_bench.py's defaults
FILTER_TEXT = "jackson7"                    # narrows step by step; no space (a space draws nothing to time)


def env_for(home):
    env = dict(os.environ, TERM=TERM, LANG="C.UTF-8", LC_ALL="C.UTF-8", COLUMNS=str(COLS), LINES=str(ROWS),
               HOME=home, XDG_DATA_HOME=os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"))
    for k in ("TMUX", "SURVEY_HOME"):
        env.pop(k, None)
    return env


def hwm_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def ms(x):
    return None if x is None else x * 1000


def press(s, spec, quiet=QUIET_KEY, max_wait=5.0):
    """tui_bench.py's per-key measure: write the key, read the burst it causes."""
    t = time.perf_counter()
    os.write(s.master, resolve_key(spec, TERM))
    f, l, n, _ = s.read_burst(quiet, max_wait)
    return {"first_ms": ms(f and f - t), "last_ms": ms(l and l - t), "bytes": n}


class Milestones:
    """Screen patterns timed as each first shows, for tui_bench.py's read_burst, which takes it as
    its `ready` pattern: search() is true once the last has shown (read_burst stops asking then)."""
    def __init__(self, *patterns):
        self.patterns = [re.compile(p) for p in patterns]
        self.times = [None] * len(patterns)
        self.read_at = None

    def watch(self, session):
        """Times a pattern from when its bytes were read, as read_burst does, not from after the
        terminal emulator took them in (a whole first screen takes pyte milliseconds)."""
        feed = session.stream.feed
        def timed(data):
            self.read_at = time.perf_counter()
            feed(data)
        session.stream.feed = timed

    def search(self, text):
        now = self.read_at or time.perf_counter()
        for i, p in enumerate(self.patterns):
            if self.times[i] is None and p.search(text):
                self.times[i] = now
        return self.times[-1] is not None


def start(cmd, ready, home, max_start, shown=None):
    """`shown`: an earlier pattern, the first frame showing data before `ready` (everything loaded)."""
    s = Session(cmd, ROWS, COLS, env_for(home))
    marks = Milestones(*([shown] if shown else []), ready) if tui_bench.pyte else None
    if marks:
        marks.watch(s)
    f, l, n, r = s.read_burst(QUIET_START, max_start, marks)
    first = {"first_byte_ms": ms(f and f - s.t0), "first_burst_ms": ms(l and l - s.t0),
             "ready_ms": ms(r and r - s.t0), "bytes": n}
    if marks and shown:
        first["shown_ms"] = ms(marks.times[0] and marks.times[0] - s.t0)
    time.sleep(0.2)
    s.drain()
    return s, first


def run_survey(binary, folder, n, keys, home, max_start):
    s, first = start([binary, "--dir", folder, "--doc", "Bench"], rf"of {n}(?!\d)", home, max_start,
                     shown=r"\b1 of \d")
    out = {"start": first, "screen_ready": s.text()}
    try:
        os.write(s.master, resolve_key("hex:1b4f51", TERM)); s.drain(0.1)     # F2: the list pane
        out["down"] = [press(s, "down") for _ in range(keys)]
        os.write(s.master, b"\r"); s.drain(0.1)                              # Enter: the form
        out["right"] = [press(s, "right") for _ in range(keys)]
        out["peak_browse_mb"] = hwm_mb(s.proc.pid)
        os.write(s.master, resolve_key("hex:1b4f51", TERM)); s.drain(0.1)     # back to the list
        out["filter"] = [press(s, "lit:/")]
        out["filter"] += [press(s, "lit:" + c, max_wait=max_start if i == 0 else 30.0) for i, c in enumerate(FILTER_TEXT)]
        out["filter_screen"] = s.text()
        out["filter_clear"] = press(s, "hex:1b", max_wait=30.0)             # Esc: clear it
        out["peak_mb"] = hwm_mb(s.proc.pid)
        out["alive"] = s.proc.poll() is None
    finally:
        s.close(b"\x11")
    return out


def run_abook(datafile, n, keys, home, max_start):
    s, first = start(["abook", "--datafile", datafile], rf"/{n}(?!\d)", home, max_start)
    out = {"start": first, "screen_ready": s.text()}
    try:
        out["down"] = [press(s, "down") for _ in range(keys)]
        os.write(s.master, b"\r"); s.drain(0.1)                              # the entry editor
        out["right"] = [press(s, "lit:>") for _ in range(keys)]
        out["peak_browse_mb"] = out["peak_mb"] = hwm_mb(s.proc.pid)
        out["alive"] = s.proc.poll() is None
    finally:
        s.close(b"qQ")                                                       # editor, then quit unsaved
    return out


def run_commits(binary, folder, n, count):
    cmd = [sys.executable, os.path.join(HERE, "commit_bench.py"), "--count", str(count),
           "--keys-while-writing", str(max(2, count // 2)),
           "--ready", rf"of {n}(?!\d)", "--rows", str(ROWS), "--cols", str(COLS),
           "--", binary, "--dir", folder, "--doc", "Bench"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"commit_bench.py failed: {p.stderr.strip()[-500:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def generate(n, data):
    """The same records for both apps (gen_survey_data.py --varied, fixed seed), made once."""
    os.makedirs(data, exist_ok=True)
    paths = {"plist": os.path.join(data, f"varied-{n}.plist"), "abook": os.path.join(data, f"varied-{n}.abook")}
    for fmt, path in paths.items():
        if not os.path.exists(path):
            subprocess.run([sys.executable, os.path.join(HERE, "gen_survey_data.py"), str(n), fmt,
                            path + ".partial", "--varied"], check=True)
            os.replace(path + ".partial", path)
    return paths


def med(values):
    v = [x for x in values if x is not None]
    return statistics.median(v) if v else None


def pct(values, p):
    v = sorted(x for x in values if x is not None)
    return v[min(len(v) - 1, int(len(v) * p))] if v else None


def summarize(runs, commits):
    """Per run figures, then {figure: (median over runs, lowest, highest)}."""
    per_run = {}
    def add(name, value):
        per_run.setdefault(name, []).append(value)
    pooled = {"down": [], "right": [], "filter": [], "filter_key": []}
    for r in runs:
        add("first_frame_ms", r["start"].get("shown_ms", r["start"]["ready_ms"]) if tui_bench.pyte
            else r["start"]["first_burst_ms"])
        add("loaded_ms", r["start"]["ready_ms"] if tui_bench.pyte else None)
        for k in ("down", "right"):
            if k in r:
                add(f"{k}_ms", med(x["last_ms"] for x in r[k]))
                add(f"{k}_bytes", med(x["bytes"] for x in r[k]))
                pooled[k] += [x["last_ms"] for x in r[k]]
        if "filter" in r:
            chars = r["filter"][1:]
            add("filter_first_ms", chars[0]["last_ms"] if chars else None)
            add("filter_ms", med(x["last_ms"] for x in chars[1:]))
            add("filter_worst_ms", max((x["last_ms"] or 0) for x in chars) if chars else None)
            pooled["filter"] += [x["last_ms"] for x in chars[1:]]
            # The key's own redraw (its first byte): the burst may go on with a background
            # result (the index, a search's rest) that came within the quiet it waits for.
            pooled["filter_key"] += [x["first_ms"] for x in chars]
        add("peak_browse_mb", r.get("peak_browse_mb"))
        add("peak_mb", r.get("peak_mb"))
    for c in commits:
        add("commit_ms", c.get("commit_median_ms"))
        add("writing_key_ms", c.get("keys_while_writing_median_ms"))
        add("writing_key_p99_ms", c.get("keys_while_writing_p99_ms"))
        add("commit_peak_mb", c.get("peak_rss_mb"))
    out = {}
    for name, vals in per_run.items():
        v = [x for x in vals if x is not None]
        out[name] = (statistics.median(v), min(v), max(v)) if v else None
    for k, vals in pooled.items():
        p = pct(vals, 0.99)
        out[f"{k}_p99_ms"] = (p, p, p) if p is not None else None
    return out


def fmt(stat, unit):
    if stat is None:
        return "—"
    m, lo, hi = stat
    def one(x):
        if unit == "ms":
            return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"
        if unit == "B":
            return f"{x:.0f}"
        return f"{x:.1f}"
    if lo == hi:
        return f"{one(m)} {unit}"
    return f"{one(m)} ({one(lo)}–{one(hi)}) {unit}"


def print_table(n, s, a, runs, keys, commits):
    have_abook = a is not None
    def val(stat):
        return None if stat is None else stat[0]
    rows = []
    # (label, survey stat, abook stat, unit, target text, met(survey median, abook median) -> bool|None)
    # Issue 20's targets: every figure abook also has at or below abook's, at every size; a
    # durable commit at most 2 ms; no `/` character over 10 ms, p99 included.
    def at_most_abook(sv, av):
        return None if av is None else sv <= av
    def vs_abook(label, key, unit):
        rows.append((label, s.get(key), a and a.get(key), unit, "≤ abook", at_most_abook))
    vs_abook("first frame showing data", "first_frame_ms", "ms")
    vs_abook("whole document loaded", "loaded_ms", "ms")
    vs_abook("list ↓: key to redraw done", "down_ms", "ms")
    vs_abook("list ↓: p99", "down_p99_ms", "ms")
    vs_abook("list ↓: bytes per step", "down_bytes", "B")
    vs_abook("form → (abook: >): redraw done", "right_ms", "ms")
    vs_abook("form →: p99", "right_p99_ms", "ms")
    vs_abook("form →: bytes per step", "right_bytes", "B")
    rows.append(("filter: 1st character (index)", s.get("filter_first_ms"), None, "ms", "≤ 10 ms", lambda sv, av: sv <= 10))
    rows.append(("filter: per character after", s.get("filter_ms"), None, "ms", "≤ 10 ms", lambda sv, av: sv <= 10))
    rows.append(("filter: p99 (worst) character", s.get("filter_p99_ms"), None, "ms", "≤ 10 ms", lambda sv, av: sv <= 10))
    rows.append(("filter: p99 key to its own redraw", s.get("filter_key_p99_ms"), None, "ms", "≤ 10 ms", lambda sv, av: sv <= 10))
    rows.append(("commit a field (durable)", s.get("commit_ms"), None, "ms", "≤ 2 ms", lambda sv, av: sv <= 2))
    rows.append(("key while the .plist catches up", s.get("writing_key_ms"), None, "ms", "", lambda sv, av: None))
    rows.append(("key while the .plist catches up: p99", s.get("writing_key_p99_ms"), None, "ms", "≤ 5 ms",
                 lambda sv, av: sv <= 5))
    rows.append(("peak memory, committing", s.get("commit_peak_mb"), None, "MB", "", lambda sv, av: None))
    vs_abook("peak memory, browsing", "peak_browse_mb", "MB")
    rows.append(("peak memory, after filter", s.get("peak_mb"), None, "MB", "", lambda sv, av: None))
    title = (f"{n:,} records, {COLS}x{ROWS}: {runs} run(s) of each app, {keys} keys per measure, "
             f"{commits} commits per run; median (lowest–highest run)")
    print()
    print(title)
    header = ("figure", "survey", "abook" if have_abook else "abook (not run)", "survey/abook", "target", "met?")
    table = []
    for label, sv, av, unit, target, check in rows:
        ratio = "—"
        if val(sv) is not None and val(av) not in (None, 0):
            ratio = f"{val(sv) / val(av):.2f}"
        met = "—"
        if val(sv) is not None and target:
            r = check(val(sv), val(av))
            met = "—" if r is None else ("yes" if r else "NO")
        table.append((label, fmt(sv, unit), fmt(av, unit) if have_abook else "", ratio, target, met))
    widths = [max(len(str(row[i])) for row in table + [header]) for i in range(len(header))]
    line = lambda row: "  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip()
    print(line(header))
    print(line(tuple("-" * w for w in widths)))
    for row in table:
        print(line(row))
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--survey", required=True, help="the survey binary to measure")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keys", type=int, default=50)
    ap.add_argument("--commits", type=int, default=9)
    ap.add_argument("--data", default=os.path.join(HERE, "..", ".build", "bench-data"))
    ap.add_argument("--json")
    ap.add_argument("--no-abook", action="store_true")
    ap.add_argument("--quick", action="store_true", help="make test: 1,000 records, one run, few keys")
    a = ap.parse_args()
    if a.quick:
        a.sizes, a.runs, a.keys, a.commits = "1000", 1, 20, 3
    sizes = [int(x) for x in a.sizes.replace("_", "").split(",") if x.strip()]
    survey = os.path.abspath(a.survey)
    use_abook = not a.no_abook and shutil.which("abook") is not None
    if not use_abook and not a.no_abook:
        print("abook is not installed (apt-get install abook): survey alone")
    if not tui_bench.pyte:
        print("pyte is not installed (pip install pyte): the first frame is the first output burst, not the "
              "first one showing data, and commits are not timed")
    results = {}
    for n in sizes:
        paths = generate(n, a.data)
        max_start = 120 + n / 1000            # a million records may take minutes in a slow build
        s_runs, a_runs, c_runs = [], [], []
        for i in range(a.runs):
            with tempfile.TemporaryDirectory(prefix="survey-side-") as tmp:
                home, docs = os.path.join(tmp, "home"), os.path.join(tmp, "docs")
                os.makedirs(home); os.makedirs(docs)
                shutil.copyfile(paths["plist"], os.path.join(docs, "Bench.plist"))
                r = run_survey(survey, docs, n, a.keys, home, max_start)
                s_runs.append(r)
                if r["start"]["ready_ms"] is None and tui_bench.pyte:
                    sys.exit(f"survey never showed 'of {n}'; its screen was:\n{r['screen_ready']}")
                if use_abook:
                    # A copy too: abook rewrites its file on leaving (fields reordered, same data).
                    shutil.copyfile(paths["abook"], os.path.join(tmp, "Bench.abook"))
                    ra = run_abook(os.path.join(tmp, "Bench.abook"), n, a.keys, home, max_start)
                    a_runs.append(ra)
                    if ra["start"]["ready_ms"] is None and tui_bench.pyte:
                        sys.exit(f"abook never showed '/{n}'; its screen was:\n{ra['screen_ready']}")
                if tui_bench.pyte and a.commits > 0:
                    shutil.copyfile(paths["plist"], os.path.join(docs, "Bench.plist"))
                    c_runs.append(run_commits(survey, docs, n, a.commits))
        s_sum = summarize(s_runs, c_runs)
        a_sum = summarize(a_runs, []) if use_abook else None
        results[n] = {"survey": s_sum, "abook": a_sum, "survey_runs": s_runs, "abook_runs": a_runs,
                      "commit_runs": c_runs}
        print_table(n, s_sum, a_sum, a.runs, a.keys, a.commits if tui_bench.pyte else 0)
    print()
    print(f"filter: '/' then \"{FILTER_TEXT}\" one character at a time; the first builds the search index. "
          "abook has no filter and nothing to commit (its '/' jumps to a match; it saves on quit).")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1, ensure_ascii=False, default=str)


if __name__ == "__main__":
    main()
