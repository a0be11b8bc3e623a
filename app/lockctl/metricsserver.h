#pragma once

#include "metrics/webconfig.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QString>

#include <functional>

namespace lockctl {

// The HTTP side of `lockctl serve` on Qt HTTP Server: /metrics, the landing page, /-/healthy and
// /-/ready, with the TLS and basic authentication of --web-config on every path.
class MetricsServer
{
public:
    struct Pages
    {
        std::function<QByteArray()> metrics;
        std::function<QString()> landing; // HTML
        std::function<bool()> ready;
    };

    MetricsServer(lockscope::WebConfig config, Pages pages);

    // Returns the port bound (the one given, or the system's pick for 0), or an error message.
    lockscope::Result<quint16> listen(const QHostAddress& address, quint16 port);
    bool tls() const { return m_config.tls(); }

private:
    bool authorized(const QHttpServerRequest& request) const;
    QHttpServerResponse guarded(const QHttpServerRequest& request,
                                const std::function<QHttpServerResponse()>& page) const;

    lockscope::WebConfig m_config;
    Pages m_pages;
    QHttpServer m_server;
};

} // namespace lockctl
