#pragma once

// For the demo's own tests only (they link lockscope_demo): header-only, so that the support library
// itself never needs the demo.
#include "democluster.h"
#include "democonfig.h"
#include "demolab.h"

#include <QTest>

#include <memory>

namespace lockscope::test {

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
}

} // namespace lockscope::test
