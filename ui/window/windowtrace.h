// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>

class QMainWindow;

namespace lockscope {

class CoreThread;
class TraceDock;
class TraceModel;

// The window's part of the lock tracer (docs/manual/trace.md): Lock > Trace on the selected lock,
// the Trace dock beside the table and its detail pane, filled live from the core's trace. One trace
// at a time; a new connection (another profile, a reconnect) ends the one under way.
class WindowTrace final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowTrace)

public:
    WindowTrace(QMainWindow* window, std::function<QByteArray()> selectedResource);

    void attach(CoreThread* core);
    // Traces the selected lock (nothing when none is).
    void start();
    TraceDock* dock() const { return m_dock; }
    TraceModel* model() const { return m_model; }

private:
    std::function<QByteArray()> m_selected;
    QPointer<CoreThread> m_core;
    TraceModel* m_model;
    TraceDock* m_dock;
    QStringList m_masterNames;
};

} // namespace lockscope
