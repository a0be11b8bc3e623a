#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Who holds the heap at its peak: a heaptrack recording's peak consumption summed by owner, the
innermost function of LockScope's own (lockscope::...) on each allocation's stack, so that what a
QHash, QList or std::deque allocates counts to the code whose table or list it is.

    UIBENCH_WRAPPER="heaptrack -o /tmp/ui" tests/bench/ui-bench.sh      (writes /tmp/ui.zst)
    tests/bench/heap-owners.py /tmp/ui.zst [--top N]

Prints the peak heap heaptrack counted, then one line per owner, largest first: MiB, share, owner.
heaptrack slows the program several times over, so what is on its way between threads at the peak
is less than in a run at full speed; what is kept is the same.
"""
import argparse
import collections
import re
import subprocess
import sys
import tempfile

OURS = re.compile(r"(^|[\s*&])lockscope::")


def owner(stack):
    # Arguments name our types too (QHash<...>::emplace(lockscope::HashedKey const&)): only the
    # function's own name says whose code it is.
    names = [re.sub(r"\(.*", "", frame) for frame in stack.split(";")]
    ours = [name for name in names if OURS.search(name)]
    return ours[-1] if ours else "(no LockScope function on the stack)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("recording")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("r", suffix=".stacks") as stacks:
        quiet = [option for name in ("peaks", "allocators", "leaks", "temporary")
                 for option in ("--print-" + name, "0")]
        command = ["heaptrack_print", "-f", args.recording, *quiet, "--flamegraph-cost-type", "peak",
                   "-F", stacks.name]
        try:
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        except FileNotFoundError:
            sys.exit("heap-owners.py: heaptrack_print is not installed (Debian: apt install heaptrack)")
        if done.returncode != 0:
            said = done.stderr.strip().splitlines()
            sys.exit("heap-owners.py: heaptrack_print cannot read %s: %s"
                     % (args.recording, said[-1] if said else "exit %d" % done.returncode))
        by_owner = collections.Counter()
        for line in stacks:
            stack, _, cost = line.rstrip("\n").rpartition(" ")
            if stack:
                by_owner[owner(stack)] += int(cost)
    total = sum(by_owner.values())
    if total == 0:
        sys.exit("heap-owners.py: the recording holds no allocation")
    mib = 1024 * 1024
    print("peak heap %.1f MiB (as heaptrack counts it: what was asked for, not malloc's own)" % (total / mib))
    for name, cost in by_owner.most_common(args.top):
        print("%8.2f MiB %5.1f %%  %s" % (cost / mib, 100 * cost / total, name))


if __name__ == "__main__":
    main()
