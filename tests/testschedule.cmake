# SPDX-License-Identifier: Apache-2.0
# The order CTest starts the tests in (included at the end of tests/CMakeLists.txt).
#
# Under ctest -jN, CTest starts the tests with the highest COST first. A fresh clone has no timing
# data of its own (Testing/Temporary/CTestCostData.txt, written after a run, takes over from these
# numbers), so without a COST a long test that happens to come late in the list runs on alone at
# the end while the other slots are idle. The numbers are seconds of one run on the 2-core CI
# machine, rounded; only their order matters. A test not listed counts as short (cost 0): give a
# new test that takes more than a few seconds a line here.
set(lockscope_test_costs
    integration.tst_demoscenarios 60
    integration.tst_uifaultmatrix 40
    integration.tst_demofailover 30
    integration.tst_safetyincidents 100
    integration.tst_incidentsoak 60
    integration.tst_lockctlincidents 8
    integration.tst_pgrecording 9
    integration.tst_pgrecorders 12
    integration.tst_uiteamrecording 20
    integration.tst_contestedoutage 10
    integration.tst_lockctlstats 20
    integration.tst_uiinsights 24
    integration.tst_uiincidents 8
    integration.tst_locktracer 8
    integration.tst_lockctltrace 10
    integration.tst_uitrace 10
    integration.tst_tracedemo 30
    integration.tst_traceinterop 15
    integration.tst_completion 30
    integration.tst_flightrecorder 28
    integration.tst_hostilepeer 28
    integration.tst_lockctlliststream 26
    integration.tst_uidemostory 25
    integration.tst_uimasternodes 22
    integration.tst_sentinelwatcher 22
    fuzz.configloader 21
    fuzz.lockformat 21
    fuzz.replydecode 21
    fuzz.redisurl 21
    fuzz.recording 21
    fuzz.monitorline 21
    integration.tst_uidemopanel 20
    integration.tst_uidemofits 30
    integration.tst_uiwalkthrough 12
    integration.tst_uicontestedhistory 10
    integration.tst_sentineltls 19
    unit.tst_uilocktablemodel 37
    integration.tst_sentinelmonitor 15
    integration.tst_clustermonitor 15
    layers.check_layers_catches_violation 15
    integration.tst_servelimits 25
    integration.tst_prometheusscrape 12
    integration.tst_prometheusinsights 25
    package.tst_package 11
    integration.tst_lockctlescaping 9
    integration.tst_lockctlserve 9
    integration.tst_lockmonitor 9
    integration.tst_diagnosis 9
    integration.tst_badinput 8
    integration.tst_uiwindowrecording 8
    integration.tst_forcerelease 8
    integration.tst_redlock 7
    integration.tst_redlocksafety 30
    integration.tst_formatinterop 6
    integration.tst_lockctlwrite 6
    integration.tst_testserverauth 6
    integration.tst_demosecurity 5
    integration.tst_clusterrouter 5
    integration.tst_uipatternmodes 5
    integration.tst_uiselection 5
    integration.tst_redlockinterop 5
    integration.tst_uisentinelwindow 4
    layers.check_layers_tree 4
    integration.tst_uisecrets 4
    integration.tst_uidetailcountdown 4
    integration.tst_masterscanner 40
    unit.tst_redisconnection_fake 3
    integration.tst_clusterredirecttrust 3)

# The tests that keep a core busy the whole time they run (a fuzzer, a copy-and-grep loop, cpack
# with lintian, the table model's randomised check; eight Redlock contender processes; a scanner
# reading 60k keys as fast as a server gives them; a lister beside a redis-cli flooding its server;
# six real lock-library processes contending for two locks)
# take two of CTest's slots, and run one at a time (below): with -j4 on two cores, one of them and two
# tests that wait share the machine. The others mostly wait on servers and timers, which is why more
# of them than there are cores can run at once.
set(lockscope_busy_tests
    fuzz.configloader fuzz.lockformat fuzz.replydecode fuzz.redisurl fuzz.recording fuzz.monitorline
    layers.check_layers_catches_violation package.tst_package unit.tst_uilocktablemodel
    integration.tst_redlocksafety integration.tst_masterscanner integration.tst_lockctlliststream
    integration.tst_incidentsoak)

# A Valkey run of a test (valkey.NAME) costs what its Redis run does, and is as busy.
foreach(name ${lockscope_valkey_tests})
    list(FIND lockscope_test_costs integration.${name} at)
    if(at GREATER_EQUAL 0)
        math(EXPR at "${at} + 1")
        list(GET lockscope_test_costs ${at} cost)
        list(APPEND lockscope_test_costs valkey.${name} ${cost})
    endif()
    if(integration.${name} IN_LIST lockscope_busy_tests)
        list(APPEND lockscope_busy_tests valkey.${name})
    endif()
endforeach()

while(lockscope_test_costs)
    list(POP_FRONT lockscope_test_costs test cost)
    if(TEST ${test}) # the sanitizer build has no fuzz or package tests
        set_tests_properties(${test} PROPERTIES COST ${cost})
    endif()
endwhile()
# The busy tests run one at a time (a lock of their own), from the start, longest first. CTest starts
# a test only when all the slots it takes are free, and with a queue of one-slot tests two rarely
# are: they all waited for the end, and ran there beside nothing but each other (under the
# sanitizers, -j3, one after another with a core idle: 215 s). Started first, one at a time, each
# runs beside tests that wait, and uses the CPU time they leave.
foreach(test ${lockscope_busy_tests})
    if(TEST ${test})
        get_test_property(${test} COST cost)
        if(NOT cost)
            set(cost 0)
        endif()
        math(EXPR cost "${cost} + 1000")
        set_tests_properties(${test} PROPERTIES PROCESSORS 2 COST ${cost} RESOURCE_LOCK lockscope_busy)
    endif()
endforeach()

# Unit tests get 120 s. The table model's filter tests judge, sort and place 200k and 60k rows a
# slice at a time, and compare with brute force: 37 s in the normal build, about four times that
# under AddressSanitizer.
if(TEST unit.tst_uilocktablemodel) # a build without the window (tests/bench/compare.sh's) has none
    set_tests_properties(unit.tst_uilocktablemodel PROPERTIES TIMEOUT 480
        ENVIRONMENT_MODIFICATION QTEST_FUNCTION_TIMEOUT=set:460000)
endif()
