// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/failoverreport.h"

#include <QJsonObject>
#include <QString>

class QSignalSpy;

namespace lockscope::test {

// That `entry`, one of the "masters" of `lockctl --json list`, is the Sentinel entry `url` (as
// printed: without its password), up, its primary at 127.0.0.1:`primaryPort` answering as a master.
void verifySentinelListing(const QJsonObject& entry, const QString& url, quint16 primaryPort);

// The one report that `reported` (a spy on LockMonitor::failoverReported) receives within a minute,
// into `report`: master 0's, for `change`, with `atRisk` the one lock at risk and nothing lost.
// QVERIFY inside: the caller checks QTest::currentTestFailed() afterwards.
void expectFailoverReport(QSignalSpy& reported, const PrimaryChange& change, const QByteArray& atRisk,
                          FailoverReport* report);

} // namespace lockscope::test
