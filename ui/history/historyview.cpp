// SPDX-License-Identifier: Apache-2.0
#include "history/historyview.h"

#include "diagnosis/historyreport.h"
#include "diagnosis/recordedstory.h"
#include "history/historydock.h"
#include "history/historytimeline.h"
#include "record/historycsv.h"
#include "record/livehistory.h"
#include "record/recordingreader.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QPointer>
#include <QSet>
#include <QThreadPool>

#include <algorithm>

namespace lockscope {

namespace {

constexpr int reloadDelayMs = 700; // the recorder commits every 400 ms; changes come in bursts
// While a lock is shown, its recording is read again this often: the window follows only the shown
// lock itself (LiveHistory), and what the recorder saw of it can reach the file later than this
// window's own view of it (a loaded machine, a commit under way as it was selected).
constexpr int refreshMs = 2000;
// A session not ended whose recorder wrote this recently is being recorded now: a recorder moves
// its session's end every second even when nothing changes (RecordingSink's heartbeat).
constexpr qint64 stillRecordingWithinMs = 5000;

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

HistoryView::HistoryView(LiveHistory* live, HistoryDock* dock, QObject* parent)
    : QObject(parent), m_live(live), m_dock(dock)
{
    m_reload.setSingleShot(true);
    m_reload.setInterval(reloadDelayMs);
    connect(&m_reload, &QTimer::timeout, this, &HistoryView::load);
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(refreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &HistoryView::load);
    connect(m_dock, &HistoryDock::resourceChosen, this, &HistoryView::show);
}

void HistoryView::setRecording(const QString& path, const QString& password)
{
    m_path = path;
    m_password = password;
    load();
}

void HistoryView::setMasters(const QStringList& masters)
{
    if (masters == m_masters)
        return;
    m_masters = masters;
    load();
}

void HistoryView::review(const QString& path, const QByteArray& select, const QString& password)
{
    m_review = true;
    m_path = path;
    m_password = password;
    m_select = select;
    readResources();
}

void HistoryView::readResources()
{
    offGuiThread(
        this,
        [path = m_path, password = m_password] {
            RecordingReader reader;
            Result<QList<QByteArray>> resources = reader.open(path, password)
                                                      ? Result<QList<QByteArray>>(QList<QByteArray>())
                                                      : reader.resources();
            return resources ? *resources : QList<QByteArray>();
        },
        [this](const QList<QByteArray>& resources) { resourcesRead(resources, m_select); });
}

void HistoryView::recordingCommitted(const QByteArrayList& resources, bool masterEvents, bool all)
{
    m_told = true;
    m_refresh.stop();
    if (m_review && (all || std::any_of(resources.cbegin(), resources.cend(),
                                        [this](const QByteArray& r) { return !m_listed.contains(r); })))
        readResources();
    if (all || masterEvents || resources.contains(m_resource))
        load();
}

void HistoryView::resourcesRead(const QList<QByteArray>& resources, const QByteArray& select)
{
    m_listed = QSet<QByteArray>(resources.cbegin(), resources.cend());
    if (resources.isEmpty()) {
        m_dock->setResources(resources);
        return;
    }
    // Read again while one is shown (a team database's new resources): that one stays.
    const QByteArray first = resources.contains(m_resource) ? m_resource
                             : resources.contains(m_chosen) ? m_chosen
                             : resources.contains(select)   ? select
                                                            : resources.first();
    m_dock->setResources(resources);
    m_dock->chooseResource(first);
    show(first);
}

void HistoryView::choose(const QByteArray& resource)
{
    m_chosen = resource;
    m_dock->chooseResource(resource);
    show(resource);
}

void HistoryView::show(const QByteArray& resource)
{
    if (m_review && resource.isEmpty())
        return; // review has no table selection: the dock's choice stays
    if (resource == m_resource)
        return liveChanged(resource); // the same lock changed: no need to read at once
    m_resource = resource;
    m_live->follow(resource);
    m_recorded = ResourceHistory();
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
        [path = m_path, password = m_password, resource = m_resource, masters = m_masters] {
            ResourceHistory out;
            out.resource = resource;
            RecordingReader reader;
            if (reader.open(path, password))
                return out; // nothing recorded yet (no file): only what this window saw
            if (Result<ResourceHistory> h = reader.history(resource, -1, masters))
                out = *h;
            else if (Result<QList<RecordingSession>> sessions = reader.sessions())
                out.sessions = *sessions;
            return out;
        },
        [this, generation](const ResourceHistory& read) { historyRead(generation, read); });
}

void HistoryView::historyRead(quint64 generation, const ResourceHistory& recorded)
{
    if (generation != m_generation || recorded.resource != m_resource)
        return; // a newer request is on its way
    m_recorded = recorded;
    present();
    if (!m_review && !m_told)
        m_refresh.start();
    emit loaded(recorded.resource);
}

QList<Episode> HistoryView::shown() const
{
    // The recording has this window's own episodes too (once committed): what it lacks yet is
    // added from what the window saw, by token.
    QList<Episode> all = m_recorded.episodes;
    QSet<QByteArray> recordedTokens;
    for (const Episode& e : m_recorded.episodes)
        recordedTokens.insert(e.token);
    if (!m_review)
        for (const Episode& e : m_live->episodes(m_resource))
            if (!recordedTokens.contains(e.token))
                all << e;
    std::stable_sort(all.begin(), all.end(),
                     [](const Episode& a, const Episode& b) { return a.startMs < b.startMs; });
    return all;
}

QByteArray HistoryView::exported(bool json) const
{
    ResourceHistory history = m_recorded;
    history.resource = m_resource;
    history.episodes = shown();
    if (!json)
        return historyCsv(m_resource, history.episodes);
    // What the recording says, as `lockctl history` would: the window's own episodes that it does
    // not have yet come without the events a story is told from.
    DiagnosisContext words;
    words.nowMs = QDateTime::currentMSecsSinceEpoch();
    const QList<Diagnosis> diagnoses = RecordedStory::diagnose(m_recorded, words);
    return QJsonDocument(historyReportJson(history, diagnoses)).toJson(QJsonDocument::Indented);
}

void HistoryView::present()
{
    const QDateTime now = QDateTime::currentDateTime();
    const QDateTime since = m_review ? QDateTime() : QDateTime::fromMSecsSinceEpoch(m_live->openedAtMs());
    // A review ends where its recording does; the window's own history goes on until now, and so
    // does a recording that a recorder is still writing (a team database, or this host's file):
    // its open episodes are held, not "held when the recording stopped".
    QDateTime recordedUntil;
    const auto recording = [&now](const RecordingSession& s) {
        return s.endedMs < 0 && now.toMSecsSinceEpoch() - s.lastMs < stillRecordingWithinMs;
    };
    if (m_review && std::none_of(m_recorded.sessions.cbegin(), m_recorded.sessions.cend(), recording))
        for (const RecordingSession& s : std::as_const(m_recorded.sessions))
            if (const qint64 last = qMax(s.lastMs, s.endedMs);
                !recordedUntil.isValid() || last > recordedUntil.toMSecsSinceEpoch())
                recordedUntil = QDateTime::fromMSecsSinceEpoch(last);
    m_dock->timeline()->setEpisodes(m_resource, shown(), since, WatchGap::between(m_recorded.sessions, now),
                                    recordedUntil);
    m_dock->timeline()->setEvents(m_recorded.events);
}

} // namespace lockscope
