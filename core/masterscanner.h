#pragma once

#include "lockscopeconfig.h"
#include "notificationmode.h"
#include "redisconnection.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

namespace lockscope {

class ObservationSink;

// Keeps one master's set of matching keys current: SCAN passes (pipelined: the next page is asked
// for while the current one is read), keyspace events on a dedicated subscriber connection when
// the server publishes them, and periodic reconciliation. Only keys matching the patterns are ever
// held in memory.
class MasterScanner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MasterScanner)

public:
    MasterScanner(int index, RedisConnection* connection, MonitorSettings settings, ObservationSink* sink,
                  QObject* parent = nullptr);
    ~MasterScanner() override;

    void start();
    // Starts a full pass now (or right after the running one).
    void requestPass();
    // The explicit, opt-in CONFIG SET that turns on the keyspace events LockScope needs.
    void enableNotifications(std::function<void(const RedisError&)> done);

    int index() const { return m_index; }
    NotificationMode mode() const { return m_mode; }
    const QString& modeReason() const { return m_modeReason; }
    bool isScanning() const { return m_scanning; }
    int completedPasses() const { return m_completedPasses; }
    qint64 knownKeys() const { return m_knownCount; }

signals:
    void modeChanged(int master, lockscope::NotificationMode mode, const QString& reason);
    void scanProgress(int master, qint64 scanned, qint64 total);
    void passFinished(int master);
    void keyspaceEvent(int master, const QByteArray& key, const QByteArray& event);

private:
    void onStateChanged(RedisConnection::State state);
    void detectMode();
    void setMode(NotificationMode mode, const QString& reason);
    void startSubscriber();
    void stopSubscriber();
    void beginPass();
    void scanPage(int pattern, const QByteArray& cursor);
    void readKeys(const QByteArrayList& keys, bool fromPass);
    void maybeFinishPass();
    void onEvent(const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload);
    void flushEventReads();
    void schedulePass();

    int m_index;
    RedisConnection* m_connection;
    MonitorSettings m_settings;
    ObservationSink* m_sink;
    std::unique_ptr<RedisConnection> m_subscriber;
    NotificationMode m_mode = NotificationMode::Unknown;
    QString m_modeReason;
    QByteArray m_eventPrefix; // "__keyspace@<db>__:"

    struct KeyMark
    {
        quint32 metInPass = 0; // the last pass that met it (SCAN or event); passes count from 1
        bool known = false;    // present on this master, as last read
    };
    // Keys known or met by the running pass, in one table: a key costs one entry and one lookup
    // per step, not one in a "known" and one in a "seen" set. Unknown keys leave at the pass end.
    QHash<QByteArray, KeyMark> m_keys;
    qint64 m_knownCount = 0;
    bool m_scanning = false;
    bool m_passRequested = false;
    bool m_scansDone = false;
    int m_readsInFlight = 0;
    quint32 m_pass = 0; // 32 bits keep a key's mark at 8 bytes; a pass every second wraps after 136 years
    int m_completedPasses = 0;
    qint64 m_dbSize = 0;

    QSet<QByteArray> m_eventKeys;
    QTimer m_eventTimer;
    QTimer m_passTimer;
};

} // namespace lockscope
