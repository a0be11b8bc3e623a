// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/localserverprocess.h"
#include "connection/redisreply.h"

#include <QByteArrayList>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace lockscope::test {

struct SentinelMonitor
{
    QString masterName = QStringLiteral("mymaster");
    quint16 primaryPort = 0; // on 127.0.0.1
    int quorum = 2;
    int downAfterMs = 1000;
    int failoverTimeoutMs = 3000;
    QString authPass; // the data nodes' requirepass, if any
    // The sentinel's own requirepass, which it also gives the other sentinels (sentinel-pass);
    // empty: none.
    QString password;
    // TLS only (no plain port), to clients and to the data nodes and the other sentinels
    // (tls-replication), with TlsMaterial's server certificate.
    bool tls = false;
    bool requireClientCert = false;
};

// One real redis-server in sentinel mode on a free loopback port, with its own writable config file
// in a temporary directory. Killed by pid when this object goes (also when a test fails half-way)
// and, through PR_SET_PDEATHSIG, when the test process itself dies.
class SentinelProcess
{
public:
    explicit SentinelProcess(SentinelMonitor monitor);
    ~SentinelProcess();
    SentinelProcess(const SentinelProcess&) = delete;
    SentinelProcess& operator=(const SentinelProcess&) = delete;

    bool start();
    void stop(); // SIGKILL and reap
    void pause();
    void resume();
    bool isRunning() const;
    const QString& errorString() const { return m_error; }
    qint64 pid() const;
    // The arguments the running process was started with (what `ps` shows until it sets its title).
    QStringList arguments() const;
    quint16 port() const { return m_port; }
    // sentinel.conf (0600, in its own directory): it holds the passwords.
    QString configPath() const;

    // A blocking command for test set-up and checks (SENTINEL FAILOVER, SENTINEL SENTINELS ...).
    RedisReply command(const QByteArrayList& argv) const;

private:
    bool launch();

    SentinelMonitor m_monitor;
    QTemporaryDir m_dir;
    LocalServerProcess m_process;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace lockscope::test
