#pragma once

#include "base/rediserror.h"

#include <QTest>

namespace lockscope::test {

// That `Url::parse(text)` (RedisUrl, TopologyUrl) refuses `text` as an invalid URL whose message
// mentions `mentions`: the contract every URL parser's rejectsInvalid test checks.
template <typename Url> void verifyRejected(const QString& text, const QString& mentions)
{
    const auto url = Url::parse(text);
    QVERIFY(!url.ok());
    QCOMPARE(url.error().kind, ErrorKind::InvalidUrl);
    QVERIFY2(url.error().message.contains(mentions), qPrintable(url.error().message));
}

} // namespace lockscope::test
