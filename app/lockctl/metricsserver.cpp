#include "metricsserver.h"

#include "metrics/metricsrenderer.h"

#include <QSslConfiguration>

using namespace lockscope;

namespace lockctl {

MetricsServer::MetricsServer(WebConfig config, Pages pages) : m_config(std::move(config)), m_pages(std::move(pages))
{
    using Method = QHttpServerRequest::Method;
    m_server.route(QStringLiteral("/metrics"), Method::Get, [this](const QHttpServerRequest& r) {
        return guarded(r, [this] { return QHttpServerResponse(MetricsRenderer::contentType(), m_pages.metrics()); });
    });
    m_server.route(QStringLiteral("/"), Method::Get, [this](const QHttpServerRequest& r) {
        return guarded(r, [this] {
            return QHttpServerResponse(QByteArrayLiteral("text/html; charset=utf-8"), m_pages.landing().toUtf8());
        });
    });
    m_server.route(QStringLiteral("/-/healthy"), Method::Get, [this](const QHttpServerRequest& r) {
        return guarded(r, [] { return QHttpServerResponse(QByteArrayLiteral("text/plain"), "LockScope is Healthy.\n"); });
    });
    m_server.route(QStringLiteral("/-/ready"), Method::Get, [this](const QHttpServerRequest& r) {
        return guarded(r, [this] {
            return m_pages.ready()
                       ? QHttpServerResponse(QByteArrayLiteral("text/plain"), "LockScope is Ready.\n")
                       : QHttpServerResponse(QByteArrayLiteral("text/plain"),
                                             "LockScope is not ready: the first discovery is under way.\n",
                                             QHttpServerResponse::StatusCode::ServiceUnavailable);
        });
    });
}

Result<quint16> MetricsServer::listen(const QHostAddress& address, quint16 port)
{
    if (m_config.tls()) {
        const auto chain = m_config.certificates();
        if (!chain)
            return chain.error();
        const auto key = m_config.privateKey();
        if (!key)
            return key.error();
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.setLocalCertificateChain(*chain);
        ssl.setPrivateKey(*key);
        ssl.setPeerVerifyMode(QSslSocket::VerifyNone); // no client certificates
        m_server.sslSetup(ssl);
    }
    const quint16 bound = m_server.listen(address, port);
    if (bound == 0)
        return RedisError(ErrorKind::Io, QString(),
                          QStringLiteral("cannot listen on %1 port %2").arg(address.toString()).arg(port));
    return bound;
}

bool MetricsServer::authorized(const QHttpServerRequest& request) const
{
    if (!m_config.requiresAuth())
        return true;
    for (const auto& [name, value] : request.headers())
        if (name.compare("authorization", Qt::CaseInsensitive) == 0)
            return m_config.authorize(value);
    return false;
}

QHttpServerResponse MetricsServer::guarded(const QHttpServerRequest& request,
                                           const std::function<QHttpServerResponse()>& page) const
{
    if (authorized(request))
        return page();
    QHttpServerResponse denied(QByteArrayLiteral("text/plain"), "Unauthorized\n",
                               QHttpServerResponse::StatusCode::Unauthorized);
    denied.addHeader(QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Basic realm=\"lockscope\""));
    return denied;
}

} // namespace lockctl
