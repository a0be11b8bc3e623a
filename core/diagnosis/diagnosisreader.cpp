// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/diagnosisreader.h"

#include "topology/clusterentry.h"
#include "topology/clusterrouter.h"
#include "topology/masterset.h"

#include <QHash>

#include <memory>

namespace lockscope {

namespace {

bool isRedisson(LockFormat format)
{
    return format == LockFormat::Redisson || format == LockFormat::RedissonReadWrite;
}

QByteArray tagged(const char* prefix, const QByteArray& name)
{
    return QByteArray(prefix) + ":{" + name + '}';
}

// The id a client may have been named after: a Redisson field "<uuid>:<threadId>" names the
// Redisson instance by its uuid, shared by all its threads.
QByteArray instanceOf(const QByteArray& holderId)
{
    const qsizetype colon = holderId.lastIndexOf(':');
    return colon > 0 ? holderId.left(colon) : holderId;
}

// Short names ("app", "w1") would match by accident inside any token.
constexpr qsizetype minNameLength = 6;

struct Ask
{
    DiagnosisFacts facts;
    QHash<int, qint64> subscribers; // per master that answered
    int left = 0;
    DiagnosisReader::Callback done;

    void finishOne()
    {
        if (--left > 0)
            return;
        // Waiters subscribe where the lock lives; with Redlock over several masters, the busiest.
        LockWaiters& w = facts.waiters;
        for (auto it = subscribers.cbegin(); it != subscribers.cend(); ++it)
            if (!w.known || it.value() > w.subscribers || (w.master == it.key() && w.subscribers == 0)) {
                w.known = true;
                w.master = it.key();
                w.subscribers = it.value();
            }
        if (done)
            done(facts);
    }
};

} // namespace

DiagnosisReader::DiagnosisReader(MasterSet* masters, QObject* parent) : QObject(parent), m_masters(masters) {}

bool DiagnosisReader::knowsWaiters(LockFormat format)
{
    return format == LockFormat::Redisson || format == LockFormat::RedissonReadWrite;
}

QByteArray DiagnosisReader::waiterChannel(const LockView& view)
{
    return tagged(view.format == LockFormat::RedissonReadWrite ? "redisson_rwlock" : "redisson_lock__channel",
                  view.resource);
}

QList<OwnerClient> DiagnosisReader::matchOwners(const LockView& view, int master,
                                                const QList<ClientListEntry>& clients)
{
    QList<OwnerClient> out;
    const MasterObservation m = view.observations.value(master);
    if (!m.present() || m.error().isError())
        return out;
    QByteArrayList ids;
    for (const LockHolder& h : m.lock().holderList())
        ids << h.id;
    if (ids.isEmpty())
        ids << m.lock().token;
    const QByteArray owner = m.lock().owner.toUtf8();
    for (const ClientListEntry& c : clients) {
        if (c.name.startsWith("lockscope"))
            continue; // our own connections
        for (const QByteArray& id : ids) {
            QByteArray by;
            const QByteArray instance = instanceOf(id);
            if (c.name.size() >= minNameLength &&
                (id.contains(c.name) || owner.contains(c.name) ||
                 (instance.size() >= minNameLength && c.name.contains(instance))))
                by = "name";
            else if (!c.address.isEmpty() && (id.contains(c.address) || owner.contains(c.address)))
                by = "address";
            if (by.isEmpty())
                continue;
            out << OwnerClient{master, id, by, c.id, c.name, c.address, c.ageS, c.idleS};
            break;
        }
    }
    return out;
}

void DiagnosisReader::read(const LockView& view, Callback done)
{
    readFacts(view, true, std::move(done));
}

void DiagnosisReader::readWaiters(const LockView& view, Callback done)
{
    readFacts(view, false, std::move(done));
}

void DiagnosisReader::readFacts(const LockView& view, bool owners, Callback done)
{
    auto ask = std::make_shared<Ask>();
    ask->done = std::move(done);
    ask->left = 1; // released at the end, so that answers arriving at once cannot finish early
    QList<int> masters = view.holders;
    if (masters.isEmpty())
        for (int i = 0; i < view.observations.size(); ++i)
            if (view.observations.at(i).present())
                masters << i;
    const bool redisson = isRedisson(view.format);
    const QByteArray channel = waiterChannel(view);
    ask->facts.waiters.channel = channel;
    const QByteArray queueKey = tagged("redisson_lock_queue", view.resource);
    const QByteArray timeoutKey = tagged("redisson_lock_timeout", view.resource);
    // Commands that name no key go to the node serving the lock's slot on a cluster.
    const auto sendNear = [this](int master, const QByteArray& key, const QByteArrayList& argv,
                                 RedisConnection::Callback callback) {
        if (ClusterEntry* cluster = m_masters->cluster(master))
            cluster->router()->send(key, argv, this, std::move(callback));
        else
            m_masters->at(master)->send(argv, this, std::move(callback));
    };
    for (int master : masters) {
        if (master >= m_masters->size() || !m_masters->at(master)->isUp())
            continue;
        if (owners) {
            ask->left += 1;
            sendNear(master, view.resource, {"CLIENT", "LIST"}, [ask, view, master](const RedisResult& r) {
                if (r.ok() && r.reply.isString()) {
                    ask->facts.clientsRead = true;
                    ask->facts.owners << matchOwners(view, master, ClientListEntry::parse(r.reply.string));
                }
                ask->finishOne();
            });
        }
        if (!redisson)
            continue;
        const bool cluster = m_masters->isCluster(master);
        // Subscribers: classic pub/sub, and on a cluster sharded pub/sub as well (newer Redisson).
        const QList<QByteArray> subcommands =
            cluster ? QList<QByteArray>{"NUMSUB", "SHARDNUMSUB"} : QList<QByteArray>{"NUMSUB"};
        for (const QByteArray& sub : subcommands) {
            ask->left += 1;
            sendNear(master, channel, {"PUBSUB", sub, channel}, [ask, master](const RedisResult& r) {
                // [channel, count]
                if (r.ok() && r.reply.isArray() && r.reply.elements.size() == 2)
                    ask->subscribers[master] += r.reply.elements.at(1).integer;
                ask->finishOne();
            });
        }
        if (view.format != LockFormat::Redisson || master != masters.constFirst())
            continue;
        ask->left += 1;
        RedisConnection* c = m_masters->at(master);
        c->send({"LRANGE", queueKey, "0", QByteArray::number(maxQueued - 1)}, this,
                [ask, c, master, timeoutKey](const RedisResult& r) {
                    if (!r.ok() || !r.reply.isArray() || r.reply.elements.isEmpty()) {
                        ask->finishOne();
                        return;
                    }
                    ask->subscribers[master] += 0; // known, even when nobody subscribes
                    for (const RedisReply& e : r.reply.elements)
                        ask->facts.waiters.queue << QueuedWaiter{e.string, -1};
                    c->send({"ZRANGE", timeoutKey, "0", QByteArray::number(maxQueued - 1), "WITHSCORES"}, c,
                            [ask](const RedisResult& z) {
                                const QList<RedisReply> e = z.ok() ? z.reply.elements : QList<RedisReply>();
                                for (qsizetype i = 0; i + 1 < e.size(); i += 2)
                                    for (QueuedWaiter& q : ask->facts.waiters.queue)
                                        if (q.id == e.at(i).string)
                                            q.deadlineMs = qint64(e.at(i + 1).string.toDouble());
                                ask->finishOne();
                            });
                });
    }
    ask->finishOne();
}

} // namespace lockscope
