// SPDX-License-Identifier: Apache-2.0
#pragma once

// For the demo's own tests only (they link lockscope_demo): header-only, so that the support library
// itself never needs the demo.
#include "demo/democluster.h"
#include "demo/democonfig.h"
#include "demo/demolab.h"
#include "demo/demoscenariorunner.h"

#include <QTest>

#include <memory>

namespace lockscope::test {

// The scenarios' pauses for a watching person (DemoScenarioRunner::setWatchTimeScale) in the tests:
// a third of the window's. The minority scenario still counts acquisitions over 3 s and the majority
// one failures over 1.6 s, several of each; the waits the outcomes depend on are not scaled.
inline constexpr double demoWatchTimeScale = 0.3;

// Five real demo masters, the demo configuration for them and the lab (simulation, scenarios) on
// them, not yet started: what a demo scenario test starts from. QVERIFY inside: the caller checks
// QTest::currentTestFailed() afterwards.
inline void startDemoLab(std::unique_ptr<DemoCluster>* cluster, std::unique_ptr<DemoLab>* lab,
                         LockScopeConfig* config)
{
    *cluster = std::make_unique<DemoCluster>();
    const Result<QStringList> urls = (*cluster)->start(5);
    QVERIFY2(urls.ok(), qPrintable(urls.ok() ? QString() : urls.error().message));
    const Result<LockScopeConfig> demo = demoConfig(*urls);
    QVERIFY(demo.ok());
    *config = *demo;
    *lab = std::make_unique<DemoLab>(cluster->get());
    (*lab)->scenarios()->setWatchTimeScale(demoWatchTimeScale);
}

} // namespace lockscope::test
