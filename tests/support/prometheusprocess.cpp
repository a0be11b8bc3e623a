// SPDX-License-Identifier: Apache-2.0
#include "support/prometheusprocess.h"

#include "support/httpget.h"
#include "support/promtool.h"
#include "support/redisserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <csignal>
#include <sys/prctl.h>

namespace lockscope::test {

PrometheusProcess::~PrometheusProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

bool PrometheusProcess::start(const QString& target, const QByteArray& rules, int intervalMs)
{
    if (prometheusPath().isEmpty()) {
        m_error = QStringLiteral("prometheus is not installed (Debian package prometheus)");
        return false;
    }
    QFile rulesFile(m_dir.filePath(QStringLiteral("rules.yml")));
    QFile config(m_dir.filePath(QStringLiteral("prometheus.yml")));
    if (!rulesFile.open(QIODevice::WriteOnly) || rulesFile.write(rules) != rules.size() ||
        !config.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write the Prometheus configuration in %1").arg(m_dir.path());
        return false;
    }
    rulesFile.close();
    const QByteArray interval = QByteArray::number(intervalMs) + "ms";
    config.write("global:\n  scrape_interval: " + interval + "\n  evaluation_interval: " + interval +
                 "\n  scrape_timeout: " + interval + "\nrule_files:\n  - " + rulesFile.fileName().toUtf8() +
                 "\nscrape_configs:\n  - job_name: lockscope\n    static_configs:\n      - targets: ['" +
                 target.toUtf8() + "']\n");
    config.close();
    for (int attempt = 0; attempt < 3; ++attempt) {
        const quint16 port = freeLoopbackPort();
        m_base = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process.start(prometheusPath(),
                        {QStringLiteral("--config.file=") + config.fileName(),
                         QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                         QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port),
                         QStringLiteral("--web.console.templates=") + m_dir.path(),
                         QStringLiteral("--web.console.libraries=") + m_dir.path(),
                         QStringLiteral("--log.level=warn")});
        const QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired() && m_process.state() != QProcess::NotRunning) {
            if (httpGet(m_base.resolved(QUrl(QStringLiteral("/-/ready"))), {},
                        QSslConfiguration::defaultConfiguration(), 1000)
                    .status == 200)
                return true;
            m_process.waitForFinished(200);
        }
        m_log += m_process.readAll();
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    m_error = QStringLiteral("prometheus did not become ready: %1").arg(QString::fromUtf8(m_log.right(2000)));
    return false;
}

QByteArray PrometheusProcess::log()
{
    m_log += m_process.readAll();
    return m_log;
}

QJsonObject PrometheusProcess::api(const QString& path, const QString& query)
{
    QUrl url = m_base.resolved(QUrl(path));
    if (!query.isEmpty()) {
        // Percent-encoded whole: PromQL has '+', '&', '=' and braces.
        url.setQuery(QStringLiteral("query=") + QString::fromLatin1(QUrl::toPercentEncoding(query)),
                     QUrl::StrictMode);
    }
    const HttpReply reply = httpGet(url);
    const QJsonObject o = QJsonDocument::fromJson(reply.body).object();
    if (reply.status != 200 || o.value(QStringLiteral("status")).toString() != QStringLiteral("success"))
        qWarning("Prometheus %s: %d %s %s", qPrintable(path), reply.status, qPrintable(reply.error),
                 reply.body.left(500).constData());
    return o.value(QStringLiteral("data")).toObject();
}

QJsonArray PrometheusProcess::query(const QString& expr)
{
    return api(QStringLiteral("/api/v1/query"), expr).value(QStringLiteral("result")).toArray();
}

QJsonArray PrometheusProcess::samples(const QString& selector, int seconds)
{
    const QJsonArray result = query(QStringLiteral("%1[%2s]").arg(selector).arg(seconds));
    return result.isEmpty() ? QJsonArray()
                            : result.at(0).toObject().value(QStringLiteral("values")).toArray();
}

QJsonArray PrometheusProcess::alerts()
{
    return api(QStringLiteral("/api/v1/alerts")).value(QStringLiteral("alerts")).toArray();
}

} // namespace lockscope::test
