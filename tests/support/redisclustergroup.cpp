// SPDX-License-Identifier: Apache-2.0
#include "support/redisclustergroup.h"

#include "support/blockingcommand.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QThread>

#include <algorithm>

namespace lockscope::test {

bool RedisClusterGroup::start(int primaries, int replicasPerPrimary, const RedisServerOptions& options)
{
    m_nodes.clear();
    RedisServerOptions nodeOptions = options;
    nodeOptions.extraArgs << QStringLiteral("--cluster-enabled") << QStringLiteral("yes")
                          << QStringLiteral("--cluster-config-file") << QStringLiteral("nodes.conf")
                          << QStringLiteral("--cluster-node-timeout") << QStringLiteral("1000")
                          << QStringLiteral("--cluster-allow-replica-migration")
                          << QStringLiteral("no")
                          // CLUSTER SLOTS lists a replica only once its replication offset is known:
                          // pinging replicas every second makes that quick.
                          << QStringLiteral("--repl-ping-replica-period") << QStringLiteral("1");
    // One password for every node: replicas log in to their primary with it (masterauth), and
    // redis-cli --cluster to all of them.
    if (nodeOptions.withoutPassword)
        nodeOptions.password.clear();
    else if (nodeOptions.password.isEmpty())
        nodeOptions.password = testPassword();
    m_replicasPerPrimary = replicasPerPrimary;
    const int total = primaries * (1 + replicasPerPrimary);
    for (int i = 0; i < total; ++i) {
        // The cluster bus listens on port + 10000: a port too high for that makes the server exit,
        // and RedisServer::start() then tries another.
        std::unique_ptr<RedisServer> node;
        for (int attempt = 0; attempt < 5 && !node; ++attempt) {
            auto candidate = std::make_unique<RedisServer>(nodeOptions);
            if (!candidate->start()) {
                m_error = QStringLiteral("node %1: %2").arg(i).arg(candidate->errorString());
                continue;
            }
            if (candidate->adminPort() < 55000)
                node = std::move(candidate); // otherwise it is stopped, in its own directory, and replaced
        }
        if (!node)
            return false;
        m_nodes.push_back(std::move(node));
    }
    QStringList args{QStringLiteral("--cluster"), QStringLiteral("create")};
    for (const auto& node : m_nodes)
        args << QStringLiteral("127.0.0.1:%1").arg(node->adminPort());
    args << QStringLiteral("--cluster-replicas") << QString::number(replicasPerPrimary)
         << QStringLiteral("--cluster-yes");
    QProcess cli;
    if (!nodeOptions.password.isEmpty()) {
        // From the environment, not -a: arguments are visible to every local user.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REDISCLI_AUTH"), nodeOptions.password);
        cli.setProcessEnvironment(env);
    }
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QStringLiteral("redis-cli"), args);
    if (!cli.waitForFinished(60000) || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != 0) {
        m_error = QStringLiteral("redis-cli --cluster create failed: ") +
                  QString::fromUtf8(cli.readAll().right(2000));
        cli.kill();
        cli.waitForFinished(5000);
        return false;
    }
    return waitForConsistent(60000);
}

int RedisClusterGroup::indexOfPort(quint16 port) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i]->port() == port)
            return int(i);
    return -1;
}

QString RedisClusterGroup::url(int seeds, bool withSecret) const
{
    const int count = seeds < 0 ? size() : std::min(seeds, size());
    QStringList hosts;
    for (int i = 0; i < count; ++i)
        hosts << QStringLiteral("127.0.0.1:%1").arg(m_nodes[size_t(i)]->port());
    QString auth;
    const RedisServerOptions& o = m_nodes.empty() ? RedisServerOptions() : m_nodes.front()->options();
    if (!o.aclUser.isEmpty())
        auth = o.aclUser + (withSecret ? QLatin1Char(':') + o.aclPassword : QString()) + QLatin1Char('@');
    else if (!o.password.isEmpty() && withSecret)
        auth = QLatin1Char(':') + o.password + QLatin1Char('@');
    return QStringLiteral("redis-cluster://") + auth + hosts.join(QLatin1Char(','));
}

ConnectionOptions RedisClusterGroup::nodeOptions(int timeoutMs) const
{
    ConnectionOptions options;
    options.commandTimeoutMs = timeoutMs;
    options.connectTimeoutMs = timeoutMs;
    return options;
}

QByteArray RedisClusterGroup::slotsSignature(int node) const
{
    const RedisReply slotTable = m_nodes[size_t(node)]->command({"CLUSTER", "SLOTS"});
    if (!slotTable.isArray())
        return {};
    QByteArrayList lines;
    for (const RedisReply& range : slotTable.elements) {
        if (range.elements.size() < 3)
            return {};
        QByteArray line = QByteArray::number(range.elements[0].integer) + '-' +
                          QByteArray::number(range.elements[1].integer) + ':';
        QByteArrayList replicas;
        for (qsizetype i = 3; i < range.elements.size(); ++i)
            replicas << QByteArray::number(range.elements[i].elements.value(1).integer);
        std::sort(replicas.begin(), replicas.end());
        line += QByteArray::number(range.elements[2].elements.value(1).integer) + '>' + replicas.join(',');
        lines << line;
    }
    std::sort(lines.begin(), lines.end());
    return lines.join(' ');
}

