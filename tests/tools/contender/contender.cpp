// SPDX-License-Identifier: Apache-2.0
// contender: takes one Redlock over and over and logs each critical section, so that a checker can
// prove that no two processes ever held it at the same time within their validity.
//
//   contender -m URL... --resource R --count N --log FILE [--ttl MS] [--hold-us US]
//             [--abandon-every K] [--deadline-ms MS]
// A URL without a password gets the one in the environment variable LOCKSCOPE_TEST_PASSWORD (the test
// servers' password: never in the arguments, which every local user can read).
//
// Log lines (CLOCK_MONOTONIC nanoseconds, which every process on the machine shares):
//   <enterNs> <exitNs> <validUntilNs> <released 0|1> <token>
// enter: the lease reached the holder, still within its validity; exit: just before the release
// went out; validUntil: the start of the winning round + ttl - drift. Every K-th section is abandoned (never
// released), as by a holder that crashed: its window then lasts until validUntil, and the next holder has to
// wait for expiry.
#include "base/monotonicclock.h"
#include "config/configloader.h"
#include "locking/redlock.h"
#include "topology/masterset.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QRandomGenerator>
#include <QTimer>

#include <cstdio>

using namespace lockscope;

namespace {

struct Options
{
    QByteArray resource;
    int count = 0;
    qint64 ttlMs = 200;
    int holdUs = 300;
    int abandonEvery = 0;
    int deadlineMs = 60000;
    QString log;
};

class Contender final : public QObject
{
public:
    Contender(const LockScopeConfig& config, Options options)
        : m_masters(config.masters), m_redlock(&m_masters, config), m_options(std::move(options)),
          m_log(m_options.log)
    {}

    bool start()
    {
        // Unbuffered: the test watches the logs grow to decide when to kill masters mid-run.
        if (!m_log.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered))
            return false;
        m_masters.open();
        m_started = monotonicNs();
        QTimer::singleShot(0, this, [this] { next(); });
        return true;
    }

    int acquired() const { return m_acquired; }
    int failedAttempts() const { return m_failed; }
    int lateLeases() const { return m_late; }

private:
    void next()
    {
        const qint64 elapsedMs = (monotonicNs() - m_started) / 1000000;
        if (m_acquired >= m_options.count || elapsedMs > m_options.deadlineMs) {
            m_log.close();
            QCoreApplication::exit(m_acquired > 0 ? 0 : 1);
            return;
        }
        m_redlock.acquire(m_options.resource, m_options.ttlMs, QString(),
                          [this](const RedlockOutcome& outcome) { onAcquired(outcome); });
    }

    void onAcquired(const RedlockOutcome& outcome)
    {
        if (!outcome.ok()) {
            ++m_failed;
            next();
            return;
        }
        // The critical section: a short, random amount of busy work.
        const qint64 holdNs = qint64(QRandomGenerator::global()->bounded(m_options.holdUs + 1)) * 1000;
        const qint64 enterNs = monotonicNs();
        // As every Redlock client must: work starts only while the lease's validity still covers
        // it. A lease that reached the holder with less left (the process stood still after the
        // quorum, as a loaded machine makes it) is given back and tried again; no section ran, so
        // none is logged.
        if (!outcome.lease.isValidAt(enterNs + holdNs)) {
            ++m_late;
            m_redlock.release(outcome.lease, [this](const RedlockOutcome&) { next(); });
            return;
        }
        ++m_acquired;
        while (monotonicNs() - enterNs < holdNs) {
        }
        const bool abandon = m_options.abandonEvery > 0 && m_acquired % m_options.abandonEvery == 0;
        const qint64 exitNs = monotonicNs();
        m_log.write(QByteArray::number(enterNs) + ' ' + QByteArray::number(exitNs) + ' ' +
                    QByteArray::number(outcome.lease.validUntilNs) + ' ' + (abandon ? '0' : '1') + ' ' +
                    outcome.lease.token + '\n');
        if (abandon) {
            next();
            return;
        }
        m_redlock.release(outcome.lease, [this](const RedlockOutcome&) { next(); });
    }

    MasterSet m_masters;
    Redlock m_redlock;
    Options m_options;
    QFile m_log;
    qint64 m_started = 0;
    int m_acquired = 0;
    int m_failed = 0;
    int m_late = 0;
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({
        {{QStringLiteral("m"), QStringLiteral("master")},
         QStringLiteral("Master URL."),
         QStringLiteral("URL")},
        {QStringLiteral("resource"), QStringLiteral("Lock name."), QStringLiteral("R")},
        {QStringLiteral("count"), QStringLiteral("Acquisitions to make."), QStringLiteral("N")},
        {QStringLiteral("log"), QStringLiteral("Critical-section log."), QStringLiteral("FILE")},
        {QStringLiteral("ttl"), QStringLiteral("TTL in ms."), QStringLiteral("MS"), QStringLiteral("200")},
        {QStringLiteral("hold-us"), QStringLiteral("Longest critical section."), QStringLiteral("US"),
         QStringLiteral("300")},
        {QStringLiteral("abandon-every"), QStringLiteral("Never release every K-th section."),
         QStringLiteral("K"), QStringLiteral("0")},
        {QStringLiteral("deadline-ms"), QStringLiteral("Stop after this long."), QStringLiteral("MS"),
         QStringLiteral("60000")},
    });
    parser.process(app);
    Options options;
    options.resource = parser.value(QStringLiteral("resource")).toUtf8();
    options.count = parser.value(QStringLiteral("count")).toInt();
    options.log = parser.value(QStringLiteral("log"));
    options.ttlMs = parser.value(QStringLiteral("ttl")).toLongLong();
    options.holdUs = parser.value(QStringLiteral("hold-us")).toInt();
    options.abandonEvery = parser.value(QStringLiteral("abandon-every")).toInt();
    options.deadlineMs = parser.value(QStringLiteral("deadline-ms")).toInt();
    if (options.resource.isEmpty() || options.count <= 0 || options.log.isEmpty() ||
        parser.values(QStringLiteral("master")).isEmpty()) {
        std::fputs("usage: contender -m URL... --resource R --count N --log FILE\n", stderr);
        return 2;
    }

    LockScopeConfig config;
    for (const QString& url : parser.values(QStringLiteral("master"))) {
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, {}, 1000);
        if (!master) {
            std::fprintf(stderr, "contender: %s\n", qPrintable(master.error().message));
            return 2;
        }
        if (master->url.password().isEmpty())
            master->url.setPassword(qEnvironmentVariable("LOCKSCOPE_TEST_PASSWORD"));
        master->healthIntervalMs = 0;
        master->reconnectInitialMs = 50;
        master->reconnectMaxMs = 500;
        config.masters << *master;
    }
    // Contention is the point: retry quickly.
    config.redlock.retryCount = 50; // then back to next(), which checks the deadline
    config.redlock.retryDelayMs = 2;
    config.redlock.retryJitterMs = 2;

    Contender contender(config, options);
    if (!contender.start()) {
        std::fprintf(stderr, "contender: cannot write %s\n", qPrintable(options.log));
        return 2;
    }
    const int rc = app.exec();
    std::printf("acquired %d, failed %d, late %d\n", contender.acquired(), contender.failedAttempts(),
                contender.lateLeases());
    return rc;
}
