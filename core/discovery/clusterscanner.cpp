// SPDX-License-Identifier: Apache-2.0
#include "discovery/clusterscanner.h"

#include "connection/redisconnection.h"
#include "discovery/keyreader.h"
#include "discovery/masterscanner.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"

#include <bit>

namespace lockscope {

namespace {

constexpr quint64 bit(int id)
{
    return quint64(1) << id;
}

} // namespace

ClusterScanner::ClusterScanner(int index, ClusterEntry* entry, RedisConnection* connection,
                               MonitorSettings settings, ObservationSink* sink, QObject* parent)
    : EntryScanner(index, parent), m_entry(entry), m_connection(connection), m_settings(std::move(settings)),
      m_sink(sink)
{
    m_rereadTimer.setSingleShot(true);
    m_rereadTimer.setInterval(0);
    connect(&m_rereadTimer, &QTimer::timeout, this, &ClusterScanner::rereadQueued);
    connect(m_entry, &ClusterEntry::primariesChanged, this, &ClusterScanner::syncNodes);
    // A primary that goes down or comes up changes which ones a pass waits for, and the mode.
    connect(m_entry, &ClusterEntry::nodesChanged, this, [this] {
        updateMode();
        checkRound();
    });
    syncNodes(m_entry->primaries(), {});
}

ClusterScanner::~ClusterScanner()
{
    *m_alive = false;
    m_nodes.clear(); // each scanner's worker stops before its connection can go
}

void ClusterScanner::start()
{
    m_started = true;
    for (const auto& n : m_nodes)
        n->scanner->start();
}

void ClusterScanner::anchorEvents()
{
    m_anchorEvents = true;
    for (const auto& n : m_nodes)
        n->scanner->anchorEvents();
}

void ClusterScanner::requestPass()
{
    for (const auto& n : m_nodes)
        n->scanner->requestPass();
}

void ClusterScanner::enableNotifications(std::function<void(const RedisError&)> done)
{
    if (m_nodes.empty()) {
        done(RedisError(ErrorKind::NotConnected, m_connection->name(),
                        QStringLiteral("no primary known yet")));
        return;
    }
    // Notifications are per node: every primary gets the CONFIG SET, and the first error is the answer.
    struct Pending
    {
        int left = 0;
        RedisError first;
        std::function<void(const RedisError&)> done;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = int(m_nodes.size());
    pending->done = std::move(done);
    for (const auto& n : m_nodes)
        n->scanner->enableNotifications([pending](const RedisError& error) {
            if (error.isError() && !pending->first.isError())
                pending->first = error;
            if (--pending->left == 0)
                pending->done(pending->first);
        });
}

bool ClusterScanner::isScanning() const
{
    for (const auto& n : m_nodes)
        if (n->scanner->isScanning())
            return true;
    return false;
}

qint64 ClusterScanner::knownKeys() const
{
    qint64 known = 0;
    for (const auto& n : m_nodes)
        known += n->scanner->knownKeys();
    return known;
}

bool ClusterScanner::readFrom(const QByteArray& key, const NodeAddress& primary) const
{
    const int id = idOf(primary);
    return id >= 0 && (m_holders.value(key) & bit(id)) != 0;
}

bool ClusterScanner::hasCaughtUpWith(const NodeAddress& oldPrimary, const NodeAddress& newPrimary) const
{
    if (idOf(oldPrimary) >= 0 || m_rereadsInFlight > 0 || !m_rereadQueue.isEmpty())
        return false;
    const Node* n = node(idOf(newPrimary));
    return n && n->scanner->completedPasses() > 0;
}

QList<NodeAddress> ClusterScanner::scannedPrimaries() const
{
    QList<NodeAddress> out;
    for (const auto& n : m_nodes)
        out << n->address;
    return out;
}

ClusterScanner::Node* ClusterScanner::node(int id) const
{
    for (const auto& n : m_nodes)
        if (n->id == id)
            return n.get();
    return nullptr;
}

int ClusterScanner::idOf(const NodeAddress& address) const
{
    for (const auto& n : m_nodes)
        if (n->address == address)
            return n->id;
    return -1;
}

int ClusterScanner::ownerId(const QByteArray& key) const
{
    return idOf(m_entry->topology()->slotMap().primaryFor(ClusterKeySlot::of(key)));
}

void ClusterScanner::syncNodes(const QList<NodeAddress>& added, const QList<NodeAddress>& removed)
{
    for (const NodeAddress& address : removed)
        removeNode(address);
    for (const NodeAddress& address : added)
        addNode(address);
    updateMode();
    checkRound();
}

void ClusterScanner::addNode(const NodeAddress& address)
{
    RedisConnection* connection = m_entry->nodeConnection(address);
    if (!connection || idOf(address) >= 0)
        return;
    quint64 used = 0;
    for (const auto& n : m_nodes)
        used |= bit(n->id);
    if (used == ~quint64(0)) {
        m_tooMany = QStringLiteral("more than %1 primaries: %2 is not scanned")
                        .arg(maxPrimaries)
                        .arg(address.toString());
        return;
    }
    auto n = std::make_unique<Node>();
    n->address = address;
    n->id = std::countr_one(used);
    ObservationSink* sink = this; // the base is private: converted here, where it is accessible
    n->scanner = std::make_unique<MasterScanner>(n->id, connection, m_settings, sink);
    MasterScanner* scanner = n->scanner.get();
    connect(scanner, &MasterScanner::modeChanged, this, &ClusterScanner::updateMode);
    connect(scanner, &MasterScanner::scanProgress, this, [this](int id, qint64 scanned, qint64 total) {
        if (Node* changed = node(id)) {
            changed->scanned = scanned;
            changed->total = total;
        }
        qint64 allScanned = 0, allTotal = 0;
        for (const auto& each : m_nodes) {
            allScanned += each->scanned;
            allTotal += each->total;
        }
        emit scanProgress(m_index, allScanned, allTotal);
    });
    connect(scanner, &MasterScanner::passFinished, this, [this] {
        checkRound();
        emit primaryPassFinished(m_index);
    });
    connect(scanner, &MasterScanner::keyspaceEvent, this,
            [this](int, const QByteArray& key, const QByteArray& event, qint64 ranAfterMs) {
                emit keyspaceEvent(m_index, key, event, ranAfterMs);
            });
    connect(scanner, &MasterScanner::keyspaceEventsSkipped, this,
            [this](int, qint64 count) { emit keyspaceEventsSkipped(m_index, count); });
    if (m_anchorEvents)
        scanner->anchorEvents();
    m_nodes.push_back(std::move(n));
    if (m_started)
        scanner->start();
}

void ClusterScanner::removeNode(const NodeAddress& address)
{
    const int id = idOf(address);
    if (id < 0)
        return;
    // What only this primary had is read again where the map now sends it (the promoted replica,
    // or the node its slots moved to); what is not there is then reported gone.
    for (auto it = m_holders.begin(); it != m_holders.end();) {
        if ((it.value() & bit(id)) == 0) {
            ++it;
            continue;
        }
        it.value() &= ~bit(id);
        if (it.value() == 0) {
            reread(it.key());
            it = m_holders.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
        if ((*it)->id == id) {
            m_nodes.erase(it); // stops its worker before the entry lets go of its connection
            break;
        }
    m_tooMany.clear();
}

void ClusterScanner::keyObserved(int id, const HashedKey& key, KeyObservation&& observation)
{
    quint64& holders = m_holders[key];
    const quint64 others = holders & ~bit(id);
    holders |= bit(id);
    if (others != 0) {
        // On two primaries at once (a slot being moved): the one that owns the slot now is believed.
        const int owner = ownerId(key);
        if (owner >= 0 && owner != id && (others & bit(owner)) != 0)
            return;
    }
    m_sink->keyObserved(m_index, key, std::move(observation));
}

void ClusterScanner::keyRemoved(int id, const HashedKey& key)
{
    auto it = m_holders.find(key);
    if (it != m_holders.end()) {
        it.value() &= ~bit(id);
        if (it.value() != 0)
            return; // still on another primary, which has reported it
        m_holders.erase(it);
    }
    // Deleted, or moved away: a MIGRATE deletes the key here once the target has it, and the target
    // may not have reported it yet. The routed read follows ASK/MOVED to wherever it is.
    reread(key);
}

void ClusterScanner::reread(const QByteArray& key)
{
    if (m_rereadQueued.contains(key))
        return;
    m_rereadQueued.insert(key);
    m_rereadQueue << key;
    if (!m_rereadTimer.isActive())
        m_rereadTimer.start();
}

void ClusterScanner::rereadQueued()
{
    if (m_rereadQueue.isEmpty())
        return;
    const QByteArrayList keys = std::exchange(m_rereadQueue, {});
    m_rereadQueued.clear();
    ++m_rereadsInFlight;
    KeyReader::read(m_connection, keys, m_settings,
                    [this, alive = std::weak_ptr<bool>(m_alive), keys](QList<KeyObservation> observations) {
                        if (alive.expired())
                            return;
                        --m_rereadsInFlight;
                        for (qsizetype i = 0; i < keys.size() && i < observations.size(); ++i) {
                            KeyObservation& o = observations[i];
                            const QByteArray& key = keys.at(i);
                            if (o.error.isError())
                                continue; // unreadable: the monitor keeps what it knew, shown as unknown
                            if (o.present) {
                                if (const int owner = ownerId(key); owner >= 0)
                                    m_holders[key] |= bit(owner);
                                m_sink->keyObserved(m_index, key, std::move(o));
                            } else if (m_holders.value(key) == 0) {
                                m_holders.remove(key);
                                m_sink->keyRemoved(m_index, key);
                            }
                        }
                        checkRound();
                        emit primaryPassFinished(m_index);
                    });
}

void ClusterScanner::checkRound()
{
    if (m_rereadsInFlight > 0 || !m_rereadQueue.isEmpty() || m_nodes.empty())
        return;
    bool anyUp = false;
    for (const auto& n : m_nodes) {
        const RedisConnection* c = m_entry->nodeConnection(n->address);
        if (!c || !c->isUp()) {
            if (c && c->state() == RedisConnection::State::Connecting)
                return; // about to be up: its first pass belongs to this one
            continue;
        }
        anyUp = true;
        if (n->scanner->completedPasses() <= n->roundMark)
            return;
    }
    if (!anyUp)
        return;
    for (const auto& n : m_nodes)
        n->roundMark = n->scanner->completedPasses();
    ++m_completedPasses;
    emit passFinished(m_index);
}

void ClusterScanner::updateMode()
{
    NotificationMode mode = NotificationMode::Unknown;
    QString reason;
    int up = 0, known = 0, live = 0;
    for (const auto& n : m_nodes) {
        const RedisConnection* c = m_entry->nodeConnection(n->address);
        if (!c || !c->isUp())
            continue;
        ++up;
        // A primary that just came (back) up has not found out yet: the others' mode stands.
        const NotificationMode m = n->scanner->mode();
        if (m != NotificationMode::Unknown)
            ++known;
        if (m == NotificationMode::Live)
            ++live;
        else if (m == NotificationMode::Polling && mode != NotificationMode::Polling) {
            mode = NotificationMode::Polling; // one primary without events: the entry is polled
            reason = QStringLiteral("%1: %2").arg(n->address.toString(), n->scanner->modeReason());
        }
    }
    if (known > 0 && live == known)
        mode = NotificationMode::Live;
    if (mode != NotificationMode::Polling && up == 0)
        reason = m_connection->lastError().message;
    if (!m_tooMany.isEmpty())
        reason = reason.isEmpty() ? m_tooMany : reason + QStringLiteral("; ") + m_tooMany;
    setMode(mode, reason);
}

} // namespace lockscope
