#include "history/historyview.h"

#include "history/historydock.h"
#include "history/historytimeline.h"
#include "history/historytracker.h"
#include "record/recordingreader.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSet>
#include <QThreadPool>

#include <algorithm>

namespace lockscope {

namespace {

constexpr int reloadDelayMs = 700; // the recorder commits every 400 ms; changes come in bursts
// While a lock is shown, its recording is read again this often: the window follows only the shown
// lock itself (HistoryTracker), and what the recorder saw of it can reach the file later than this
// window's own view of it (a loaded machine, a commit under way as it was selected).
constexpr int refreshMs = 2000;

HolderEpisode::End endOf(Episode::End end)
{
    switch (end) {
    case Episode::End::Open:
        return HolderEpisode::End::Ongoing;
    case Episode::End::Released:
        return HolderEpisode::End::Released;
    case Episode::End::Expired:
        return HolderEpisode::End::Expired;
    case Episode::End::ForceReleased:
        return HolderEpisode::End::ForceReleased;
    case Episode::End::Replaced:
        return HolderEpisode::End::Replaced;
    case Episode::End::Lost:
        return HolderEpisode::End::LostOnRestart;
    }
    return HolderEpisode::End::Ongoing;
}

// Runs `read` on a pool thread and hands its result to `deliver` on `receiver`'s thread, unless the
// receiver went meanwhile.
template <typename Read, typename Deliver> void offGuiThread(QObject* receiver, Read read, Deliver deliver)
{
    QThreadPool::globalInstance()->start([guard = QPointer<QObject>(receiver), read, deliver] {
        auto result = read();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, deliver, result] {
                if (guard)
                    deliver(result);
            },
            Qt::QueuedConnection);
    });
}

} // namespace

HistoryView::HistoryView(HistoryTracker* tracker, HistoryDock* dock, QObject* parent)
    : QObject(parent), m_tracker(tracker), m_dock(dock)
{
    m_reload.setSingleShot(true);
    m_reload.setInterval(reloadDelayMs);
    connect(&m_reload, &QTimer::timeout, this, &HistoryView::load);
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(refreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &HistoryView::load);
    connect(m_dock, &HistoryDock::resourceChosen, this, &HistoryView::show);
}

QList<HolderEpisode> HistoryView::episodes(const ResourceHistory& history)
{
    QList<HolderEpisode> out;
    for (const Episode& e : history.episodes) {
        HolderEpisode h;
        h.token = e.token;
        h.owner = e.owner;
        h.from = QDateTime::fromMSecsSinceEpoch(e.startMs);
        if (e.endMs >= 0)
            h.to = QDateTime::fromMSecsSinceEpoch(e.endMs);
        h.end = endOf(e.ended);
        out << h;
    }
    return out;
}

void HistoryView::setRecording(const QString& path)
{
    m_path = path;
    load();
}

void HistoryView::review(const QString& path, const QByteArray& select)
{
    m_review = true;
    m_path = path;
    offGuiThread(
        this,
        [path] {
            RecordingReader reader;
            Result<QList<QByteArray>> resources =
                reader.open(path) ? Result<QList<QByteArray>>(QList<QByteArray>()) : reader.resources();
            return resources ? *resources : QList<QByteArray>();
        },
        [this, select](const QList<QByteArray>& resources) { resourcesRead(resources, select); });
}

void HistoryView::resourcesRead(const QList<QByteArray>& resources, const QByteArray& select)
{
    m_dock->setResources(resources);
    if (resources.isEmpty())
        return;
    const QByteArray first = resources.contains(select) ? select : resources.first();
    m_dock->chooseResource(first);
    show(first);
}

void HistoryView::show(const QByteArray& resource)
{
    if (m_review && resource.isEmpty())
        return; // review has no table selection: the dock's choice stays
    if (resource == m_resource)
        return liveChanged(resource); // the same lock changed: no need to read at once
    m_resource = resource;
    m_tracker->follow(resource);
    m_recorded.clear();
    m_sessions.clear();
    present();
    load();
}

void HistoryView::liveChanged(const QByteArray& resource)
{
    if (resource != m_resource)
        return;
    present();
    if (!m_path.isEmpty() && !m_reload.isActive())
        m_reload.start();
}

void HistoryView::load()
{
    const quint64 generation = ++m_generation;
    if (m_path.isEmpty() || m_resource.isEmpty())
        return;
    offGuiThread(
        this,
        [path = m_path, resource = m_resource] {
            std::pair<QList<HolderEpisode>, QList<RecordingSession>> out;
            RecordingReader reader;
            if (reader.open(path))
                return out; // nothing recorded yet (no file): only what this window saw
            if (Result<ResourceHistory> h = reader.history(resource))
                out = {episodes(*h), h->sessions};
            else if (Result<QList<RecordingSession>> sessions = reader.sessions())
                out.second = *sessions;
            return out;
        },
        [this, generation, resource = m_resource](const auto& read) {
            historyRead(generation, resource, read.first, read.second);
        });
}

void HistoryView::historyRead(quint64 generation, const QByteArray& resource,
                              const QList<HolderEpisode>& recorded, const QList<RecordingSession>& sessions)
{
    if (generation != m_generation || resource != m_resource)
        return; // a newer request is on its way
    m_recorded = recorded;
    m_sessions = sessions;
    present();
    if (!m_review)
        m_refresh.start();
    emit loaded(resource);
}

QList<HolderEpisode> HistoryView::shown() const
{
    // The recording has this window's own episodes too (once committed): what it lacks yet is
    // added from what the window saw, by token.
    QList<HolderEpisode> all = m_recorded;
    QSet<QByteArray> recordedTokens;
    for (const HolderEpisode& e : m_recorded)
        recordedTokens.insert(e.token);
    if (!m_review)
        for (const HolderEpisode& e : m_tracker->episodes(m_resource))
            if (!recordedTokens.contains(e.token))
                all << e;
    std::stable_sort(all.begin(), all.end(),
                     [](const HolderEpisode& a, const HolderEpisode& b) { return a.from < b.from; });
    return all;
}

void HistoryView::present()
{
    const QDateTime now = QDateTime::currentDateTime();
    m_dock->timeline()->setEpisodes(m_resource, shown(), m_review ? QDateTime() : m_tracker->openedAt(),
                                    WatchGap::between(m_sessions, now));
}

} // namespace lockscope
