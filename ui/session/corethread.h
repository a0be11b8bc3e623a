// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "session/coreservice.h"

#include <QObject>
#include <QThread>

#include <tuple>
#include <type_traits>
#include <utility>

namespace lockscope {

// The GUI's handle on the core: starts a CoreService in its own thread and forwards calls to it
// queued, so that no network work ever runs on the GUI thread. Connect to service() signals for
// results; they arrive queued in the receiver's thread.
//
//     core->call(&CoreService::refresh);
//     const quint64 id = core->request(&CoreService::readDiagnosis, view); // answered with `id`
class CoreThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreThread)

public:
    CoreThread(LockScopeConfig config, QString auditLogPath, QObject* parent = nullptr);
    ~CoreThread() override;

    // Connect to the service's signals before this. MastersOpen::Later: the service is built, but
    // connecting to the masters and scanning them waits for openMasters().
    enum class MastersOpen
    {
        Now,
        Later
    };
    void start(MastersOpen open = MastersOpen::Now);
    void openMasters() { call(&CoreService::openMasters); }
    CoreService* service() const { return m_service; }

    // Runs `method` on the service in the core thread, after what was asked before it. The
    // arguments are copied now, as the method's parameter types: what they refer to on the
    // caller's side may be gone by the time it runs.
    template <typename... Params, typename... Args>
    void call(void (CoreService::*method)(Params...), Args&&... args)
    {
        static_assert(sizeof...(Params) == sizeof...(Args), "one argument per parameter");
        QMetaObject::invokeMethod(
            m_service,
            [service = m_service, method,
             values = std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)] {
                std::apply([&](const auto&... value) { (service->*method)(value...); }, values);
            },
            Qt::QueuedConnection);
    }
    // The same for a method whose first parameter is a request's id, which its answer (a signal
    // of the service) carries back: returns the id this call was given.
    template <typename... Params, typename... Args>
    quint64 request(void (CoreService::*method)(quint64, Params...), Args&&... args)
    {
        const quint64 id = m_nextRequest++;
        call(method, id, std::forward<Args>(args)...);
        return id;
    }

    static void registerMetaTypes();

private:
    QThread m_thread;
    CoreService* m_service;
    quint64 m_nextRequest = 1; // only the GUI thread asks
};

} // namespace lockscope
