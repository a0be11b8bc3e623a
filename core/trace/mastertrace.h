// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisconnection.h"
#include "trace/commandinterpreter.h"
#include "trace/monitorstream.h"
#include "trace/tracedcommand.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <deque>

namespace lockscope {

// The tracer on one master: a connection of its own in MONITOR mode (client name lockscope-trace),
// the lock's state read in the same pipeline just before MONITOR starts (no other client's command
// runs in between), the stream cut down to the lock (MonitorStream), each command's meaning
// (CommandInterpreter), and each connection named from CLIENT LIST, asked on a second connection.
// A command from a connection not named yet waits, with those after it, until the list is in.
class MasterTrace final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MasterTrace)

public:
    MasterTrace(int master, const ConnectionOptions& options, QByteArray lockKey, const QByteArrayList& keys,
                QObject* parent = nullptr);
    ~MasterTrace() override;

    void start();
    // Ends MONITOR (its connection closes) and hands over what waited for a name.
    void stop();

    const QString& name() const { return m_monitor.name(); }
    bool isMonitoring() const { return m_monitor.isMonitoring(); }
    const MonitorStream::Counts& counts() const { return m_stream.counts(); }

signals:
    void monitoring(int master);
    // MONITOR refused (an ACL without +monitor, the command renamed away), the master unreachable, or
    // the link lost: the trace on this master is over.
    void failed(int master, const lockscope::RedisError& error);
    void traced(const lockscope::TracedCommand& command);

private:
    struct Waiting
    {
        TracedCommand command;
        quint64 round; // the CLIENT LIST that names its connection
    };

    void onStateChanged(RedisConnection::State state, const RedisError& reason);
    void begin();
    void readState(const RedisResult& result);
    void onMonitorStarted(const RedisResult& result);
    void onCommand(const MonitorLine& command, const QList<MonitorLine>& calls);
    bool isNamed(const QByteArray& address) const;
    TraceClient clientOf(const QByteArray& address) const;
    void askClients();
    void onClients(const RedisResult& result);
    void handOver(quint64 upToRound);
    void fail(const RedisError& error);

    int m_master;
    QByteArray m_lockKey;
    RedisConnection m_monitor;
    RedisConnection m_query;
    CommandInterpreter m_interpreter;
    MonitorStream m_stream;
    QTimer m_scriptTimer; // a script's calls are complete when nothing followed it for a moment
    QHash<QByteArray, TraceClient> m_listed; // by address, from CLIENT LIST
    QSet<QByteArray> m_unlisted;             // asked about and gone before the list was made
    std::deque<Waiting> m_waiting;
    quint64 m_roundsSent = 0;
    bool m_askInFlight = false;
    bool m_askAgain = false;
    bool m_begun = false;
    bool m_over = false;
};

} // namespace lockscope
