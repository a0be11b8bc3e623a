# SPDX-License-Identifier: Apache-2.0
# Sourced by the build scripts (run.sh, test.sh, package.sh): compiles through ccache when it is there.
# Appends the launcher to the caller's `flags` array and sets ccache's options for this tree.
if command -v ccache >/dev/null 2>&1; then
    # Paths relative to the checkout, so that another clone of the same tree reuses the cache.
    export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
    # Qt Test's source-directory macro is used only by QFINDTESTDATA (not in this suite; the tests
    # undefine it): it changes no object, but its absolute path would make every test file a cache
    # miss in a new clone. The tests' -fmacro-prefix-map names the checkout too; what it maps
    # __FILE__ to (a relative path) is in the preprocessed text ccache hashes.
    export CCACHE_IGNOREOPTIONS="-DQT_TESTCASE_SOURCEDIR=* -fmacro-prefix-map=*"
    # What ccache needs to cache compiles that use precompiled headers (ccache(1), "Precompiled
    # headers"): the build makes each .gch just before the files that use it, and no header of the
    # set uses __DATE__ or __TIME__.
    export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
