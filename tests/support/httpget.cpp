// SPDX-License-Identifier: Apache-2.0
#include "support/httpget.h"

#include "support/timebound.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>

namespace lockscope::test {

HttpReply httpGet(const QUrl& url, const QList<QPair<QByteArray, QByteArray>>& headers,
                  const QSslConfiguration& ssl, int timeoutMs)
{
    // A TLS handshake in a sanitizer build on a loaded machine takes seconds: the bound grows with
    // the load, as the tests' other waits do.
    timeoutMs = int(upperBoundMs(timeoutMs));
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    request.setSslConfiguration(ssl);
    request.setTransferTimeout(timeoutMs);
    for (const auto& [name, value] : headers)
        request.setRawHeader(name, value);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    HttpReply out;
    if (!reply->isFinished() && !finished.wait(timeoutMs + 1000)) {
        out.error = QStringLiteral("no answer within %1 ms").arg(timeoutMs);
        return out;
    }
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    out.contentType = reply->rawHeader("Content-Type");
    out.wwwAuthenticate = reply->rawHeader("WWW-Authenticate");
    if (reply->error() != QNetworkReply::NoError)
        out.error = reply->errorString();
    return out;
}

} // namespace lockscope::test
