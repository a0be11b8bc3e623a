#include "session/corethread.h"

#include <QCoreApplication>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

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
}

namespace {

// Makes the calling thread yield the CPU to the GUI thread when both want it. Under load (the
// servers, other programs) a GUI thread with the same weight as the busy core thread waits its
// turn behind it, and every such wait is a frozen frame. QThread::setPriority cannot express this
// on Linux (SCHED_OTHER has a single static priority); the per-thread nice value can, and only
// lowering it needs no privilege.
void yieldToGuiThread()
{
#ifdef Q_OS_LINUX
    constexpr int coreThreadNice = 5;
    const auto tid = id_t(syscall(SYS_gettid));
    setpriority(PRIO_PROCESS, tid, qMax(getpriority(PRIO_PROCESS, tid), coreThreadNice));
#endif
}

} // namespace

template <typename F> void CoreThread::post(F&& call)
{
    QMetaObject::invokeMethod(m_service, std::forward<F>(call), Qt::QueuedConnection);
}

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

void CoreThread::start()
{
    m_thread.start();
    post([s = m_service] {
        yieldToGuiThread();
        s->start();
    });
}

void CoreThread::startRecording(const RecorderOptions& options)
{
    post([s = m_service, options] { s->startRecording(options); });
}

void CoreThread::stopRecording()
{
    post([s = m_service] { s->stopRecording(); });
}

void CoreThread::noteRecording(const RecordEvent& event)
{
    post([s = m_service, event] { s->noteRecording(event); });
}

void CoreThread::refresh()
{
    post([s = m_service] { s->refresh(); });
}

void CoreThread::enableNotifications(int master)
{
    post([s = m_service, master] { s->enableNotifications(master); });
}

quint64 CoreThread::acquire(const QByteArray& resource, qint64 ttlMs, int retries, bool keepAlive)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, resource, ttlMs, retries, keepAlive] {
        s->acquire(id, resource, ttlMs, retries, keepAlive);
    });
    return id;
}

quint64 CoreThread::extend(const QByteArray& resource, qint64 ttlMs)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, resource, ttlMs] { s->extend(id, resource, ttlMs); });
    return id;
}

quint64 CoreThread::release(const QByteArray& resource)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, resource] { s->release(id, resource); });
    return id;
}

quint64 CoreThread::inspectForceRelease(const ForceReleaseRequest& request)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, request] { s->inspectForceRelease(id, request); });
    return id;
}

quint64 CoreThread::executeForceRelease(const ForceReleasePlan& plan)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, plan] { s->executeForceRelease(id, plan); });
    return id;
}

void CoreThread::cancelForceRelease(const ForceReleasePlan& plan)
{
    post([s = m_service, plan] { s->cancelForceRelease(plan); });
}

void CoreThread::windowTook(qsizetype steps)
{
    post([s = m_service, steps] { s->windowTook(steps); });
}

quint64 CoreThread::readDiagnosis(const LockView& view)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, view] { s->readDiagnosis(id, view); });
    return id;
}

quint64 CoreThread::exportJson(const QByteArrayList& resources)
{
    const quint64 id = m_nextRequest++;
    post([s = m_service, id, resources] { s->exportJson(id, resources); });
    return id;
}

} // namespace lockscope
