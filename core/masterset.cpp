#include "masterset.h"

#include "sentinelentry.h"

namespace lockscope {

MasterSet::MasterSet(const QList<ConnectionOptions>& masters, QObject* parent) : QObject(parent)
{
    for (const ConnectionOptions& options : masters) {
        const int index = int(m_connections.size());
        auto* c = new RedisConnection(options, this);
        m_connections.append(c);
        m_settled.append(false);
        connect(c, &RedisConnection::stateChanged, this,
                [this, index](RedisConnection::State state, const RedisError& reason) {
                    // A Sentinel entry passes through Down on its way to the primary it was just given.
                    const SentinelEntry* sentinel = m_sentinels.value(index);
                    if (state == RedisConnection::State::Up ||
                        (state == RedisConnection::State::Down && !(sentinel && sentinel->isRetargeting())))
                        m_settled[index] = true;
                    emit masterStateChanged(index, state, reason);
                    if (!m_announcedSettled && isSettled()) {
                        m_announcedSettled = true;
                        emit settled();
                    }
                });
        connect(c, &RedisConnection::healthChanged, this, [this, index] { emit masterHealthChanged(index); });
        connect(
            c, &RedisConnection::restarted, this,
            [this, index](const QByteArray& o, const QByteArray& n) { emit masterRestarted(index, o, n); });
        SentinelEntry* sentinel = nullptr;
        if (options.topology && options.topology->isSentinel()) {
            sentinel = new SentinelEntry(options, c, this);
            connect(sentinel, &SentinelEntry::primaryResolved, this,
                    [this, index](const NodeAddress& primary) { emit primaryResolved(index, primary); });
            connect(sentinel, &SentinelEntry::primaryChanged, this,
                    [this, index](const PrimaryChange& change) { emit primaryChanged(index, change); });
        }
        m_sentinels.append(sentinel);
    }
}

MasterSet::~MasterSet()
{
    // Before the connections they steer.
    qDeleteAll(m_sentinels);
}

int MasterSet::upCount() const
{
    int up = 0;
    for (const RedisConnection* c : m_connections)
        up += c->isUp() ? 1 : 0;
    return up;
}

void MasterSet::open()
{
    for (int i = 0; i < m_connections.size(); ++i) {
        if (m_sentinels.at(i))
            m_sentinels.at(i)->open(); // the connection opens once the sentinels name a primary
        else
            m_connections.at(i)->open();
    }
}

void MasterSet::close()
{
    for (SentinelEntry* s : m_sentinels)
        if (s)
            s->close();
    for (RedisConnection* c : m_connections)
        c->close();
}

NodeAddress MasterSet::primaryAddress(int index) const
{
    const SentinelEntry* s = m_sentinels.value(index);
    return s ? s->primary() : NodeAddress();
}

bool MasterSet::isSettled() const
{
    for (bool s : m_settled)
        if (!s)
            return false;
    return true;
}

} // namespace lockscope
