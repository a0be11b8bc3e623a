// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"

#include <QTest>

namespace lockscope::test {

// What a test expects of one incident: what it is, how sure, whose tokens (the first holder's, the
// second's), and its interval (toMs -1: not checked). The incident tests of the detector, the
// fencing watch and the tracer's evidence state theirs in one line.
struct ExpectedIncident
{
    SafetyIncident::Kind kind;
    SafetyIncident::Confidence confidence;
    QByteArray firstToken;
    QByteArray secondToken;
    qint64 fromMs;
    qint64 toMs = -1;
};

// QCOMPAREs inside: the caller returns on QTest::currentTestFailed() when it goes on reading.
inline void verifyIncident(const SafetyIncident& actual, const ExpectedIncident& expected)
{
    QCOMPARE(actual.kind, expected.kind);
    QCOMPARE(actual.confidence, expected.confidence);
    QCOMPARE(actual.firstToken, expected.firstToken);
    QCOMPARE(actual.secondToken, expected.secondToken);
    QCOMPARE(actual.fromMs, expected.fromMs);
    if (expected.toMs >= 0)
        QCOMPARE(actual.toMs, expected.toMs);
}

} // namespace lockscope::test
