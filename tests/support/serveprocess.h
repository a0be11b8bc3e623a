// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/lockctlprocess.h"

#include <QStringList>
#include <QUrl>

namespace lockscope::test {

// `lockctl serve --listen 127.0.0.1:0 <args>` in the background (a LockctlProcess). start() waits
// for the line that names the port the system picked, so that no test guesses a free port.
class ServeProcess
{
public:
    bool start(const QStringList& args, int timeoutMs = 20000);
    // The /metrics URL lockctl printed ("http://127.0.0.1:PORT/metrics"), its path swapped for `path`.
    QUrl url(const QString& path = QStringLiteral("/metrics")) const;
    quint16 port() const { return quint16(m_url.port()); }
    bool isRunning() const { return m_process.isRunning(); }
    // Its resident memory now in KiB (VmRSS), 0 once it has ended.
    qint64 rssKiB() const { return m_process.rssKiB(); }
    // SIGTERM, then the exit code (-1 when it did not exit within `timeoutMs` or crashed).
    int stop(int timeoutMs = 10000) { return m_process.terminate(timeoutMs); }
    QString errorString() const { return m_error; }
    // What it printed so far, both streams.
    QByteArray log() { return m_process.out() + m_process.err(); }

private:
    LockctlProcess m_process;
    QUrl m_url;
    QString m_error;
};

} // namespace lockscope::test
