#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: table, JSON and SVG plots of the benchmark results.

Usage: bench_report.py --out DIR [--doc RST] [--shift N] [--rounds N]
                       [--wall S] ARCH:IMPL:FILE...

Each FILE holds the guest's "BENCH <case> <round> <value> <unit>" lines of
one arch and core (IMPL upstream or new).  Per case and core the value is
the median over the rounds, and the spread is (max - min) / median; the
table's spread is the larger of the two cores'.  ratio = ours / upstream.
A case is "slower" when its ratio exceeds 1 by more than its spread (and
by at least 1%); for P9's ".share" cases (more is better) when it is below
1 by as much.  Writes DIR/bench.json, DIR/table.txt, DIR/ratio.svg and
DIR/p6-scale.svg; with --doc, the table between the BENCH-TABLE markers of
the reStructuredText file.
"""
import argparse
import json
import math
import re
import statistics
import sys
from collections import OrderedDict, defaultdict
from html import escape


def load(specs):
    data = OrderedDict()   # arch -> case -> impl -> [values]
    units = {}
    for spec in specs:
        arch, impl, path = spec.split(':', 2)
        cases = data.setdefault(arch, OrderedDict())
        with open(path, errors='replace') as f:
            for line in f:
                m = re.match(r'^BENCH (\S+) (\d+) (-?[0-9.]+) (\S+)\s*$', line)
                if not m:
                    continue
                case, _, value, unit = m.groups()
                cases.setdefault(case, {}).setdefault(impl, []).append(float(value))
                units[case] = unit
    return data, units


def summary(values):
    if not values:
        return None, None
    med = statistics.median(values)
    spread = (max(values) - min(values)) / abs(med) * 100 if med else 0.0
    return med, spread


def rows_of(data, units):
    rows = []
    for arch, cases in data.items():
        for case, impls in cases.items():
            up, sp_up = summary(impls.get('upstream', []))
            new, sp_new = summary(impls.get('new', []))
            spreads = [s for s in (sp_up, sp_new) if s is not None]
            ratio = new / up if up and new is not None else None
            spread = max(spreads) if spreads else None
            # P9's share is the one case where more is better
            worse = ratio - 1 if ratio is not None else None
            if worse is not None and case.endswith('.share'):
                worse = 1 - ratio
            slower = (worse is not None and spread is not None and
                      worse > max(spread / 100, 0.01))
            rows.append(OrderedDict(arch=arch, case=case, unit=units[case],
                                    upstream=up, ours=new, ratio=ratio,
                                    spread=spread, slower=slower,
                                    rounds={k: v for k, v in impls.items()}))
    return rows


def fmt(v, nd=1):
    return '-' if v is None else f'{v:.{nd}f}'


def table(rows):
    head = ['arch', 'case', 'unit', 'upstream', 'ours', 'ratio', 'spread %', '']
    body = [[r['arch'], r['case'], r['unit'], fmt(r['upstream']), fmt(r['ours']),
             fmt(r['ratio'], 3), fmt(r['spread'], 2), 'slower' if r['slower'] else '']
            for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    return head, body, widths


def text_table(rows):
    head, body, widths = table(rows)
    right = {3, 4, 5, 6}

    def line(cells):
        return '  '.join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    out = [line(head), line(['-' * w for w in widths])]
    out += [line(b) for b in body]
    return '\n'.join(out)


def rst_table(rows):
    head, body, widths = table(rows)
    widths = [max(w, 1) for w in widths]
    sep = '  '.join('=' * w for w in widths)

    def line(cells):
        return '  '.join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return '\n'.join([sep, line(head[:-1] + ['flag']), sep] + [line(b) for b in body] + [sep])


# --- SVG, without matplotlib -------------------------------------------------

COLORS = {'upstream': '#4c72b0', 'new': '#dd8452'}


def svg_doc(w, h, parts):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'font-family="sans-serif" font-size="11">\n'
            f'<rect width="{w}" height="{h}" fill="white"/>\n' + '\n'.join(parts) + '\n</svg>\n')


def ratio_svg(rows):
    rows = [r for r in rows if r['ratio'] is not None]
    bar, gap, left, top, width = 14, 4, 330, 40, 420
    h = top + len(rows) * (bar + gap) + 40
    hi = max([1.5] + [r['ratio'] for r in rows])
    hi = math.ceil(hi * 4) / 4
    x = lambda v: left + v / hi * width
    parts = [f'<text x="{left}" y="20" font-size="14">ours / upstream '
             f'(&lt; 1 is faster; bar end = median, whisker = spread)</text>']
    t = 0.0
    while t <= hi + 1e-9:
        parts.append(f'<line x1="{x(t):.1f}" y1="{top - 5}" x2="{x(t):.1f}" y2="{h - 30}" '
                     f'stroke="{"#000" if t == 1 else "#ddd"}"/>')
        parts.append(f'<text x="{x(t):.1f}" y="{h - 15}" text-anchor="middle">{t:g}</text>')
        t += 0.25
    for i, r in enumerate(rows):
        y = top + i * (bar + gap)
        color = '#c44e52' if r['slower'] else '#55a868'
        parts.append(f'<text x="{left - 6}" y="{y + bar - 3}" text-anchor="end">'
                     f'{escape(r["arch"])} {escape(r["case"])}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{x(r["ratio"]) - left:.1f}" '
                     f'height="{bar}" fill="{color}"/>')
        s = (r['spread'] or 0) / 100 * r['ratio']
        parts.append(f'<line x1="{x(max(r["ratio"] - s, 0)):.1f}" y1="{y + bar / 2}" '
                     f'x2="{x(r["ratio"] + s):.1f}" y2="{y + bar / 2}" stroke="#000"/>')
        parts.append(f'<text x="{x(r["ratio"]) + 4:.1f}" y="{y + bar - 3}">'
                     f'{r["ratio"]:.2f}</text>')
    return svg_doc(left + width + 60, h, parts)


def scale_svg(rows):
    """P6: cost against the number of unrelated events, one panel per
    arch and operation, one line per core and kind of unrelated event."""
    series = defaultdict(dict)   # (arch, op) -> (impl, kind) -> {n: value}
    units = {}
    for r in rows:
        m = re.match(r'^P6\.(\S+)@(\w+):(\d+)$', r['case'])
        if not m:
            continue
        op, kind, n = m.group(1), m.group(2), int(m.group(3))
        for impl, key in (('upstream', 'upstream'), ('new', 'ours')):
            if r[key] is not None:
                series[(r['arch'], op)].setdefault((impl, kind), {})[n] = r[key]
        units[(r['arch'], op)] = r['unit']
    if not series:
        return svg_doc(300, 40, ['<text x="10" y="25">no P6 results</text>'])
    pw, ph, ml, mt = 330, 230, 60, 30
    keys = sorted(series)
    cols = 3
    nrow = math.ceil(len(keys) / cols)
    parts = []
    dash = {'self': '', 'task': '6,3', 'cpu': '2,2'}
    for idx, key in enumerate(keys):
        ox = (idx % cols) * (pw + ml + 20) + ml
        oy = (idx // cols) * (ph + mt + 40) + mt + 10
        lines = series[key]
        ns = sorted({n for s in lines.values() for n in s})
        vals = [v for s in lines.values() for v in s.values() if v > 0]
        lo, hi = math.log10(min(vals)), math.log10(max(vals))
        if hi - lo < 0.3:
            lo, hi = lo - 0.15, hi + 0.15
        nlo, nhi = math.log10(ns[0]), math.log10(ns[-1])
        X = lambda n: ox + (math.log10(n) - nlo) / max(nhi - nlo, 1e-9) * pw
        Y = lambda v: oy + ph - (math.log10(v) - lo) / (hi - lo) * ph
        parts.append(f'<text x="{ox}" y="{oy - 8}" font-size="13">{escape(key[0])} '
                     f'P6.{escape(key[1])} ({escape(units[key])}, log-log)</text>')
        parts.append(f'<rect x="{ox}" y="{oy}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
        for n in ns:
            parts.append(f'<text x="{X(n):.1f}" y="{oy + ph + 14}" text-anchor="middle">{n}</text>')
        for e in range(math.floor(lo), math.ceil(hi) + 1):
            for m in (1, 2, 5):
                v = m * 10 ** e
                if lo <= math.log10(v) <= hi:
                    parts.append(f'<line x1="{ox}" y1="{Y(v):.1f}" x2="{ox + pw}" y2="{Y(v):.1f}" stroke="#eee"/>')
                    parts.append(f'<text x="{ox - 4}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
        for (impl, kind), pts in sorted(lines.items()):
            xs = sorted(pts)
            path = ' '.join(f'{X(n):.1f},{Y(pts[n]):.1f}' for n in xs if pts[n] > 0)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{COLORS[impl]}" '
                         f'stroke-width="2" stroke-dasharray="{dash.get(kind, "")}"/>')
    ly = nrow * (ph + mt + 40) + 20
    lx = ml
    for impl, label in (('upstream', 'upstream'), ('new', 'ours')):
        for kind in ('self', 'task', 'cpu'):
            parts.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 30}" y2="{ly}" stroke="{COLORS[impl]}" '
                         f'stroke-width="2" stroke-dasharray="{dash[kind]}"/>')
            parts.append(f'<text x="{lx + 35}" y="{ly + 4}">{label} {kind}:N</text>')
            lx += 150
    parts.append(f'<text x="{ml}" y="{ly + 22}">x: number of unrelated events N; '
                 f'self = disabled on the measuring task, task = on another task, cpu = CPU-wide</text>')
    return svg_doc(cols * (pw + ml + 20) + 20, ly + 35, parts)


# --- P9: multiplexing accuracy ----------------------------------------------

def p9_rows(rows):
    """(arch, workload-set) -> {metric: (upstream, ours)} of the P9 cases."""
    out = OrderedDict()
    for r in rows:
        m = re.match(r'^P9\.(\S+)\.(mae|worst|share|starved)$', r['case'])
        if m:
            out.setdefault((r['arch'], m.group(1)), {})[m.group(2)] = (r['upstream'], r['ours'])
    return out


def p9_rst(p9):
    head = ['arch', 'workload-set', 'mae 6.1', 'mae ours', 'worst 6.1', 'worst ours',
            'share 6.1', 'share ours', 'starved 6.1', 'starved ours']
    body = []
    for (arch, ws), m in p9.items():
        cells = [arch, ws]
        for metric, nd in (('mae', 2), ('worst', 2), ('share', 1), ('starved', 0)):
            up, new = m.get(metric, (None, None))
            cells += [fmt(up, nd), fmt(new, nd)]
        body.append(cells)
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    sep = '  '.join('=' * w for w in widths)

    def line(cells):
        return '  '.join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return '\n'.join([sep, line(head), sep] + [line(b) for b in body] + [sep])


def p9_svg(p9):
    """Mean absolute error per workload and set, 6.1 against ours (log scale)."""
    keys = list(p9)
    if not keys:
        return svg_doc(300, 40, ['<text x="10" y="25">no P9 results</text>'])
    bar, gap, left, top, width = 9, 8, 170, 40, 460
    lo, hi = -2, 2   # 0.01 % .. 100 %
    x = lambda v: left + (min(max(math.log10(max(v, 10 ** lo)), lo), hi) - lo) / (hi - lo) * width
    h = top + len(keys) * (2 * bar + gap) + 50
    parts = [f'<text x="{left}" y="20" font-size="14">P9: mean absolute error of the '
             f'scaled estimates, % (log scale; less is better)</text>']
    for e in range(lo, hi + 1):
        v = 10 ** e
        parts.append(f'<line x1="{x(v):.1f}" y1="{top - 5}" x2="{x(v):.1f}" y2="{h - 40}" stroke="#ddd"/>')
        parts.append(f'<text x="{x(v):.1f}" y="{h - 25}" text-anchor="middle">{v:g}</text>')
    for i, key in enumerate(keys):
        y = top + i * (2 * bar + gap)
        parts.append(f'<text x="{left - 6}" y="{y + 2 * bar - 2}" text-anchor="end">'
                     f'{escape(key[0])} {escape(key[1])}</text>')
        for j, impl in enumerate(('upstream', 'new')):
            v = p9[key].get('mae', (None, None))[j]
            if v is None:
                continue
            parts.append(f'<rect x="{left}" y="{y + j * bar}" width="{x(v) - left:.1f}" '
                         f'height="{bar - 1}" fill="{COLORS[impl]}"/>')
            parts.append(f'<text x="{x(v) + 4:.1f}" y="{y + j * bar + bar - 2}" font-size="9">'
                         f'{v:.2f}</text>')
    ly = h - 10
    for j, (impl, label) in enumerate((('upstream', '6.1'), ('new', 'ours'))):
        parts.append(f'<rect x="{left + j * 120}" y="{ly - 9}" width="12" height="9" '
                     f'fill="{COLORS[impl]}"/>')
        parts.append(f'<text x="{left + j * 120 + 16}" y="{ly}">{label}</text>')
    return svg_doc(left + width + 60, h, parts)


# --- perf's own instructions per operation (PROFILE=1) -----------------------

def load_own(specs):
    """arch -> case -> impl -> (own, kernel, slab allocations) per op."""
    own = OrderedDict()
    for spec in specs:
        arch, impl, path = spec.split(':', 2)
        with open(path) as f:
            for line in f:
                m = re.match(r'^OWN (\S+) ([0-9.]+) ([0-9.]+) (\d+)(?: ([0-9.]+))?$',
                             line.strip())
                if m:
                    own.setdefault(arch, OrderedDict()).setdefault(m.group(1), {})[impl] = \
                        (float(m.group(2)), float(m.group(3)),
                         float(m.group(5)) if m.group(5) else None)
    return own


def own_table(own, rows):
    """Rows: arch, case, perf-own upstream/ours/ratio, kernel upstream/ours,
    the whole-op ratio of the timed table, and slab allocations per op."""
    whole = {(r['arch'], r['case']): r['ratio'] for r in rows}
    head = ['arch', 'case', 'own 6.1', 'own ours', 'own ratio', 'kernel 6.1',
            'kernel ours', 'whole-op ratio', 'allocs 6.1', 'allocs ours']
    body = []
    for arch, cases in own.items():
        for case, impls in cases.items():
            up, new = impls.get('upstream'), impls.get('new')
            ratio = new[0] / up[0] if up and new and up[0] else None
            body.append([arch, case, fmt(up and up[0]), fmt(new and new[0]), fmt(ratio, 3),
                         fmt(up and up[1]), fmt(new and new[1]),
                         fmt(whole.get((arch, case)), 3),
                         fmt(up and up[2], 2), fmt(new and new[2], 2)])
    return head, body


def own_text(head, body):
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    return '\n'.join('  '.join(c.rjust(w) if i > 1 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
                     for cells in [head, ['-' * w for w in widths]] + body)


def own_rst(head, body):
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    sep = '  '.join('=' * w for w in widths)
    line = lambda cells: '  '.join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return '\n'.join([sep, line(head), sep] + [line(b) for b in body] + [sep])


def update_doc(path, text, begin='.. BENCH-TABLE-BEGIN', end='.. BENCH-TABLE-END'):
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        print(f'bench_report: no {begin}/{end} markers in {path}', file=sys.stderr)
        return
    a = doc.index(begin) + len(begin)
    b = doc.index(end)
    with open(path, 'w') as f:
        f.write(doc[:a] + '\n\n' + text + '\n\n' + doc[b:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--doc')
    ap.add_argument('--p9-doc', help='write the P9 table between its markers of this file')
    ap.add_argument('--shift', type=int, default=0)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--wall', type=int, default=0)
    ap.add_argument('--own', action='append', default=[],
                    help="ARCH:IMPL:FILE of kprof_regions.py's OWN lines (PROFILE=1)")
    ap.add_argument('--own-doc', help='write the perf-own table between its markers of this file')
    ap.add_argument('results', nargs='+')
    a = ap.parse_args()
    data, units = load(a.results)
    rows = rows_of(data, units)
    txt = text_table(rows)
    print(txt)
    slower = [f'{r["arch"]} {r["case"]}' for r in rows if r['slower']]
    print(f'\n{len(rows)} cases, {len(slower)} slower on ours beyond the spread'
          + (': ' + ', '.join(slower) if slower else ''))
    meta = OrderedDict(icount_shift=a.shift, rounds=a.rounds, wall_s=a.wall,
                       ratio='ours/upstream (median of rounds)',
                       spread='(max-min)/median of rounds, %, larger of the two cores')
    with open(f'{a.out}/bench.json', 'w') as f:
        json.dump(OrderedDict(meta=meta, results=rows), f, indent=1)
    with open(f'{a.out}/table.txt', 'w') as f:
        f.write(txt + '\n')
    # P9's accuracy cases have their own table and plot
    timed = [r for r in rows if not r['case'].startswith('P9.')]
    p9 = p9_rows(rows)
    with open(f'{a.out}/ratio.svg', 'w') as f:
        f.write(ratio_svg(timed))
    with open(f'{a.out}/p6-scale.svg', 'w') as f:
        f.write(scale_svg(timed))
    with open(f'{a.out}/p9-mux.svg', 'w') as f:
        f.write(p9_svg(p9))
    with open(f'{a.out}/p9-table.rst', 'w') as f:
        f.write(p9_rst(p9) + '\n')
    if a.doc:
        update_doc(a.doc, f'``make bench``, icount shift {a.shift}, {a.rounds} rounds, '
                   f'{a.wall} s wall; medians, ns = instructions at shift 0.\n\n'
                   + rst_table(timed))
    if a.p9_doc and p9:
        update_doc(a.p9_doc, f'``make bench``, icount shift {a.shift}, {a.rounds} '
                   f'round(s); medians; % unless noted.\n\n' + p9_rst(p9),
                   '.. P9-TABLE-BEGIN', '.. P9-TABLE-END')
    own = load_own(a.own)
    if own:
        head, body = own_table(own, rows)
        otxt = own_text(head, body)
        print('\nperf\'s own instructions per operation (core and PMU driver; kernel = all '
              'kernel instructions)\n' + otxt)
        with open(f'{a.out}/own-table.txt', 'w') as f:
            f.write(otxt + '\n')
        if a.own_doc:
            update_doc(a.own_doc, f'``make bench PROFILE=1``, {a.rounds} round(s); '
                       f'instructions per operation.\n\n' + own_rst(head, body),
                       '.. OWN-TABLE-BEGIN', '.. OWN-TABLE-END')
    print(f'bench: {a.out}/bench.json, table.txt, ratio.svg, p6-scale.svg, p9-mux.svg, p9-table.rst')


if __name__ == '__main__':
    main()
