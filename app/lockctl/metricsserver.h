// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lockctl/httplimits.h"
#include "lockctl/passwordthrottle.h"
#include "metrics/webconfig.h"

#include <QHostAddress>
#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

class QEventLoop;
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponse;

namespace lockctl {

class HttpListener;

// The HTTP side of `lockctl serve` on Qt HTTP Server: /metrics, the landing page, /-/healthy and
// /-/ready, with the TLS and basic authentication of --web-config on every path.
//
// Every connection passes HttpListener's guard (size, deadlines, a cap on connections) before any
// route or password check runs, and password checks are throttled (PasswordThrottle).
//
// The server has a thread of its own. The page is computed on the monitor's (main) thread, which
// owns the view, when a scrape asks for it; if that thread is busy for longer than `freshWithinMs`
// (a full pass of 500k keys on a loaded machine), the scrape gets the last page computed, with
// lockscope_metrics_age_seconds saying how old it is, instead of waiting past Prometheus's timeout.
class MetricsServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MetricsServer)

public:
    struct Pages
    {
        std::function<QByteArray()> metrics; // called on the thread that made the MetricsServer
        QString landing;                     // HTML, fixed at start
    };

    MetricsServer(lockscope::WebConfig config, Pages pages, HttpLimits limits = {}, int freshWithinMs = 750);
    ~MetricsServer() override;

    // Returns the port bound (the one given, or the system's pick for 0), or an error.
    lockscope::Result<quint16> listen(const QHostAddress& address, quint16 port);
    // The first full discovery is done: /-/ready says so, and the page to fall back on shows it.
    void setReady();

private:
    struct Page
    {
        std::mutex mutex;
        std::condition_variable rendered;
        QByteArray text;
        qint64 renderedAtMs = -1; // monotonic
        quint64 generation = 0;
        bool requested = false;
    };

    void addRoutes();
    // On the server's thread: a page computed after this call, or the last one after the wait.
    QHttpServerResponse metricsResponse();
    // On the monitor's thread.
    void renderPage();
    QHttpServerResponse guarded(const QHttpServerRequest& request,
                                const std::function<QHttpServerResponse()>& page);

    lockscope::WebConfig m_config;
    Pages m_pages;
    HttpLimits m_limits;
    int m_freshWithinMs;
    std::atomic<bool> m_ready{false};
    std::shared_ptr<Page> m_page = std::make_shared<Page>();
    std::thread m_thread;
    QEventLoop* m_loop = nullptr;       // m_thread's, while it runs
    QHttpServer* m_server = nullptr;    // lives on m_thread
    HttpListener* m_listener = nullptr; // m_server's, once listening
    PasswordThrottle m_throttle;        // m_thread's
};

} // namespace lockctl
