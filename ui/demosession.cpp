#include "demosession.h"

#include "configloader.h"
#include "masterset.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>

namespace lockscope {

DemoSession::DemoSession(QObject* parent) : QObject(parent) {}

QList<QPair<int, QByteArrayList>> DemoSession::sampleCommands(qint64 nowWallMs)
{
    QList<QPair<int, QByteArrayList>> out;
    auto onMasters = [&out](const QList<int>& masters, const QByteArrayList& argv) {
        for (int m : masters)
            out.append({m, argv});
    };
    const QList<int> all{0, 1, 2, 3, 4};
    // Held everywhere by us, by node-redlock and by redsync.
    onMasters(all, {"SET", "lock:orders:checkout", "billing-7@web-1:4242/8c1f4be0a7d34f0e9b6a55c1e2f0d9a3",
                    "PX", "45000"});
    onMasters(all, {"SET", "locks:inventory:sku-1841", "f2a9c0d4e6b8a1c3d5e7f9a0b2c4d6e8", "PX", "120000"});
    onMasters({0, 1, 2, 3}, {"SET", "mutex:payments", "3q2+7wAAAAC0ZJ2mXhFhBw==", "PX", "9000"});
    // Partial: a client that reached only two masters.
    onMasters({1, 3}, {"SET", "lock:reports:nightly", "7d0b8e2a4c6f8a0b2d4e6f8a0c2e4a6b", "PX", "30000"});
    onMasters({0, 1}, {"SET", "lock:search:reindex", "reindexer@batch-2:901/5b6c7d8e9fa0b1c2d3e4f5a6b7c8d9e0",
                       "PX", "40000"});
    // Contested: two clients, three masters against two.
    onMasters({0, 1, 2}, {"SET", "lock:cache:rebuild", "a1a1a1a1b2b2b2b2c3c3c3c3d4d4d4d4", "PX", "60000"});
    onMasters({3, 4}, {"SET", "lock:cache:rebuild", "e5e5e5e5f6f6f6f6a7a7a7a7b8b8b8b8", "PX", "60000"});
    // Stuck: written without an expiry, and a legacy SETNX timestamp long past.
    onMasters(all, {"SET", "lock:migrations", "deploy-bot@ci-3:77/00aa11bb22cc33dd44ee55ff66778899"});
    onMasters(all, {"SET", "lock:legacy-cron", QByteArray::number(nowWallMs - 3600000)});
    // Redisson: a hash with one holder re-entered twice.
    for (int m : {0, 1, 2, 4}) {
        out.append({m, {"HSET", "lock:{accounts}", "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f80:57", "2"}});
        out.append({m, {"PEXPIRE", "lock:{accounts}", "30000"}});
    }
    // redis-semaphore: two holders of a pool.
    for (int m : all) {
        out.append({m,
                    {"ZADD", "semaphore:db-pool", QByteArray::number(nowWallMs - 5000),
                     "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b", QByteArray::number(nowWallMs - 2000),
                     "1b2c3d4e-0000-4abc-9def-0123456789ab"}});
        out.append({m, {"PEXPIRE", "semaphore:db-pool", "25000"}});
    }
    // python-redis-lock on a single master's worth of keys (held on a quorum).
    onMasters({0, 2, 4}, {"SET", "lock:thumbnailer", "bG9ja3Njb3BlZGVtbzEyMzQ1", "PX", "15000"});
    // Short ones, to watch counting down and going.
    onMasters(all, {"SET", "lock:session:42", "4e9d2c1b0a8f7e6d5c4b3a2918273645", "PX", "8000"});
    onMasters(all, {"SET", "lock:email:digest", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "20000"});
    return out;
}

Result<LockScopeConfig> DemoSession::start(const QString& redisServer)
{
    const Result<QStringList> urls = m_cluster.start(masterCount, redisServer);
    if (!urls)
        return urls.error();
    LockScopeConfig config;
    config.timeoutMs = 500;
    config.monitor.reconcileIntervalMs = 5000;
    for (const QString& url : *urls) {
        Result<ConnectionOptions> m = ConfigLoader::masterFromUrl(url, TlsOptions(), config.timeoutMs);
        if (!m)
            return m.error();
        m->healthIntervalMs = 250;
        m->reconnectMaxMs = 1000;
        config.masters << *m;
    }

    // Written before the window exists, through a short-lived master set of its own.
    MasterSet writer(config.masters);
    writer.open();
    const QList<QPair<int, QByteArrayList>> commands = sampleCommands(QDateTime::currentMSecsSinceEpoch());
    int left = int(commands.size());
    QString failure;
    QEventLoop loop;
    for (const auto& [master, argv] : commands)
        writer.at(master)->send(argv, [&](const RedisResult& r) {
            if ((!r.ok() || r.isServerError()) && failure.isEmpty())
                failure = r.anyError(writer.at(master)->name()).message;
            if (--left == 0)
                loop.quit();
        });
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    loop.exec();
    if (left > 0 || !failure.isEmpty())
        return RedisError(ErrorKind::Io, QString(),
                          failure.isEmpty() ? QStringLiteral("the demo masters did not answer") : failure);
    return config;
}

} // namespace lockscope
