#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the tree against its architecture (docs/architecture.md): every include of a project header
names its folder and follows an edge that scripts/architecture/layers.conf allows; the core uses no
widgets and links no GPL-only Qt module; lockctl links neither the demo nor the window; every source file carries the
project's licence identifier.

    scripts/architecture/check-layers.py [--build DIR] [ROOT]

Prints each offence as file:line: rule and exits 1 if there is any. One pass over the files, no process
per include: it must stay well under two seconds on a loaded machine. With --build, lockctl's real link
line (from ninja) is checked as well.
"""
import fnmatch
import os
import re
import subprocess
import sys

SOURCE_DIRS = ("core", "demo", "ui", "app", "tests")
SKIP_DIRS = {"node_modules", "corpus"}
# Where an include path is looked up: each part's include directory, and the folders reached from it.
# The demo library is included from the root ("demo/democlient.h"), but only the demo.
INCLUDE_ROOTS = (("core", None), ("ui", None), ("app", None), ("tests", None), ("", "demo/"))
SPDX = b"SPDX-License-Identifier: Apache-2.0"
INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
# Qt modules the core must not use: widgets (it runs without a display) and the modules Debian ships
# under the GPL-3 only (the core is reused under Apache-2.0; see packaging/copyright).
CORE_FORBIDDEN_QT = ("QtWidgets", "QtHttpServer", "QtCharts")
QT_INCLUDE_DIRS = ("/usr/include/x86_64-linux-gnu/qt6", "/usr/include/aarch64-linux-gnu/qt6", "/usr/include/qt6")


class Checker:
    def __init__(self, root):
        self.root = root
        self.offences = []
        self.files = self._source_files()
        self.known = set(self.files)
        self.allowed, self.conf_lines = self._read_conf()
        self.used = set()

    def fail(self, where, line, rule):
        self.offences.append(f"{where}:{line}: {rule}")

    def _source_files(self):
        found = []
        for top in SOURCE_DIRS:
            for dirpath, dirnames, filenames in os.walk(os.path.join(self.root, top)):
                dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
                rel = os.path.relpath(dirpath, self.root)
                found += [f"{rel}/{f}" for f in filenames if f.endswith((".h", ".cpp"))]
        return sorted(found)

    def _read_conf(self):
        path = os.path.join(self.root, "scripts/architecture/layers.conf")
        allowed, lines = {}, {}
        if not os.path.isfile(path):
            print(f"{path}: missing (the allow-list this check reads)", file=sys.stderr)
            sys.exit(2)
        with open(path, encoding="utf-8") as conf:
            for number, text in enumerate(conf, 1):
                text = text.split("#", 1)[0].strip()
                if not text:
                    continue
                folder, _, targets = text.partition(":")
                folder = folder.strip()
                if folder in allowed:
                    self.fail("scripts/architecture/layers.conf", number, f"{folder} is listed twice")
                allowed[folder] = targets.split()
                lines[folder] = number
        return allowed, lines

    def rule_for(self, folder):
        """The conf entry that governs a folder: its own line, else the longest glob that matches it."""
        if folder in self.allowed:
            return folder
        globs = [k for k in self.allowed if any(c in k for c in "*?[") and fnmatch.fnmatchcase(folder, k)]
        return max(globs, key=len) if globs else None

    def resolve(self, path):
        hits = [os.path.normpath(os.path.join(r, path)) for r, only in INCLUDE_ROOTS
                if only is None or path.startswith(only)]
        return [h for h in dict.fromkeys(hits) if h in self.known]

    def check_sources(self):
        for name in self.files:
            with open(os.path.join(self.root, name), "rb") as f:
                text = f.read()
            folder = os.path.dirname(name)
            if SPDX not in text[:200]:
                self.fail(name, 1, f"no licence line at the head of the file: // {SPDX.decode()} (LICENSE)")
            for match in INCLUDE.finditer(text):
                line = text.count(b"\n", 0, match.start()) + 1
                target = match.group(2).decode("utf-8", "replace")
                if match.group(1) == b"<":
                    self.check_angle(name, line, folder, target)
                else:
                    self.check_quoted(name, line, folder, target)

    def check_angle(self, name, line, folder, target):
        if self.resolve(target):
            self.fail(name, line, f'a project header is included in quotes by its folder: #include "{target}"')
        elif folder.startswith("core/"):
            module = target.split("/", 1)[0] if "/" in target else QT_MODULE_OF.get(target)
            if module in CORE_FORBIDDEN_QT:
                self.fail(name, line, f"the core must not use {module} (<{target}>): it runs without a "
                          "display and links no GPL-only Qt module")

    def check_quoted(self, name, line, folder, target):
        if target.endswith(".moc") or target.startswith(("moc_", "ui_")):
            return  # made by the build for this very file
        if ".." in target.split("/"):
            self.fail(name, line, f'"{target}": an include names its folder from the include root, never ..')
            return
        hits = self.resolve(target)
        if not hits:
            if "/" not in target and self.bare_name_in_tree(target):
                self.fail(name, line, f'a project header is included by its folder: #include "'
                          f'{self.suggest(target)}"')
            return  # a generated header or one outside the tree
        if len(hits) > 1:
            self.fail(name, line, f'"{target}" names {len(hits)} headers ({", ".join(hits)})')
            return
        target_folder = os.path.dirname(hits[0])
        if "/" not in target:
            self.fail(name, line, f'a project header is included by its folder: #include "{self.suggest(target)}"')
            return
        if target_folder == folder:
            return
        rule = self.rule_for(folder)
        if rule is None:
            self.fail(name, line, f"{folder}/ is not in scripts/architecture/layers.conf (add it with the folders it may include)")
            return
        for allowed in self.allowed[rule]:
            if fnmatch.fnmatchcase(target_folder, allowed):
                self.used.add((rule, allowed))
                return
        self.fail(name, line, f"{folder}/ must not include {target}: scripts/architecture/layers.conf lets {folder}/ include "
                  f"{' '.join(self.allowed[rule]) or 'nothing else'}")

    def bare_name_in_tree(self, target):
        return any(f.rsplit("/", 1)[-1] == target for f in self.files)

    def suggest(self, target):
        for f in self.files:
            if f.rsplit("/", 1)[-1] == target:
                for r, _ in INCLUDE_ROOTS:
                    if r and f.startswith(r + "/"):
                        return f[len(r) + 1:]
                return f
        return target

    def check_conf(self):
        """Every listed edge is used (the list is the design, not a superset) and the folders form an order."""
        for folder, targets in self.allowed.items():
            for t in targets:
                if (folder, t) not in self.used:
                    self.fail("scripts/architecture/layers.conf", self.conf_lines[folder],
                              f"{folder} may include {t}, but no file there does: remove the edge")
        graph = {f: [t for t in ts if t in self.allowed] for f, ts in self.allowed.items() if "*" not in f}
        state = {}

        def visit(node, path):
            state[node] = 1
            for nxt in graph.get(node, []):
                if state.get(nxt) == 1:
                    cycle = path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
                    self.fail("scripts/architecture/layers.conf", self.conf_lines[node], "a cycle: " + " -> ".join(cycle))
                elif nxt not in state:
                    visit(nxt, path + [nxt])
            state[node] = 2

        for node in graph:
            if node not in state:
                visit(node, [node])

    def check_links(self, build):
        """lockctl links neither the demo nor the window; the core links no widgets or GPL-only module."""
        forbidden_for_lockctl = re.compile(r"lockscope_(demo|ui)\b")
        forbidden_for_core = re.compile(r"Qt6?::(Widgets|HttpServer|Charts)\b|lockscope_(demo|ui)\b")
        app = os.path.join(self.root, "app/CMakeLists.txt")
        for number, text in self.link_lines(app, "lockctl"):
            if forbidden_for_lockctl.search(text):
                self.fail("app/CMakeLists.txt", number, "lockctl must not link the demo or the window library")
        for dirpath, _, filenames in os.walk(os.path.join(self.root, "core")):
            if "CMakeLists.txt" in filenames:
                path = os.path.join(dirpath, "CMakeLists.txt")
                for number, text in self.link_lines(path, "lockscope_core"):
                    m = forbidden_for_core.search(text)
                    if m:
                        self.fail(os.path.relpath(path, self.root), number,
                                  f"the core must not link {m.group(0)} (lockctl and reusers link the core)")
        if build:
            if not os.path.isfile(os.path.join(build, "build.ninja")):
                print(f"--build {build}: no ninja build there", file=sys.stderr)
                sys.exit(2)
            link = self.link_command(build, "lockctl")
            if re.search(r"liblockscope_(demo|ui)\.a", link):
                self.fail(f"{build}/build.ninja", 0, f"lockctl's link line links the demo or the window library: {link}")
            # packaging/copyright names the one GPL-only Qt module the window links (Qt Charts, for the
            # Insights view): keep it the only one.
            link = self.link_command(build, "lockscope")
            m = re.search(r"libQt6(HttpServer)\.so", link)
            if m:
                self.fail(f"{build}/build.ninja", 0, f"the window links Qt {m.group(1)}, which Debian ships under the "
                          "GPL-3 only (packaging/copyright names Qt Charts alone)")

    @staticmethod
    def link_command(build, target):
        run = subprocess.run(["ninja", "-C", build, "-t", "commands", target], capture_output=True, text=True)
        commands = run.stdout.strip().splitlines() if run.returncode == 0 else []
        return commands[-1] if commands else ""

    @staticmethod
    def link_lines(path, target):
        """(line number, text) of each target_link_libraries(TARGET ...) call, across its lines."""
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        on = False
        for number, text in enumerate(lines, 1):
            if re.match(rf"\s*target_link_libraries\(\s*{target}\b", text):
                on = True
            if on:
                yield number, text.split("#", 1)[0]
                if ")" in text:
                    on = False


def qt_module_index():
    """Bare Qt class headers (<QLabel>) mapped to their module, from the installed Qt headers."""
    index = {}
    for base in QT_INCLUDE_DIRS:
        for module in CORE_FORBIDDEN_QT:
            directory = os.path.join(base, module)
            if os.path.isdir(directory):
                for entry in os.listdir(directory):
                    if not entry.endswith(".h"):
                        index.setdefault(entry, module)
    return index


QT_MODULE_OF = {}


def main(argv):
    build, root = None, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--build":
            build = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            root = a
    root = os.path.abspath(root or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    QT_MODULE_OF.update(qt_module_index())
    checker = Checker(root)
    checker.check_sources()
    checker.check_conf()
    checker.check_links(build)
    for offence in checker.offences:
        print(offence)
    if checker.offences:
        print("check-layers: the offences above break the architecture (docs/architecture.md, scripts/architecture/layers.conf)",
              file=sys.stderr)
        return 1
    print(f"check-layers: {len(checker.files)} files; every include names its folder and follows "
          f"scripts/architecture/layers.conf ({sum(map(len, checker.allowed.values()))} edges); the core uses no widgets or "
          "GPL-only Qt module; lockctl links no demo or window")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
