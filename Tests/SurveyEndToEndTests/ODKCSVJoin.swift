import Foundation
import XCTest
import SurveyTestSupport

/// The check an analyst's join makes of an ODK CSV set (the main table plus one table per
/// repeat): written in Python from the CSV files alone, never through survey's reader, each
/// repeat's rows are hung under the row its `PARENT_KEY` names, in their `[n]` order, and
/// the nested answers compared with what plistlib reads from the document. Text on both
/// sides: `5.0` in a CSV is Python's `str(5.0)`.
enum ODKCSVJoin {
    static let script = #"""
import csv, json, os, plistlib, re, sys
folder, main, plist = sys.argv[1], sys.argv[2], sys.argv[3]
tables = {}
for name in os.listdir(folder):
    if name.endswith('.csv'):
        with open(os.path.join(folder, name), newline='', encoding='utf-8') as f:
            tables[name[:-4]] = list(csv.DictReader(f))
skip = {'KEY', 'PARENT_KEY', 'SubmissionDate'}
def answers(row):
    return {k: v for k, v in row.items() if v != '' and k not in skip and not k.startswith('SET-OF-')}
rows = {r['KEY']: answers(r) for r in tables[main]}
children = []
for name, table in tables.items():
    if name == main:
        continue
    repeat = name[len(main) + 1:]
    for r in table:
        index = int(re.search(r'\[(\d+)\]$', r['KEY']).group(1))
        children.append((r['KEY'].count('/'), r['PARENT_KEY'], index, repeat, r))
children.sort(key=lambda c: c[:3])
for depth, parent, index, repeat, r in children:
    node = answers(r)
    rows[r['KEY']] = node
    members = rows[parent].setdefault(repeat, [])
    assert len(members) == index - 1, f'{r["KEY"]}: member {index} after {len(members)}'
    members.append(node)
joined = [rows[r['KEY']] for r in tables[main]]
def text(v):
    if isinstance(v, dict):
        return {k: text(x) for k, x in v.items() if x != ''}
    if isinstance(v, list):
        return [text(x) for x in v]
    return str(v)
with open(plist, 'rb') as f:
    stored = [text(s) for s in plistlib.load(f)]
for a, b in zip(joined, stored):
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            print(f'{key}: csv {a.get(key)!r} plist {b.get(key)!r}')
print(f'joined {len(joined)} surveys, {len(children)} members')
"""#

    /// The differences (one line each) and a last line counting what was joined.
    static func compare(set folder: URL, main: String, with document: URL) throws -> [String] {
        let outcome = try ChildProcess.run(["python3", "-c", script, folder.path, main, document.path])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        return outcome.output.split(separator: "\n").map(String.init)
    }
}
