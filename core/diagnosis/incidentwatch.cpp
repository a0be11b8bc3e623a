// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/incidentwatch.h"

#include "diagnosis/doublegrantdetector.h"
#include "diagnosis/doublegrantscan.h"
#include "record/recordingreader.h"
#include "record/recordingsink.h"

#include <QDateTime>

#include <limits>

namespace lockscope {

namespace {

// How far back a suspect's story is read: the longest overlap worth telling begins within it.
constexpr qint64 lookBackMs = 60 * 60 * 1000;
// Suspects read per pass (those without a scan): after a failover every take is suspect for
// minutes, and a busy lock set would otherwise keep the watch reading all the time.
constexpr int maxReadsPerPass = 200;
// Suspects waiting beyond this are dropped (counted in unchecked()): `lockctl incidents` still
// finds what they held.
constexpr int maxQueued = 50000;
// How late a recorded event may reach the file: the recorder's batches (RecorderOptions'
// flushIntervalMs) and the commit.
constexpr qint64 commitWithinMs = 1000;

// With its confidence: a possible handover that the tracer's evidence later proves is told again,
// as proven.
QString keyOf(const SafetyIncident& i)
{
    return safetyIncidentIdentity(i) + QLatin1Char('/') + QString::number(int(i.confidence));
}

} // namespace

IncidentWatch::IncidentWatch(QString recordingPath, QString password, QObject* parent)
    : QObject(parent), m_path(std::move(recordingPath)), m_password(std::move(password)), m_pass(this)
{
    m_pass.setInterval(passIntervalMs);
    connect(&m_pass, &QTimer::timeout, this, [this] { check(maxReadsPerPass); });
}

IncidentWatch::~IncidentWatch() = default;

void IncidentWatch::follow(const RecordingSink* writer)
{
    connect(writer, &RecordingSink::committed, this, &IncidentWatch::onCommitted);
}

void IncidentWatch::onCommitted(const CommittedBatch& batch)
{
    m_scans.feed(batch);
    for (const QByteArray& resource : m_triggers.suspects(batch.events)) {
        if (m_queued.contains(resource) || m_scans.covers(resource))
            continue; // its scan has judged it already
        if (m_queue.size() >= maxQueued) {
            ++m_unchecked;
            continue;
        }
        m_queued.insert(resource);
        m_queue << resource;
    }
    noteLatest(batch);
    if ((!m_queue.isEmpty() || m_scans.offering()) && !m_pass.isActive())
        m_pass.start();
}

void IncidentWatch::noteLatest(const CommittedBatch& batch)
{
    if (m_queued.isEmpty())
        return;
    for (qsizetype i = 0; i < batch.events.size(); ++i)
        if (const QByteArray& resource = batch.events.at(i).resource; m_queued.contains(resource))
            m_latestIds.insert(resource, batch.firstId + i);
}

void IncidentWatch::recheck(const QByteArrayList& resources)
{
    for (const QByteArray& resource : resources) {
        if (m_queued.contains(resource))
            continue;
        if (m_queue.size() >= maxQueued) {
            ++m_unchecked;
            continue;
        }
        m_queued.insert(resource);
        m_queue << resource;
    }
    if (!m_queue.isEmpty() && !m_pass.isActive())
        m_pass.start();
}

void IncidentWatch::checkNow()
{
    check(int(qMin<qsizetype>(m_queue.size(), std::numeric_limits<int>::max())));
}

bool IncidentWatch::openReader()
{
    if (m_reader)
        return true;
    auto reader = std::make_unique<RecordingReader>();
    if (reader->open(m_path, m_password))
        return false;
    m_reader = std::move(reader);
    return true;
}

qint64 IncidentWatch::youngAfterMs()
{
    // An overlap seen a moment ago may still turn out a handover: the first holder's release can
    // be read, and committed, after the second's quorum (DoubleGrantScan::releaseSeenWithinMs). A
    // proven one is told once that has had time to come, not as a false alarm first.
    return QDateTime::currentMSecsSinceEpoch() - DoubleGrantScan::releaseSeenWithinMs - commitWithinMs;
}

bool IncidentWatch::tellUnlessYoung(const SafetyIncident& incident, qint64 youngAfterMs)
{
    if (incident.confidence != SafetyIncident::Confidence::Possible && incident.fromMs > youngAfterMs)
        return false;
    tell(incident);
    return true;
}

bool IncidentWatch::tell(const ResourceHistory& history)
{
    const qint64 youngAfter = youngAfterMs();
    bool heldBack = false;
    for (const SafetyIncident& i : DoubleGrantDetector::detect(history))
        heldBack = !tellUnlessYoung(i, youngAfter) || heldBack;
    return !heldBack;
}

void IncidentWatch::tell(const SafetyIncident& incident)
{
    const QString key = keyOf(incident);
    if (m_known.contains(key))
        return;
    m_known.insert(key);
    m_incidents << incident;
    emit found(incident);
}

void IncidentWatch::judgeAll()
{
    int read = 0;
    if (openReader()) {
        if (const Result<QList<QByteArray>> resources = m_reader->resources())
            read = int(resources->size());
        // One pass over the whole file (DoubleGrantDetector::detectAll), not a story per lock.
        if (const Result<QList<SafetyIncident>> all = DoubleGrantDetector::detectAll(*m_reader))
            for (const SafetyIncident& i : *all)
                tell(i);
    }
    emit judgedAll(read);
}

void IncidentWatch::check(int budget)
{
    const qint64 youngAfter = youngAfterMs();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto offered = [&](const SafetyIncident& i) { return tellUnlessYoung(i, youngAfter); };
    m_scans.offer(now, offered);
    m_scans.forget(now);
    if (!m_queue.isEmpty() && !openReader())
        return; // not there yet (the writer creates it): the next pass tries again
    const qint64 since = now - lookBackMs;
    QList<std::pair<QByteArray, qint64>> later; // judged again next pass, from the same latest event
    for (int n = 0; n < budget && !m_queue.isEmpty(); ++n) {
        const QByteArray resource = m_queue.takeFirst();
        m_queued.remove(resource);
        const qint64 latest = m_latestIds.take(resource);
        const Result<ResourceHistory> history =
            m_reader->history(resource, since, {}, latest > 0 ? latest : -1);
        ++m_reads;
        if (!history)
            continue;
        // What the story holds is told now; the followed session's part goes on in a scan (which
        // offers what was too young to tell). Without one, a story held back is read again.
        const bool toldAll = tell(*history);
        const bool followed = m_scans.covers(resource) || m_scans.begin(*history);
        if (!toldAll && !followed)
            later.append({resource, latest});
    }
    m_scans.offer(now, offered);
    for (const auto& [resource, latest] : std::as_const(later))
        if (!m_queued.contains(resource)) {
            m_queued.insert(resource);
            m_queue << resource;
            if (latest > 0)
                m_latestIds.insert(resource, latest);
        }
    if (m_queue.isEmpty() && !m_scans.offering())
        m_pass.stop();
    else if (!m_pass.isActive())
        m_pass.start();
}

} // namespace lockscope
