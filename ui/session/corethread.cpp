// SPDX-License-Identifier: Apache-2.0
#include "session/corethread.h"

#include "base/threadpriority.h"

#include <QCoreApplication>

namespace lockscope {

void CoreThread::registerMetaTypes()
{
    qRegisterMetaType<LockBatch>();
    qRegisterMetaType<MasterSnapshot>();
    qRegisterMetaType<KeyspaceEventRecord>();
    qRegisterMetaType<QList<KeyspaceEventRecord>>();
    qRegisterMetaType<RedlockReport>();
    qRegisterMetaType<ForceReleasePlan>();
    qRegisterMetaType<ForceReleaseRequest>();
    qRegisterMetaType<ForceReleaseReport>();
    qRegisterMetaType<RedlockLease>();
    qRegisterMetaType<QList<RedlockLease>>();
    qRegisterMetaType<SafetyIncident>();
    qRegisterMetaType<TracedCommand>();
    qRegisterMetaType<QList<TracedCommand>>();
    qRegisterMetaType<TraceStop>();
}

namespace {

// Makes the calling thread yield the CPU to the GUI thread when both want it. Under load (the
// servers, other programs) a GUI thread with the same weight as the busy core thread waits its
// turn behind it, and every such wait is a frozen frame. The threads it starts (scans, the
// recording's writer) inherit it.
void yieldToGuiThread()
{
    constexpr int coreThreadNice = 5;
    ThreadPriority::lowerTo(coreThreadNice);
}

} // namespace

CoreThread::CoreThread(LockScopeConfig config, QString auditLogPath, QObject* parent)
    : QObject(parent), m_service(new CoreService(std::move(config), std::move(auditLogPath)))
{
    registerMetaTypes();
    m_thread.setObjectName(QStringLiteral("lockscope-core"));
    m_service->moveToThread(&m_thread);
}

CoreThread::~CoreThread()
{
    if (m_thread.isRunning()) {
        // Closing sockets is quick and local; waiting for it keeps timers from firing into freed objects.
        QMetaObject::invokeMethod(
            m_service,
            [s = m_service] {
                s->shutdown();
                s->moveToThread(nullptr);
            },
            Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    delete m_service;
}

void CoreThread::start(MastersOpen open)
{
    m_thread.start();
    QMetaObject::invokeMethod(
        m_service,
        [s = m_service, now = open == MastersOpen::Now] {
            yieldToGuiThread();
            s->start(now);
        },
        Qt::QueuedConnection);
}

} // namespace lockscope