bool RedisClusterGroup::waitForConsistent(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        bool consistent = true;
        QByteArray signature;
        for (int i = 0; i < size() && consistent; ++i) {
            if (!m_nodes[size_t(i)]->isRunning())
                continue;
            if (infoField(m_nodes[size_t(i)]->command({"CLUSTER", "INFO"}).string, "cluster_state") != "ok") {
                consistent = false;
                break;
            }
            const QByteArray mine = slotsSignature(i);
            consistent = !mine.isEmpty() && (signature.isEmpty() || mine == signature);
            signature = mine;
        }
        // Every primary's replicas must be listed, so that a failover has somewhere to go.
        if (consistent)
            for (const QByteArray& range : signature.split(' '))
                consistent = consistent && range.count(',') + 1 >= m_replicasPerPrimary &&
                             (m_replicasPerPrimary == 0 || !range.endsWith('>'));
        if (consistent)
            return true;
        QThread::msleep(50);
    }
    m_error = QStringLiteral("the cluster did not settle in %1 ms").arg(timeoutMs);
    return false;
}

int RedisClusterGroup::primaryForSlot(int slot) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (!m_nodes[i]->isRunning())
            continue;
        const RedisReply slotTable = m_nodes[i]->command({"CLUSTER", "SLOTS"});
        if (!slotTable.isArray())
            continue;
        for (const RedisReply& range : slotTable.elements)
            if (range.elements.size() >= 3 && range.elements[0].integer <= slot &&
                slot <= range.elements[1].integer)
                return indexOfPort(quint16(range.elements[2].elements.value(1).integer));
        return -1;
    }
    return -1;
}

QList<int> RedisClusterGroup::primaryIndexes() const
{
    QList<int> out;
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (!m_nodes[i]->isRunning())
            continue;
        const RedisReply slotTable = m_nodes[i]->command({"CLUSTER", "SLOTS"});
        for (const RedisReply& range : slotTable.elements) {
            const int index = indexOfPort(quint16(range.elements.value(2).elements.value(1).integer));
            if (index >= 0 && !out.contains(index))
                out << index;
        }
        break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

int RedisClusterGroup::replicaOf(int primary) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (int(i) == primary || !m_nodes[i]->isRunning())
            continue;
        const RedisReply role = m_nodes[i]->command({"ROLE"});
        if (role.isArray() && role.elements.size() >= 3 && role.elements[0].string == "slave" &&
            role.elements[2].integer == m_nodes[size_t(primary)]->port())
            return int(i);
    }
    return -1;
}

QByteArray RedisClusterGroup::nodeId(int i) const
{
    return m_nodes[size_t(i)]->command({"CLUSTER", "MYID"}).string;
}

QByteArray RedisClusterGroup::keyOn(int primary, const QByteArray& prefix) const
{
    for (int n = 0; n < 100000; ++n) {
        const QByteArray key = prefix + QByteArray::number(n);
        const RedisReply slot = m_nodes[size_t(primary)]->command({"CLUSTER", "KEYSLOT", key});
        if (primaryForSlot(int(slot.integer)) == primary)
            return key;
    }
    return {};
}

bool RedisClusterGroup::beginSlotMigration(int slot, int from, int to)
{
    const QByteArray s = QByteArray::number(slot);
    return !at(to).command({"CLUSTER", "SETSLOT", s, "IMPORTING", nodeId(from)}).isError() &&
           !at(from).command({"CLUSTER", "SETSLOT", s, "MIGRATING", nodeId(to)}).isError();
}

bool RedisClusterGroup::migrateKey(const QByteArray& key, int from, int to)
{
    QByteArrayList argv{"MIGRATE", "127.0.0.1", QByteArray::number(at(to).adminPort()), key, "0", "5000"};
    const QString& password = at(from).options().password;
    if (!password.isEmpty())
        argv << "AUTH" << password.toUtf8();
    const RedisReply reply = at(from).command(argv);
    return reply.isStatus() && (reply.string == "OK" || reply.string == "NOKEY");
}

bool RedisClusterGroup::finishSlotMigration(int slot, int from, int to)
{
    const QByteArray s = QByteArray::number(slot);
    const QByteArray target = nodeId(to);
    // The new owner first, then the old one, then everyone else, as the cluster specification says.
    if (at(to).command({"CLUSTER", "SETSLOT", s, "NODE", target}).isError() ||
        at(from).command({"CLUSTER", "SETSLOT", s, "NODE", target}).isError())
        return false;
    for (int primary : primaryIndexes())
        if (primary != to && primary != from)
            at(primary).command({"CLUSTER", "SETSLOT", s, "NODE", target});
    return true;
}

} // namespace lockscope::test
