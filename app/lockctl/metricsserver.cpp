// SPDX-License-Identifier: Apache-2.0
#include "lockctl/metricsserver.h"

#include "base/monotonicclock.h"
#include "lockctl/httplistener.h"
#include "metrics/metricsrenderer.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QHttpServer>
#include <QSslConfiguration>

#include <future>

#include <pthread.h>

using namespace lockscope;

namespace lockctl {

MetricsServer::MetricsServer(WebConfig config, Pages pages, HttpLimits limits, int freshWithinMs)
    : m_config(std::move(config)), m_pages(std::move(pages)), m_limits(limits), m_freshWithinMs(freshWithinMs)
{
    std::promise<void> started;
    m_thread = std::thread([this, &started] {
        pthread_setname_np(pthread_self(), "lockscope-http");
        QEventLoop loop;
        m_loop = &loop;
        m_server = new QHttpServer;
        addRoutes();
        started.set_value();
        loop.exec();
        delete m_server;
        // Connections that ended last are deleted later: now, while their thread still runs.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    });
    started.get_future().wait();
}

MetricsServer::~MetricsServer()
{
    QMetaObject::invokeMethod(m_loop, &QEventLoop::quit, Qt::QueuedConnection);
    // Joined, not just waited for: a QThread reports itself finished before its thread has ended,
    // and the TLS library frees a thread's state only then; a process exiting in that gap (lockctl
    // serve right after SIGTERM) left that state behind, which the leak checker reported.
    m_thread.join();
}

void MetricsServer::addRoutes()
{
    using Method = QHttpServerRequest::Method;
    const auto text = [](const char* body,
                         QHttpServerResponse::StatusCode status = QHttpServerResponse::StatusCode::Ok) {
        return QHttpServerResponse(QByteArrayLiteral("text/plain; charset=utf-8"), QByteArray(body), status);
    };
    m_server->route(QStringLiteral("/metrics"), Method::Get, [this](const QHttpServerRequest& r) {
        return guarded(r, [this] { return metricsResponse(); });
    });
    m_server->route(QStringLiteral("/"), Method::Get, [this](const QHttpServerRequest& r) {
        return guarded(r, [this] {
            return QHttpServerResponse(QByteArrayLiteral("text/html; charset=utf-8"),
                                       m_pages.landing.toUtf8());
        });
    });
    m_server->route(QStringLiteral("/-/healthy"), Method::Get, [this, text](const QHttpServerRequest& r) {
        return guarded(r, [text] { return text("LockScope is Healthy.\n"); });
    });
    m_server->route(QStringLiteral("/-/ready"), Method::Get, [this, text](const QHttpServerRequest& r) {
        return guarded(r, [this, text] {
            return m_ready ? text("LockScope is Ready.\n")
                           : text("LockScope is not ready: the first discovery is under way.\n",
                                  QHttpServerResponse::StatusCode::ServiceUnavailable);
        });
    });
}

QHttpServerResponse MetricsServer::metricsResponse()
{
    std::unique_lock lock(m_page->mutex);
    const quint64 wanted = m_page->generation + 1;
    if (!m_page->requested) {
        m_page->requested = true;
        QMetaObject::invokeMethod(this, &MetricsServer::renderPage, Qt::QueuedConnection);
    }
    m_page->rendered.wait_for(lock, std::chrono::milliseconds(m_freshWithinMs),
                              [&] { return m_page->generation >= wanted; });
    const double age =
        m_page->generation >= wanted ? 0.0 : double(monotonicMs() - m_page->renderedAtMs) / 1000;
    HttpGuardCounts counts = m_listener->counts();
    counts.passwordChecksThrottled = m_throttle.throttled();
    return QHttpServerResponse(MetricsRenderer::contentType(), m_page->text +
                                                                   MetricsRenderer::httpGuard(counts) +
                                                                   MetricsRenderer::pageAge(age));
}

void MetricsServer::setReady()
{
    renderPage();
    m_ready = true;
}

void MetricsServer::renderPage()
{
    QByteArray text = m_pages.metrics();
    const std::lock_guard lock(m_page->mutex);
    m_page->text = std::move(text);
    m_page->renderedAtMs = monotonicMs();
    ++m_page->generation;
    m_page->requested = false;
    m_page->rendered.notify_all();
}

Result<quint16> MetricsServer::listen(const QHostAddress& address, quint16 port)
{
    std::optional<QSslConfiguration> tls;
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
        tls = ssl;
    }
    // The listening socket belongs to the server's thread: made there. Not QHttpServer::listen():
    // the guard in front of it needs to accept the connections itself (HttpListener).
    quint16 bound = 0;
    QMetaObject::invokeMethod(
        m_server,
        [&] {
            auto listener = std::make_unique<HttpListener>(m_limits, tls);
            if (!listener->listen(address, port))
                return;
            bound = listener->serverPort();
            m_listener = listener.release();
            m_server->bind(m_listener); // m_server owns it now
        },
        Qt::BlockingQueuedConnection);
    if (bound == 0)
        return RedisError(ErrorKind::Io, QString(),
                          QStringLiteral("cannot listen on %1 port %2").arg(address.toString()).arg(port));
    // There is always a page to fall back on, even when the first scrape finds the monitor busy.
    renderPage();
    return bound;
}

QHttpServerResponse MetricsServer::guarded(const QHttpServerRequest& request,
                                           const std::function<QHttpServerResponse()>& page)
{
    if (!m_config.requiresAuth())
        return page();
    QByteArray authorization;
    for (const auto& [name, value] : request.headers())
        if (name.compare("authorization", Qt::CaseInsensitive) == 0)
            authorization = value;
    // Credentials that passed before cost no bcrypt, and so no turn: a scrape is never throttled.
    if (!authorization.isEmpty() && m_config.remembered(authorization))
        return page();
    if (!authorization.isEmpty() && !m_throttle.admit(request.remoteAddress(), monotonicMs())) {
        QHttpServerResponse busy(QByteArrayLiteral("text/plain; charset=utf-8"),
                                 QByteArrayLiteral("Too many password checks, try again later\n"),
                                 QHttpServerResponse::StatusCode::TooManyRequests);
        busy.addHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
        return busy;
    }
    if (!authorization.isEmpty() && m_config.authorize(authorization))
        return page();
    QHttpServerResponse denied(QByteArrayLiteral("text/plain; charset=utf-8"),
                               QByteArrayLiteral("Unauthorized\n"),
                               QHttpServerResponse::StatusCode::Unauthorized);
    denied.addHeader(QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Basic realm=\"lockscope\""));
    return denied;
}

} // namespace lockctl
