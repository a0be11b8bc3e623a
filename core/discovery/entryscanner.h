// SPDX-License-Identifier: Apache-2.0
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
    EntryScanner(int index, QObject* parent) : QObject(parent), m_index(index) {}

    virtual void start() = 0;
    // Starts a full pass now (or right after the running one).
    virtual void requestPass() = 0;
    // The explicit, opt-in CONFIG SET that turns on the keyspace events LockScope needs.
    virtual void enableNotifications(std::function<void(const RedisError&)> done) = 0;
    // From now on keyspace events carry a moment before the server ran them (KeyspaceSubscriber::
    // anchor): a recorder asks, for the deletes it keeps (RecordEvent::Kind::DeletedAfter).
    virtual void anchorEvents() = 0;

    int index() const { return m_index; }
    NotificationMode mode() const { return m_mode; }
    const QString& modeReason() const { return m_modeReason; }
    virtual bool isScanning() const = 0;
    // Full passes whose every batch has reached the sink.
    int completedPasses() const { return m_completedPasses; }
    virtual qint64 knownKeys() const = 0;

signals:
    void modeChanged(int master, lockscope::NotificationMode mode, const QString& reason);
    void scanProgress(int master, qint64 scanned, qint64 total);
    void passFinished(int master);
    // `ranAfterMs`: the server ran the command after this (wall clock; -1: not known).
    void keyspaceEvent(int master, const QByteArray& key, const QByteArray& event, qint64 ranAfterMs);
    // Events that arrived and were not reported one by one (KeyspaceEventThrottle).
    void keyspaceEventsSkipped(int master, qint64 count);

protected:
    // Sets the mode and tells modeChanged, unless neither it nor its reason changed.
    void setMode(NotificationMode mode, const QString& reason)
    {
        if (m_mode == mode && m_modeReason == reason)
            return;
        m_mode = mode;
        m_modeReason = reason;
        emit modeChanged(m_index, mode, reason);
    }

    const int m_index; // the master entry's index in the monitor's list
    int m_completedPasses = 0;

private:
    NotificationMode m_mode = NotificationMode::Unknown;
    QString m_modeReason;
};

} // namespace lockscope
