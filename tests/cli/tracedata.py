# SPDX-License-Identifier: GPL-2.0-only
"""Readers the CLI tests' own scripts share (lib.sh puts this directory on
PYTHONPATH): a trace.dat as trace-cmd's text, and a kernel PELT capture
(pelt.jsonl[.gz]) as its records in time order."""

import gzip
import json
import re
import subprocess


def report(dat):
    """trace-cmd's text of @dat, time stamps in nanoseconds (-t)."""
    return subprocess.run(['trace-cmd', 'report', '-t', '-i', dat], capture_output=True,
                          text=True, check=True).stdout


def events_by_cpu(dat):
    """trace-cmd's events of @dat per CPU column, oldest first: (ns, event, its text)."""
    ev = {}
    for line in report(dat).splitlines():
        m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s+(.*)', line)
        if m:
            ev.setdefault(int(m.group(1)), []).append(
                (int(m.group(2)) * 10**9 + int(m.group(3)), m.group(4), m.group(5)))
    return ev


def records(pelt):
    """The records of @pelt that carry a time stamp, oldest first."""
    opener = gzip.open if pelt.endswith('.gz') else open
    with opener(pelt, 'rt') as f:
        recs = [d for d in map(json.loads, f) if 'ts' in d]
    return sorted(recs, key=lambda d: d['ts'])


def record_name(d, tg):
    """A record's time, CPU and entity @tg, as validate --diffs lists them."""
    return '%d.%09d cpu %d %s' % (d['ts'] // 10**9, d['ts'] % 10**9, d['rq_cpu'], tg)


def next_crossing(recs, kind, tg, cpu, at):
    """The first record of @recs of that @kind ('gse', 'cfs') and group on
    @cpu at or after @at whose last_update_time crossed a 1024 us period
    since that entity's record before it."""
    last = None
    for x in recs:
        if x['type'] == kind and x['tg'] == tg and x['rq_cpu'] == cpu:
            if x['ts'] >= at and last is not None and x['last_update_time'] >> 20 != last >> 20:
                return x
            last = x['last_update_time']
    return None


def diff_sections(text):
    """validate --diffs output @text: its group entity ('gse') and root
    cfs_rq ('root') sections, each a block of text."""
    titles = (('gse', 'group entity updates compared'), ('root', 'root cfs_rq updates compared'))
    found = {}
    for blk in text.split('\n\n'):
        for kind, title in titles:
            if blk.startswith(title):
                found[kind] = blk
    assert set(found) == {'gse', 'root'}, sorted(found)
    return found


def few_off(off, listed, total, what, most):
    """Print how many of @total records validate listed (@listed) and those
    of @off (each a text) whose @what differs; fail when more than @most."""
    print('# %d of %d records listed, %d with %s differing' % (listed, total, len(off), what))
    for o in off:
        print('#   ' + o)
    assert len(off) <= most, '%d > %d' % (len(off), most)
