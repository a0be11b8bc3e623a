// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QSslConfiguration>
#include <QUrl>

namespace lockscope::test {

// One HTTP(S) GET through QNetworkAccessManager, waited for on this thread's event loop.
struct HttpReply
{
    int status = 0; // 0: no HTTP answer (refused, TLS failure, timeout)
    QByteArray body;
    QByteArray contentType;
    QByteArray wwwAuthenticate;
    QString error;
};
HttpReply httpGet(const QUrl& url, const QList<QPair<QByteArray, QByteArray>>& headers = {},
                  const QSslConfiguration& ssl = QSslConfiguration::defaultConfiguration(),
                  int timeoutMs = 10000);

} // namespace lockscope::test
