// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "connection/nodeaddress.h"
#include "discovery/entryscanner.h"
#include "discovery/observationsink.h"

#include <QHash>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace lockscope {

class ClusterEntry;
class MasterScanner;
class RedisConnection;

// Keeps a cluster entry's set of matching keys current: one MasterScanner per primary (started and
// stopped as the slot map's primaries come and go), reported to the monitor as one entry. A key
// lives on one primary, except for moments of a resharding (copied, then deleted) or a failover:
// - seen on two primaries, the one that owns the key's slot in the current map is believed;
// - gone from every primary that had it, the key is read again through the entry's routed
//   connection (which follows ASK and MOVED) before it is reported gone.
// A pass of the entry is finished once every primary that is up has finished one since the last,
// and no such read is outstanding.
class ClusterScanner final : public EntryScanner, private ObservationSink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterScanner)

public:
    // At most this many primaries are scanned (a bit each per key); more is reported in the mode.
    static constexpr int maxPrimaries = 64;

    ClusterScanner(int index, ClusterEntry* entry, RedisConnection* connection, MonitorSettings settings,
                   ObservationSink* sink, QObject* parent = nullptr);
    ~ClusterScanner() override;

    void start() override;
    void requestPass() override;
    void anchorEvents() override;
    void enableNotifications(std::function<void(const RedisError&)> done) override;

    bool isScanning() const override;
    qint64 knownKeys() const override;

    // Whether `key` was last read on `primary` (which keys a failover of that primary puts at risk).
    bool readFrom(const QByteArray& key, const NodeAddress& primary) const;
    // The new primary has been read through and the old one's keys checked again: a failover's
    // report can be made.
    bool hasCaughtUpWith(const NodeAddress& oldPrimary, const NodeAddress& newPrimary) const;
    QList<NodeAddress> scannedPrimaries() const;

signals:
    // One primary finished a pass, or re-reads came back: a failover's report may be due (the
    // entry's own pass waits for every primary, up to a reconciliation interval).
    void primaryPassFinished(int master);

private:
    struct Node
    {
        NodeAddress address;
        int id = -1; // bit in m_holders, and the MasterScanner's index
        std::unique_ptr<MasterScanner> scanner;
        int roundMark = 0; // the scanner's completed passes when the entry's pass began
        qint64 scanned = 0;
        qint64 total = 0;
    };

    void keyObserved(int id, const HashedKey& key, KeyObservation&& observation) override;
    void keyRemoved(int id, const HashedKey& key) override;

    void syncNodes(const QList<NodeAddress>& added, const QList<NodeAddress>& removed);
    void addNode(const NodeAddress& address);
    void removeNode(const NodeAddress& address);
    Node* node(int id) const;
    int idOf(const NodeAddress& address) const;
    int ownerId(const QByteArray& key) const;
    void reread(const QByteArray& key);
    void rereadQueued();
    void checkRound();
    void updateMode();

    ClusterEntry* m_entry;
    RedisConnection* m_connection;
    MonitorSettings m_settings;
    ObservationSink* m_sink;
    std::vector<std::unique_ptr<Node>> m_nodes;
    QHash<QByteArray, quint64> m_holders; // per key, the primaries (bits by Node::id) that have it
    QByteArrayList m_rereadQueue;
    QSet<QByteArray> m_rereadQueued;
    int m_rereadsInFlight = 0;
    QTimer m_rereadTimer;
    QString m_tooMany; // the primaries left unscanned, when more than maxPrimaries
    bool m_started = false;
    bool m_anchorEvents = false;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace lockscope
