// SPDX-License-Identifier: Apache-2.0
#include "support/sentinelchecks.h"

#include <QSignalSpy>
#include <QTest>

namespace lockscope::test {

void verifySentinelListing(const QJsonObject& entry, const QString& url, quint16 primaryPort)
{
    QCOMPARE(entry.value(QStringLiteral("url")).toString(), url);
    QCOMPARE(entry.value(QStringLiteral("up")).toBool(), true);
    QCOMPARE(entry.value(QStringLiteral("sentinel")).toBool(), true);
    QCOMPARE(entry.value(QStringLiteral("primary")).toString(),
             QStringLiteral("127.0.0.1:%1").arg(primaryPort));
    QCOMPARE(entry.value(QStringLiteral("role")).toString(), QStringLiteral("master"));
}

void expectFailoverReport(QSignalSpy& reported, const PrimaryChange& change, const QByteArray& atRisk,
                          FailoverReport* report)
{
    QTRY_COMPARE_WITH_TIMEOUT(reported.size(), 1, 60000);
    *report = reported.at(0).at(0).value<FailoverReport>();
    QCOMPARE(report->master, 0);
    QCOMPARE(report->change, change);
    QCOMPARE(report->atRisk, QList<QByteArray>{atRisk});
    QVERIFY(report->lost.isEmpty());
}

} // namespace lockscope::test
