// SPDX-License-Identifier: Apache-2.0
#include "window/windowtrace.h"

#include "base/bytesdisplay.h"
#include "session/corethread.h"
#include "tracing/tracedock.h"
#include "tracing/tracemodel.h"

#include <QMainWindow>
#include <QPlainTextEdit>

namespace lockscope {

WindowTrace::WindowTrace(QMainWindow* window, std::function<QByteArray()> selectedResource)
    : QObject(window), m_selected(std::move(selectedResource)), m_model(new TraceModel(this)),
      m_dock(new TraceDock(m_model, window))
{
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide(); // until the first trace: MONITOR is never on by default
    connect(m_dock, &TraceDock::stopRequested, this, [this] {
        if (m_core)
            m_core->call(&CoreService::stopTrace);
    });
}

void WindowTrace::attach(CoreThread* core)
{
    if (m_dock->isTracing())
        m_dock->setStopped(tr("The connection changed: the trace ended with it."), {});
    m_core = core;
    CoreService* s = core->service();
    connect(s, &CoreService::started, this, [this](const QStringList& masters) {
        m_masterNames = masters;
        m_model->setMasterNames(masters);
    });
    connect(s, &CoreService::traceStarted, this,
            [this](const QByteArray& resource, const QStringList& masters) {
                m_dock->setTracing(escapeBytes(resource), masters, m_dock->durationMs());
            });
    connect(s, &CoreService::traced, m_model, &TraceModel::append);
    connect(s, &CoreService::traceMasterFailed, this, [this](const QString& message) {
        m_dock->summary()->appendPlainText(message);
        m_dock->summary()->show();
    });
    connect(s, &CoreService::traceStopped, this,
            [this](const QByteArray& resource, const TraceStop& stop, const QStringList& summary) {
                QString text = tr("Traced %1: %2.").arg(escapeBytes(resource), stop.message);
                if (m_model->warnings() > 0)
                    text +=
                        QLatin1Char(' ') + tr("%n warning(s): a stale holder, a delete by a non-holder or "
                                              "an overwrite, in the warning colour.",
                                              nullptr, m_model->warnings());
                m_dock->setStopped(text, summary);
            });
}

void WindowTrace::start()
{
    const QByteArray resource = m_selected();
    if (resource.isEmpty() || !m_core)
        return;
    m_model->clear();
    m_dock->setIdle(tr("Starting a trace of %1…").arg(escapeBytes(resource)));
    if (!m_dock->isVisible()) {
        // Its first showing: wide enough for a command and its meaning side by side.
        m_dock->show();
        auto* window = static_cast<QMainWindow*>(parent());
        if (window->dockWidgetArea(m_dock) != Qt::NoDockWidgetArea && !m_dock->isFloating())
            window->resizeDocks({m_dock}, {window->width() * 9 / 20}, Qt::Horizontal);
    }
    m_dock->raise();
    m_core->call(&CoreService::startTrace, resource, m_dock->durationMs());
}

} // namespace lockscope
