#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The sysfs files of 6.1's POWER CPU PMU, read from the base tree's source.

Usage: ppc-sysfs-ref.py BASE_TREE > ref

For each CPU model that QEMU boots (POWER8, POWER9, POWER10 and its DD1
variant) prints one line per file of /sys/bus/event_source/devices/cpu/
{format,events,caps}/ as 6.1 creates it:

    MODEL<TAB>GROUP/NAME<TAB>CONTENT

CONTENT with "\\n" for a newline.  The perfev sysfs test compares the
booted kernel's files with the lines of its model: ours must give 6.1's
bytes, and on 6.1 itself the test checks this reader.

It reads what 6.1's sources say, not what they do: EVENT(NAME, CODE) in
the model's event list, GENERIC_EVENT_ATTR/CACHE_EVENT_ATTR(name, NAME),
PMU_FORMAT_ATTR(name, "config:..."), the attribute arrays and groups that
the model's power_pmu.attr_groups names, and caps/pmu_name (the model's
name, no newline) that register_power_pmu() adds for ISA 2.07+ models.
"""
import os
import re
import sys

MODELS = [
    # variant, model source, events header, groups array
    ("POWER8", "power8-pmu.c", "power8-events-list.h", None),
    ("POWER9", "power9-pmu.c", "power9-events-list.h", None),
    ("POWER10", "power10-pmu.c", "power10-events-list.h", None),
    ("POWER10-DD1", "power10-pmu.c", "power10-events-list.h",
     "power10_pmu_attr_groups_dd1"),
]

SHARED = ["isa207-common.c"]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def read(perf_dir, name):
    with open(os.path.join(perf_dir, name)) as f:
        return strip_comments(f.read())


def arrays(text):
    """name -> list of entries of each 'NAME[] = { ... };' initializer."""
    out = {}
    for m in re.finditer(r"\*\s*(\w+)\s*\[\]\s*=\s*\{(.*?)\};", text, re.S):
        out[m.group(1)] = [e.strip() for e in m.group(2).split(",")
                           if e.strip() and e.strip() != "NULL"]
    return out


def groups(text):
    """group variable -> (sysfs name, attrs array)."""
    out = {}
    for m in re.finditer(r"attribute_group\s+(\w+)\s*=\s*\{(.*?)\};",
                         text, re.S):
        name = re.search(r"\.name\s*=\s*\"(\w+)\"", m.group(2))
        attrs = re.search(r"\.attrs\s*=\s*(\w+)", m.group(2))
        if name and attrs:
            out[m.group(1)] = (name.group(1), attrs.group(1))
    return out


def model_files(perf_dir, variant, source, header, groups_array):
    text = read(perf_dir, source)
    codes = {m.group(1): int(m.group(2), 0) for m in re.finditer(
        r"\bEVENT\(\s*(\w+)\s*,\s*(0x[0-9a-fA-F]+|\d+)\s*\)",
        read(perf_dir, header))}
    named = {}
    for m in re.finditer(r"\b(GENERIC|CACHE)_EVENT_ATTR\(\s*([\w-]+)\s*,"
                         r"\s*(\w+)\s*\)", text):
        named[(m.group(1), m.group(3))] = m.group(2)
    # arrays, groups and formats are static: each file has its own
    arr, grp, formats = {}, {}, {}
    for t in [read(perf_dir, s) for s in SHARED] + [text]:
        fmt = {m.group(1): m.group(2) for m in re.finditer(
            r"\bPMU_FORMAT_ATTR\(\s*(\w+)\s*,\s*\"([^\"]*)\"\s*\)", t)}
        for name, entries in arrays(t).items():
            arr[name] = entries
            formats[name] = fmt
        grp.update(groups(t))
    if groups_array is None:
        groups_array = re.search(r"\.attr_groups\s*=\s*(\w+)", text).group(1)
    pmu_name = re.search(r"\.name\s*=\s*\"([^\"]+)\"\s*,\s*\n\s*\.n_counter",
                         text).group(1)

    files = {}
    for entry in arr[groups_array]:
        gname, attrs = grp[entry.lstrip("&")]
        for a in arr.get(attrs, []):
            m = re.match(r"(GENERIC|CACHE)_EVENT_PTR\((\w+)\)", a)
            if m:
                name = named[(m.group(1), m.group(2))]
                files[gname + "/" + name] = "event=0x%02x\n" % \
                    codes[m.group(2)]
                continue
            m = re.match(r"&format_attr_(\w+)\.attr", a)
            if m:
                files[gname + "/" + m.group(1)] = \
                    formats[attrs][m.group(1)] + "\n"
                continue
            sys.exit("%s: %s: unknown attribute %s" % (source, attrs, a))
    # register_power_pmu(): attr_update with caps/pmu_name (ISA 2.07+)
    files["caps/pmu_name"] = pmu_name
    return files


def main():
    perf_dir = os.path.join(sys.argv[1], "arch/powerpc/perf")
    for variant, source, header, groups_array in MODELS:
        files = model_files(perf_dir, variant, source, header, groups_array)
        for path in sorted(files):
            print("%s\t%s\t%s" % (variant, path,
                                  files[path].replace("\n", "\\n")))


if __name__ == "__main__":
    main()
