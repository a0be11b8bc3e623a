#include "masterset.h"

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
                    if (state == RedisConnection::State::Up || state == RedisConnection::State::Down)
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
    }
}

MasterSet::~MasterSet() = default;

int MasterSet::upCount() const
{
    int up = 0;
    for (const RedisConnection* c : m_connections)
        up += c->isUp() ? 1 : 0;
    return up;
}

void MasterSet::open()
{
    for (RedisConnection* c : m_connections)
        c->open();
}

void MasterSet::close()
{
    for (RedisConnection* c : m_connections)
        c->close();
}

bool MasterSet::isSettled() const
{
    for (bool s : m_settled)
        if (!s)
            return false;
    return true;
}

} // namespace lockscope
