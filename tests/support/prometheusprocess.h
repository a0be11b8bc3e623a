// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>

namespace lockscope::test {

// A real Prometheus server (Debian's prometheus package) on a free loopback port, with its storage
// in a temporary directory of its own, scraping one target and evaluating `rules` (a rule file's
// text), both every `intervalMs`. Killed (by its pid, and when the test process dies) when this
// object goes.
class PrometheusProcess
{
public:
    PrometheusProcess() = default;
    ~PrometheusProcess();
    PrometheusProcess(const PrometheusProcess&) = delete;
    PrometheusProcess& operator=(const PrometheusProcess&) = delete;

    // `target`: "127.0.0.1:PORT" of the /metrics endpoint. Returns once Prometheus says it is ready.
    bool start(const QString& target, const QByteArray& rules, int intervalMs = 1000);
    const QString& errorString() const { return m_error; }
    QByteArray log();

    // GET /api/v1/query: the result vector (empty on any error, with a warning).
    QJsonArray query(const QString& expr);
    // GET /api/v1/query_range-like: the samples [[time, "value"], ...] of the one series `selector`
    // selects over the last `seconds` (an instant query of a range vector).
    QJsonArray samples(const QString& selector, int seconds);
    // GET /api/v1/alerts: the active (pending and firing) alerts.
    QJsonArray alerts();

private:
    QJsonObject api(const QString& path, const QString& query = {});

    QTemporaryDir m_dir;
    QProcess m_process;
    QUrl m_base;
    QString m_error;
    QByteArray m_log;
};

} // namespace lockscope::test
