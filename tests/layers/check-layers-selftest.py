#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Shows that scripts/architecture/check-layers.py catches what it is for: a copy of the tree passes, and each planted
offence (one at a time, undone before the next) fails it, naming the file:line and the rule broken.

    tests/layers/check-layers-selftest.py SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

COPIED = ("core", "demo", "ui", "app", "tests")
SKIP_DIRS = {"node_modules", "corpus", ".git"}


def copy_tree(src, dst):
    """The sources the checker reads (headers, sources, CMake lists) and the checker with its list."""
    for top in COPIED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(src, top)):
            dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build")]
            rel = os.path.relpath(dirpath, src)
            for f in filenames:
                if f.endswith((".h", ".cpp")) or f == "CMakeLists.txt":
                    os.makedirs(os.path.join(dst, rel), exist_ok=True)
                    shutil.copyfile(os.path.join(dirpath, f), os.path.join(dst, rel, f))
    os.makedirs(os.path.join(dst, "scripts/architecture"))
    for f in ("check-layers.py", "layers.conf"):
        shutil.copyfile(os.path.join(src, "scripts/architecture", f), os.path.join(dst, "scripts/architecture", f))


class Tree:
    def __init__(self, root):
        self.root = root
        self.saved = {}  # path -> original text, or None for a file the case created

    def path(self, rel):
        return os.path.join(self.root, rel)

    def _save(self, rel):
        if rel not in self.saved:
            p = self.path(rel)
            self.saved[rel] = open(p, encoding="utf-8").read() if os.path.exists(p) else None

    def insert_line2(self, rel, text):
        """TEXT becomes line 2 of REL (line 1 stays: the file's own header or licence line)."""
        self._save(rel)
        lines = self.saved[rel].split("\n")
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:1] + [text] + lines[1:]))

    def replace(self, rel, old, new):
        self._save(rel)
        text = self.saved[rel]
        if old not in text:
            raise SystemExit(f"cannot plant the offence: '{old}' is not in {rel} (did the file change?)")
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))

    def create(self, rel, text):
        self._save(rel)
        os.makedirs(os.path.dirname(self.path(rel)), exist_ok=True)
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(text)

    def undo(self):
        for rel, text in self.saved.items():
            if text is None:
                os.remove(self.path(rel))
            else:
                with open(self.path(rel), "w", encoding="utf-8") as f:
                    f.write(text)
        self.saved.clear()

    def check(self):
        run = subprocess.run([sys.executable, self.path("scripts/architecture/check-layers.py"), self.root],
                             capture_output=True, text=True, timeout=60)
        return run.returncode, run.stdout + run.stderr


def first_file(tree, folder, suffix=".cpp"):
    names = sorted(f for f in os.listdir(tree.path(folder)) if f.endswith(suffix))
    if not names:
        raise SystemExit(f"no {suffix} file in {folder}")
    return f"{folder}/{names[0]}"


