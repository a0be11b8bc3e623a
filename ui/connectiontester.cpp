#include "connectiontester.h"

#include "redisconnection.h"

#include <QElapsedTimer>

namespace lockscope {

ConnectionTester::ConnectionTester(QObject* parent) : QObject(parent), m_worker(new QObject)
{
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("lockscope-tester"));
    m_thread.start();
}

ConnectionTester::~ConnectionTester()
{
    m_thread.quit();
    m_thread.wait();
}

void ConnectionTester::test(const ConnectionOptions& options)
{
    ConnectionOptions once = options;
    once.autoReconnect = false;
    once.healthIntervalMs = 0;
    QMetaObject::invokeMethod(m_worker, [this, once, worker = m_worker] {
        auto* connection = new RedisConnection(once, worker);
        auto clock = std::make_shared<QElapsedTimer>();
        clock->start();
        auto reported = std::make_shared<bool>(false);
        // A refused connection fails both the PING and the state: say it once.
        auto report = [this, connection, reported](bool ok, const QString& detail) {
            if (*reported)
                return;
            *reported = true;
            emit finished(ok, detail);
            connection->deleteLater();
        };
        connect(connection, &RedisConnection::stateChanged, connection,
                [connection, report](RedisConnection::State state, const RedisError& reason) {
                    if (state == RedisConnection::State::Down)
                        report(false, reason.message);
                });
        connection->send({"PING"}, connection, [connection, clock, report](const RedisResult& result) {
            if (!result.ok() || result.isServerError())
                report(false, result.anyError(connection->name()).message);
            else
                report(true, tr("PONG from Redis %1 in %2 ms")
                                 .arg(connection->health().version)
                                 .arg(double(clock->nsecsElapsed()) / 1e6, 0, 'f', 1));
        });
        connection->open();
    });
}

} // namespace lockscope
