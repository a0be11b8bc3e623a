// SPDX-License-Identifier: Apache-2.0
#include "window/windowinsights.h"

#include "base/durationformat.h"
#include "insights/familystatspass.h"
#include "insights/insightsdock.h"
#include "insights/insightsmodel.h"
#include "window/windowrecording.h"

#include <QDateTime>
#include <QFileInfo>
#include <QMainWindow>
#include <QThread>

namespace lockscope {

WindowInsights::WindowInsights(QMainWindow* window, WindowRecording* recording, QDockWidget* tabbedWith)
    : QObject(window), m_recording(recording), m_model(new InsightsModel(this)),
      m_dock(new InsightsDock(m_model, window))
{
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (tabbedWith)
        window->tabifyDockWidget(tabbedWith, m_dock);
    m_nextRefresh.setSingleShot(true);
    connect(&m_nextRefresh, &QTimer::timeout, this, [this] {
        m_stale = true;
        refreshIfStale();
    });
    connect(m_dock, &InsightsDock::refreshRequested, this, &WindowInsights::refresh);
    connect(m_dock, &QDockWidget::visibilityChanged, this, &WindowInsights::refreshIfStale);
    connect(m_recording, &WindowRecording::reviewStarted, this, [this] {
        m_model->setFamilies({});
        m_stale = true;
        refreshIfStale();
    });
    connect(m_recording, &WindowRecording::toggled, this, [this](bool on) {
        m_stale = true;
        if (on)
            refreshIfStale();
    });
}

WindowInsights::~WindowInsights()
{
    stopReading();
    // Passes told to stop may still be finishing: none outlives the window.
    for (QThread* thread : findChildren<QThread*>()) {
        thread->requestInterruption();
        thread->quit();
        thread->wait();
    }
}

void WindowInsights::refreshIfStale()
{
    if (m_stale && m_dock->isVisible() && !m_reading)
        refresh();
}

void WindowInsights::refresh()
{
    stopReading();
    m_nextRefresh.stop();
    m_stale = false;
    const QString path = m_recording->path();
    if (path.isEmpty() || (!m_recording->isTeamDatabase() && !QFileInfo::exists(path))) {
        m_model->setFamilies({});
        m_dock->setStatus(QString());
        m_dock->setEmptyText(
            m_recording->isRecording()
                ? tr("Nothing recorded yet: the figures come once locks have been seen.")
                : tr("Insights are drawn from the recording: turn on View > Record history."));
        emit refreshed();
        return;
    }
    const qint64 span = m_dock->sinceSpanMs();
    const qint64 since = span < 0 ? -1 : QDateTime::currentMSecsSinceEpoch() - span;
    m_dock->setStatus(tr("Reading %1…").arg(path));
    const quint64 generation = ++m_generation;
    m_reading = new QThread(this);
    m_reading->setObjectName(QStringLiteral("insights reader"));
    auto* pass = new FamilyStatsPass(path, since, m_recording->password());
    pass->moveToThread(m_reading);
    connect(m_reading, &QThread::finished, pass, &QObject::deleteLater);
    connect(m_reading, &QThread::finished, m_reading, &QObject::deleteLater);
    connect(pass, &FamilyStatsPass::finished, this,
            [this, generation, path](const QList<FamilyFigures>& families, qint64 tookMs) {
                if (generation != m_generation)
                    return;
                stopReading();
                m_model->setFamilies(families);
                m_dock->setEmptyText(tr("No lock was recorded in this span."));
                const QString took = tookMs < 1000 ? tr("%1 ms").arg(tookMs) : formatDuration(tookMs);
                const QString count = families.size() == 1 ? tr("1 family of locks")
                                                           : tr("%1 families of locks").arg(families.size());
                m_dock->setStatus(
                    tr("%1 in %2, read at %3 in %4")
                        .arg(count, path, QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), took));
                scheduleNext(tookMs);
                emit refreshed();
            });
    connect(pass, &FamilyStatsPass::failed, this, [this, generation](const QString& reason) {
        if (generation != m_generation)
            return;
        stopReading();
        m_model->setFamilies({});
        m_dock->setStatus(QString());
        m_dock->setEmptyText(tr("The recording could not be read: %1").arg(reason));
        emit refreshed();
    });
    m_reading->start(QThread::LowPriority);
    QMetaObject::invokeMethod(pass, &FamilyStatsPass::run, Qt::QueuedConnection);
}

void WindowInsights::stopReading()
{
    if (!m_reading)
        return;
    // Not waited for: it stops at its next look at the flag, and deletes itself when it has.
    m_reading->requestInterruption();
    m_reading->quit();
    m_reading = nullptr;
}

void WindowInsights::scheduleNext(qint64 tookMs)
{
    if (m_recording->isRecording())
        m_nextRefresh.start(int(qBound<qint64>(minRefreshMs, tookMs * 10, 24 * 3600 * 1000LL)));
}

} // namespace lockscope
