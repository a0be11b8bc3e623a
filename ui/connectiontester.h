#pragma once

#include "connectionoptions.h"

#include <QObject>
#include <QThread>

namespace lockscope {

// "Test" in the connection editor: connects to one master and PINGs it in a thread of its own,
// so the dialog stays responsive while a dead host times out. Reports once, then can be reused.
class ConnectionTester final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionTester)

public:
    explicit ConnectionTester(QObject* parent = nullptr);
    ~ConnectionTester() override;

    void test(const ConnectionOptions& options);

signals:
    // ok: the server answered PING; `detail` is the version and latency, or why it failed.
    void finished(bool ok, const QString& detail);

private:
    QThread m_thread;
    QObject* m_worker;
};

} // namespace lockscope
