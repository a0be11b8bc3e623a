// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/masterhealth.h"
#include "diagnosis/safetyincident.h"
#include "discovery/notificationmode.h"
#include "metrics/familyseries.h"
#include "monitor/locktable.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <functional>

namespace lockscope {

// One master entry as the metrics show it, read from the master set and the monitor at scrape time.
struct MasterSample
{
    QString name; // the redacted URL: never a password
    bool up = false;
    MasterHealth health; // latency, version, role, run_id, clock offset
    NotificationMode mode = NotificationMode::Unknown;
    double scanSeconds = -1; // the last full pass; -1 before the first
    quint64 restarts = 0;
    quint64 failovers = 0;
    quint64 failoverLostLocks = 0;
};

// Everything one scrape renders: the monitor's current view and the counters kept since start.
struct MetricsInput
{
    QList<MasterSample> masters;
    const LockTable* locks = nullptr;
    // Seconds since the lock was first seen with its current token; -1 when unknown.
    std::function<double(const LockView&)> ageSeconds;
    // Optional: visits the resources oldest first (first seen with their current token) until
    // `visit` returns false. With it, picking the oldest held locks for the per-lock series costs
    // about --max-lock-series look-ups instead of an age look-up for every lock.
    std::function<void(const std::function<bool(const QByteArray&)>& visit)> oldestFirst;
    // Optional: clients waiting for the lock, as last read (LockWaiterPoller); -1 when not known.
    // Asked only for the locks that get per-lock series.
    std::function<double(const LockView&)> waiters;
    qint64 nowMs = 0; // monotonic, for the validity count-down
    int maxLockSeries = 1000;
    quint64 acquisitions = 0;
    quint64 expirations = 0;
    quint64 releases = 0;
    quint64 forceReleases = 0;
    // How each family of locks behaves (FamilyActivity), at most its series limit plus "other".
    QList<FamilySeries> families;
    // Two holders at once found since start (IncidentWatch over the recording of --record), by
    // (kind, confidence) as numbers; without a recording the family is left out.
    bool incidentsWatched = false;
    QHash<QPair<int, int>, quint64> incidents;
    double lastScrapeSeconds = -1; // the previous scrape's rendering time; -1 before the first
    QString version;               // lockscope's
    QString qtVersion;
};

} // namespace lockscope