def cases(tree):
    """(name, plant, where, rule): plant(tree) makes the offence; the output must have a line with both."""
    base = first_file(tree, "core/base")
    widgets = first_file(tree, "ui/widgets")
    yield ("a layer includes one above it", lambda t: t.insert_line2(base, '#include "connection/redisurl.h"'),
           f"{base}:2:", "core/base/ must not include connection/redisurl.h")
    yield ("locking includes monitor", lambda t: t.insert_line2("core/locking/redlock.cpp", '#include "monitor/lockview.h"'),
           "core/locking/redlock.cpp:2:", "must not include monitor/lockview.h")
    yield ("monitor includes locking", lambda t: t.insert_line2("core/monitor/lockmonitor.cpp", '#include "locking/redlock.h"'),
           "core/monitor/lockmonitor.cpp:2:", "must not include locking/redlock.h")
    yield ("a bare project include", lambda t: t.insert_line2("core/discovery/keyreader.cpp", '#include "redisconnection.h"'),
           "core/discovery/keyreader.cpp:2:", '#include "connection/redisconnection.h"')
    yield ("a bare test-support include", lambda t: t.insert_line2(first_file(t, "tests/unit"), '#include "testregistry.h"'),
           ":2:", '#include "support/testregistry.h"')
    yield ("an include through ..", lambda t: t.insert_line2(widgets, '#include "../../core/base/result.h"'),
           f"{widgets}:2:", "never ..")
    yield ("a project header in angle brackets", lambda t: t.insert_line2(base, "#include <connection/redisurl.h>"),
           f"{base}:2:", 'included in quotes by its folder: #include "connection/redisurl.h"')
    yield ("the core includes the demo", lambda t: t.insert_line2("core/export/lockcsv.cpp", '#include "demo/demosimulation.h"'),
           "core/export/lockcsv.cpp:2:", "core/export/ must not include demo/demosimulation.h")
    yield ("the demo includes the window", lambda t: t.insert_line2("demo/demolab.cpp", '#include "livedemo/demopanel.h"'),
           "demo/demolab.cpp:2:", "demo/ must not include livedemo/demopanel.h")
    yield ("lockctl includes the demo", lambda t: t.insert_line2("app/lockctl/main.cpp", '#include "demo/demolab.h"'),
           "app/lockctl/main.cpp:2:", "app/lockctl/ must not include demo/demolab.h")
    yield ("lockctl includes the window", lambda t: t.insert_line2("app/lockctl/main.cpp", '#include "locks/locktablemodel.h"'),
           "app/lockctl/main.cpp:2:", "app/lockctl/ must not include locks/locktablemodel.h")
    yield ("a shared widget includes the window", lambda t: t.insert_line2(widgets, '#include "window/mainwindow.h"'),
           f"{widgets}:2:", "ui/widgets/ must not include window/mainwindow.h")
    yield ("the core uses a widget", lambda t: t.insert_line2(base, "#include <QLabel>"),
           f"{base}:2:", "the core must not use QtWidgets")
    yield ("the core uses Qt HTTP Server", lambda t: t.insert_line2(base, "#include <QtHttpServer/QHttpServer>"),
           f"{base}:2:", "the core must not use QtHttpServer")
    yield ("the core links Qt HTTP Server",
           lambda t: t.replace("core/CMakeLists.txt", "target_link_libraries(lockscope_core",
                               "target_link_libraries(lockscope_core PUBLIC Qt6::HttpServer)\ntarget_link_libraries(lockscope_core"),
           "core/CMakeLists.txt:", "the core must not link Qt6::HttpServer")
    yield ("lockctl links the demo",
           lambda t: t.replace("app/CMakeLists.txt", "target_link_libraries(lockctl PRIVATE lockscope_core",
                               "target_link_libraries(lockctl PRIVATE lockscope_core lockscope_demo"),
           "app/CMakeLists.txt:", "lockctl must not link the demo")
    yield ("a folder the list does not know",
           lambda t: t.create("core/newlayer/probe.cpp", '#include "base/result.h"\n'),
           "core/newlayer/probe.cpp:1:", "core/newlayer/ is not in scripts/architecture/layers.conf")
    yield ("an edge nothing uses",
           lambda t: t.replace("scripts/architecture/layers.conf", "\ncore/audit: core/base", "\ncore/audit: core/base core/connection"),
           "scripts/architecture/layers.conf:", "core/audit may include core/connection, but no file there does")
    yield ("a source file without its licence line",
           lambda t: t.create("core/base/unlicensed.h", "#pragma once\n"),
           "core/base/unlicensed.h:1:", "no licence line")
    yield ("a cycle in the list",
           lambda t: (t.replace("scripts/architecture/layers.conf", "\ncore/base:", "\ncore/base: core/connection"),
                      t.insert_line2(base, '#include "connection/redisurl.h"')),
           "scripts/architecture/layers.conf:", "a cycle: ")


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../.."))
    work = tempfile.mkdtemp(prefix="check-layers-selftest-")
    try:
        copy_tree(src, work)
        tree = Tree(work)
        status, out = tree.check()
        if status != 0:
            print(f"FAIL clean copy: the checker fails it (every case below would prove nothing):\n{out}")
            return 1
        print("ok   clean copy passes")
        failures = 0
        for name, plant, where, rule in cases(tree):
            plant(tree)
            status, out = tree.check()
            tree.undo()
            hit = [line for line in out.splitlines() if where in line and rule in line]
            if status == 0:
                print(f"FAIL {name}: the checker passed")
                failures += 1
            elif not hit:
                print(f"FAIL {name}: no line with '{where}' and '{rule}' in:\n{out}")
                failures += 1
            else:
                print(f"ok   {name}: {hit[0]}")
        if failures:
            print(f"{failures} case(s) not caught")
            return 1
        print("all offences caught")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
