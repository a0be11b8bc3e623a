#pragma once

#include "session/coreservice.h"

#include <QObject>
#include <QThread>

namespace lockscope {

// The GUI's handle on the core: starts a CoreService in its own thread and forwards calls to it
// queued, so that no network work ever runs on the GUI thread. Connect to service() signals for
// results; they arrive queued in the receiver's thread.
class CoreThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreThread)

public:
    CoreThread(LockScopeConfig config, QString auditLogPath, QObject* parent = nullptr);
    ~CoreThread() override;

    // Connect to the service's signals before this.
    void start();
    CoreService* service() const { return m_service; }

    void refresh();
    void enableNotifications(int master);
    quint64 acquire(const QByteArray& resource, qint64 ttlMs, int retries, bool keepAlive);
    quint64 extend(const QByteArray& resource, qint64 ttlMs);
    quint64 release(const QByteArray& resource);
    quint64 inspectForceRelease(const ForceReleaseRequest& request);
    quint64 executeForceRelease(const ForceReleasePlan& plan);
    void cancelForceRelease(const ForceReleasePlan& plan);
    quint64 exportJson(const QByteArrayList& resources);
    quint64 readDiagnosis(const LockView& view);
    void startRecording(const RecorderOptions& options);
    void stopRecording();
    void noteRecording(const RecordEvent& event);
    // The window applied (or folded away) this many of the steps it was sent: CoreService::windowTook.
    void windowTook(qsizetype steps);

    static void registerMetaTypes();

private:
    template <typename F> void post(F&& call);

    QThread m_thread;
    CoreService* m_service;
    quint64 m_nextRequest = 1;
};

} // namespace lockscope
