#pragma once

#include "base/rediserror.h"
#include "discovery/notificationmode.h"

#include <QObject>

#include <functional>

namespace lockscope {

// Keeps one master entry's set of matching keys current for the monitor: a MasterScanner for a
// master (or a Sentinel group's primary), a ClusterScanner for a cluster, which runs one
// MasterScanner per primary and reports them as one.
class EntryScanner : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EntryScanner)

public:
    using QObject::QObject;

    virtual void start() = 0;
    // Starts a full pass now (or right after the running one).
    virtual void requestPass() = 0;
    // The explicit, opt-in CONFIG SET that turns on the keyspace events LockScope needs.
    virtual void enableNotifications(std::function<void(const RedisError&)> done) = 0;

    virtual int index() const = 0;
    virtual NotificationMode mode() const = 0;
    virtual const QString& modeReason() const = 0;
    virtual bool isScanning() const = 0;
    // Full passes whose every batch has reached the sink.
    virtual int completedPasses() const = 0;
    virtual qint64 knownKeys() const = 0;

signals:
    void modeChanged(int master, lockscope::NotificationMode mode, const QString& reason);
    void scanProgress(int master, qint64 scanned, qint64 total);
    void passFinished(int master);
    void keyspaceEvent(int master, const QByteArray& key, const QByteArray& event);
};

} // namespace lockscope
