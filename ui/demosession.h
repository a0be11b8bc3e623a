#pragma once

#include "democluster.h"
#include "lockscopeconfig.h"
#include "result.h"

#include <QObject>

namespace lockscope {

// `lockscope --demo`: five throw-away masters with a realistic set of locks (every status, several
// libraries' formats), so the window has something to show. The demo panel plugs in here: it gets
// the cluster (kill, pause, restart a master) through cluster().
class DemoSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoSession)

public:
    static constexpr int masterCount = 5;

    explicit DemoSession(QObject* parent = nullptr);

    // Starts the masters and writes the sample locks; blocks for a few seconds, before the window
    // opens. The configuration watches them live, with quick timeouts so outages show at once.
    Result<LockScopeConfig> start(const QString& redisServer = QStringLiteral("redis-server"));
    DemoCluster* cluster() { return &m_cluster; }

    // The sample locks as (master index, command) pairs: what start() writes.
    static QList<QPair<int, QByteArrayList>> sampleCommands(qint64 nowWallMs);

private:
    DemoCluster m_cluster;
};

} // namespace lockscope
