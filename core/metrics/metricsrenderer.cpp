// SPDX-License-Identifier: Apache-2.0
#include "metrics/metricsrenderer.h"

#include "base/bytesdisplay.h"
#include "metrics/metricstext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace lockscope {

namespace {

struct Family
{
    const char* name;
    const char* type;
    const char* help;
};

// Every family, in the order of the page. The names are the interface the shipped alert rules and
// dashboard depend on (tst_grafanadashboard and the promtool rule tests check them against this).
enum FamilyId
{
    BuildInfo,
    MasterUp,
    MasterLatency,
    MasterInfo,
    MasterClockOffset,
    MasterNotifications,
    MasterRestarts,
    Failovers,
    FailoverLostLocks,
    ScanDuration,
    Locks,
    LockTtl,
    LockAge,
    LockQuorumHolding,
    LockQuorumNeeded,
    LockNoExpiry,
    LockWaiters,
    LockSeriesDropped,
    LockSeriesLimit,
    Acquisitions,
    Expirations,
    Releases,
    ForceReleases,
    HoldSeconds,
    Endings,
    Headroom,
    SafetyIncidents,
    ScrapeDuration,
    HttpRefused,
    HttpOpen,
    HttpThrottled,
    PageAge,
    FamilyCount
};

const Family families[FamilyCount] = {
    {"lockscope_build_info", "gauge", "LockScope build: version and Qt version (always 1)."},
    {"lockscope_master_up", "gauge", "1 when the master entry is connected, 0 when it is not."},
    {"lockscope_master_latency_seconds", "gauge", "Round trip of the last health PING to the master."},
    {"lockscope_master_info", "gauge", "The master's version, role and run_id (always 1)."},
    {"lockscope_master_clock_offset_seconds", "gauge",
     "The master's clock (TIME) minus this host's clock, at the middle of the round trip."},
    {"lockscope_master_notifications", "gauge",
     "1 when keyspace notifications keep the master's part of the view live, 0 when it is polled."},
    {"lockscope_master_restarts_total", "counter",
     "Restarts of the master (its run_id changed) seen since the service started."},
    {"lockscope_failovers_total", "counter",
     "Primary changes of a Sentinel or cluster entry seen since the service started."},
    {"lockscope_failover_lost_locks_total", "counter",
     "Unexpired locks a failover lost (or that the new primary holds under another token)."},
    {"lockscope_scan_duration_seconds", "gauge", "Duration of the master's last full scan pass."},
    {"lockscope_locks", "gauge", "Locks by quorum status across all masters."},
    {"lockscope_lock_ttl_seconds", "gauge",
     "Validity left: the shortest expiry of the holding masters, minus clock drift (no series when there is "
     "no expiry)."},
    {"lockscope_lock_age_seconds", "gauge",
     "Time since this service first saw the lock with its current token (locks found at start count from "
     "then)."},
    {"lockscope_lock_quorum_holding", "gauge", "Masters holding the lock's most common token."},
    {"lockscope_lock_quorum_needed", "gauge", "Masters needed for a quorum (N/2+1)."},
    {"lockscope_lock_no_expiry", "gauge", "1 when a holding master has the lock without any expiry."},
    {"lockscope_lock_waiters", "gauge", "Clients waiting for the lock, for formats that record them."},
    {"lockscope_lock_series_dropped", "gauge",
     "Locks left without per-lock series by --max-lock-series (they still count in lockscope_locks)."},
    {"lockscope_lock_series_limit", "gauge", "The per-lock series limit (--max-lock-series)."},
    {"lockscope_lock_acquisitions_observed_total", "counter",
     "Locks seen appearing or changing token after the first full discovery."},
    {"lockscope_lock_expirations_total", "counter", "Locks that disappeared when their expiry came."},
    {"lockscope_lock_releases_observed_total", "counter",
     "Locks that disappeared before their expiry (released)."},
    {"lockscope_lock_force_releases_total", "counter",
     "Stuck locks that disappeared: a lock without expiry only goes when somebody deletes it."},
    {"lockscope_lock_hold_seconds", "histogram",
     "How long holders kept their locks, by family of locks (order:1234 -> order:*): tenures seen from "
     "their acquisition to their release (an expiry says how long a lock was let, not held)."},
    {"lockscope_lock_endings_total", "counter",
     "How tenures ended, by family of locks: released, expired, force-released, or replaced by another "
     "token with no release or expiry seen."},
    {"lockscope_lock_lease_headroom_ratio", "gauge",
     "p99 of a family's latest holds over the median lease they were taken with: near 1, a pause or a "
     "slow call expires the lock under its holder."},
    {"lockscope_lock_safety_incidents_total", "counter",
     "Times a lock let two holders in at once, found from the recording since the service started (with "
     "--record), by kind and confidence."},
    {"lockscope_scrape_duration_seconds", "gauge", "Time the previous scrape took to render."},
    {"lockscope_http_connections_refused_total", "counter",
     "HTTP connections closed before any route or password check ran, by the limit they went past."},
    {"lockscope_http_connections_open", "gauge", "HTTP connections open now, this scrape's included."},
    {"lockscope_http_password_checks_throttled_total", "counter",
     "Requests answered 429 without checking their password: the address (or all addresses together) "
     "had used up its password checks."},
    {"lockscope_metrics_age_seconds", "gauge",
     "How old this page's values are: 0 when computed for this scrape, more when the monitor was too "
     "busy to answer in time and its last page was served."},
};

void begin(MetricsText& out, FamilyId id)
{
    out.family(families[id].name, families[id].type, QString::fromUtf8(families[id].help));
}

// Which locks get per-lock series first: the lower, the sooner. Indexed by LockStatus.
constexpr int severityOf[] = {/*Held*/ 4, /*Partial*/ 2, /*Contested*/ 1, /*Stuck*/ 0, /*Unknown*/ 3};
static_assert(int(LockStatus::Held) == 0 && int(LockStatus::Partial) == 1 &&
              int(LockStatus::Contested) == 2 && int(LockStatus::Stuck) == 3 &&
              int(LockStatus::Unknown) == 4);

int severity(LockStatus status)
{
    return severityOf[int(status)];
}

struct Ranked
{
    int severity;
    double age;
    const LockView* view;
};

void renderMasters(MetricsText& out, const QList<MasterSample>& masters)
{
    auto perMaster = [&](FamilyId id, auto value) {
        begin(out, id);
        for (const MasterSample& m : masters)
            if (const double v = value(m); !std::isnan(v)) // NaN: no sample for this master
                out.sample(families[id].name, {{"master", m.name}}, v);
    };
    const double none = std::numeric_limits<double>::quiet_NaN();
    perMaster(MasterUp, [](const MasterSample& m) { return m.up ? 1.0 : 0.0; });
    perMaster(MasterLatency, [&](const MasterSample& m) {
        return m.health.latencyMs >= 0 ? m.health.latencyMs / 1000 : none;
    });
    begin(out, MasterInfo);
    for (const MasterSample& m : masters)
        if (!m.health.version.isEmpty() || !m.health.runId.isEmpty())
            out.sample(families[MasterInfo].name,
                       {{"master", m.name},
                        {"version", escapeBytes(m.health.version.toUtf8())},
                        {"server", escapeBytes(m.health.server.toUtf8())},
                        {"redis_version", escapeBytes(m.health.redisVersion.toUtf8())},
                        {"role", escapeBytes(m.health.role.toUtf8())},
                        {"run_id", escapeBytes(m.health.runId)}},
                       1);
    perMaster(MasterClockOffset, [&](const MasterSample& m) {
        return m.health.clockOffsetKnown ? double(m.health.clockOffsetMs) / 1000 : none;
    });
    perMaster(MasterNotifications, [&](const MasterSample& m) {
        return m.mode == NotificationMode::Unknown ? none : m.mode == NotificationMode::Live ? 1.0 : 0.0;
    });
    perMaster(MasterRestarts, [](const MasterSample& m) { return double(m.restarts); });
    perMaster(Failovers, [](const MasterSample& m) { return double(m.failovers); });
    perMaster(FailoverLostLocks, [](const MasterSample& m) { return double(m.failoverLostLocks); });
    perMaster(ScanDuration, [&](const MasterSample& m) { return m.scanSeconds >= 0 ? m.scanSeconds : none; });
}

void renderLocks(MetricsText& out, const MetricsInput& in)
{
    static const LockTable noLocks;
    const LockTable& locks = in.locks ? *in.locks : noLocks;

    constexpr LockStatus statuses[] = {LockStatus::Held, LockStatus::Partial, LockStatus::Contested,
                                       LockStatus::Stuck, LockStatus::Unknown};
    const size_t keep = std::min(size_t(locks.size()), size_t(std::max(0, in.maxLockSeries)));
    const auto ageOf = [&in](const LockView& v) { return in.ageSeconds ? in.ageSeconds(v) : -1.0; };
    // Held locks are the many: with oldestFirst they are picked in age order below, without an age
    // look-up each; the others (usually few) are ranked here.
    const bool heldByAge = bool(in.oldestFirst);
    qint64 counts[5] = {};
    std::vector<Ranked> ranked;
    for (const LockView& v : locks) {
        ++counts[int(v.status)];
        if (!heldByAge || v.status != LockStatus::Held)
            ranked.push_back({severity(v.status), ageOf(v), &v});
    }
    begin(out, Locks);
    for (LockStatus s : statuses)
        out.sample(families[Locks].name, {{"status", lockStatusName(s)}}, double(counts[int(s)]));

    // The worst locks first, the oldest of equals first; the resource breaks ties so that a
    // series does not flap between scrapes.
    const auto worse = [](const Ranked& a, const Ranked& b) {
        if (a.severity != b.severity)
            return a.severity < b.severity;
        if (a.age != b.age)
            return a.age > b.age;
        return a.view->resource < b.view->resource;
    };
    const size_t ranks = std::min(ranked.size(), keep);
    std::partial_sort(ranked.begin(), ranked.begin() + qsizetype(ranks), ranked.end(), worse);
    ranked.resize(ranks);
    if (heldByAge && ranked.size() < keep) {
        size_t wanted = keep - ranked.size();
        in.oldestFirst([&](const QByteArray& resource) {
            const SharedLockView* view = locks.find(resource);
            if (!view || (*view)->status != LockStatus::Held)
                return true;
            ranked.push_back({severity((*view)->status), ageOf(**view), &view->view()});
            return --wanted > 0;
        });
    }
    std::sort(ranked.begin(), ranked.end(),
              [](const Ranked& a, const Ranked& b) { return a.view->resource < b.view->resource; });

    std::vector<MetricsText::Labels> labels;
    labels.reserve(ranked.size());
    for (const Ranked& r : ranked)
        labels.push_back({{"resource", escapeBytes(r.view->resource)},
                          {"format", lockFormatName(r.view->format)},
                          {"status", lockStatusName(r.view->status)}});

    const auto perLock = [&](FamilyId id, auto value) {
        begin(out, id);
        for (size_t i = 0; i < ranked.size(); ++i)
            if (const double v = value(*ranked[i].view, ranked[i].age); !std::isnan(v))
                out.sample(families[id].name, labels[i], v);
    };
    const double none = std::numeric_limits<double>::quiet_NaN();
    perLock(LockTtl, [&](const LockView& v, double) {
        const qint64 left = v.validityAt(in.nowMs);
        return left < 0 ? none : double(left) / 1000;
    });
    perLock(LockAge, [&](const LockView&, double age) { return age < 0 ? none : age; });
    perLock(LockQuorumHolding, [](const LockView& v, double) { return double(v.holding); });
    perLock(LockQuorumNeeded, [](const LockView& v, double) { return double(v.needed); });
    perLock(LockNoExpiry, [](const LockView& v, double) {
        for (int h : v.holders)
            if (h < v.observations.size() && v.observations.at(h).present() &&
                !v.observations.at(h).hasExpiry())
                return 1.0;
        return 0.0;
    });
    // Only where the layout records them (Redisson), read apart from the scrape: no sample otherwise.
    perLock(LockWaiters, [&](const LockView& v, double) {
        const double waiting = in.waiters ? in.waiters(v) : -1;
        return waiting < 0 ? none : waiting;
    });
    begin(out, LockSeriesDropped);
    out.sample(families[LockSeriesDropped].name, double(locks.size() - qsizetype(ranked.size())));
    begin(out, LockSeriesLimit);
    out.sample(families[LockSeriesLimit].name, double(in.maxLockSeries));
}

// The families of locks (issue #44): every family with its series, "other" last when there is one.
void renderFamilies(MetricsText& out, const QList<FamilySeries>& lockFamilies)
{
    begin(out, HoldSeconds);
    const QByteArray hold = families[HoldSeconds].name;
    for (const FamilySeries& f : lockFamilies) {
        const QString family = escapeBytes(f.family);
        quint64 cumulative = 0;
        for (size_t b = 0; b < f.buckets.size(); ++b) {
            cumulative += f.buckets[b];
            const QString le =
                b < FamilySeries::bucketBounds.size()
                    ? QString::fromLatin1(MetricsText::formatValue(FamilySeries::bucketBounds[b]))
                    : QStringLiteral("+Inf");
            out.sample(hold + "_bucket", {{"family", family}, {"le", le}}, double(cumulative));
        }
        out.sample(hold + "_sum", {{"family", family}}, f.holdSecondsSum);
        out.sample(hold + "_count", {{"family", family}}, double(f.holds));
    }
    begin(out, Endings);
    for (const FamilySeries& f : lockFamilies)
        for (int how = 0; how < FamilySeries::EndingCount; ++how)
            out.sample(families[Endings].name,
                       {{"family", escapeBytes(f.family)},
                        {"how", QString::fromLatin1(FamilySeries::endingLabel(FamilySeries::Ending(how)))}},
                       double(f.endings[size_t(how)]));
    begin(out, Headroom);
    for (const FamilySeries& f : lockFamilies)
        if (f.headroom >= 0)
            out.sample(families[Headroom].name, {{"family", escapeBytes(f.family)}}, f.headroom);
}

} // namespace

QByteArray MetricsRenderer::render(const MetricsInput& in)
{
    MetricsText out;
    begin(out, BuildInfo);
    out.sample(families[BuildInfo].name, {{"version", in.version}, {"qt_version", in.qtVersion}}, 1);
    renderMasters(out, in.masters);
    renderLocks(out, in);
    const auto counter = [&](FamilyId id, quint64 value) {
        begin(out, id);
        out.sample(families[id].name, double(value));
    };
    counter(Acquisitions, in.acquisitions);
    counter(Expirations, in.expirations);
    counter(Releases, in.releases);
    counter(ForceReleases, in.forceReleases);
    renderFamilies(out, in.families);
    if (in.incidentsWatched) {
        // Every kind and confidence, zeros too: an alert on increase() needs the series before
        // the first incident.
        begin(out, SafetyIncidents);
        for (SafetyIncident::Kind kind : allSafetyIncidentKinds())
            for (SafetyIncident::Confidence confidence :
                 {SafetyIncident::Confidence::Possible, SafetyIncident::Confidence::Probable,
                  SafetyIncident::Confidence::Proven})
                out.sample(families[SafetyIncidents].name,
                           {{"kind", safetyIncidentKindName(kind)},
                            {"confidence", safetyConfidenceName(confidence)}},
                           double(in.incidents.value({int(kind), int(confidence)})));
    }
    if (in.lastScrapeSeconds >= 0) {
        begin(out, ScrapeDuration);
        out.sample(families[ScrapeDuration].name, in.lastScrapeSeconds);
    }
    return out.text();
}

QByteArray MetricsRenderer::pageAge(double seconds)
{
    MetricsText out;
    begin(out, PageAge);
    out.sample(families[PageAge].name, seconds);
    return out.text();
}

QByteArray MetricsRenderer::httpGuard(const HttpGuardCounts& counts)
{
    MetricsText out;
    begin(out, HttpRefused);
    for (int r = 0; r < HttpGuardCounts::ReasonCount; ++r)
        out.sample(
            families[HttpRefused].name,
            {{"reason", QString::fromLatin1(HttpGuardCounts::reasonLabel(HttpGuardCounts::Reason(r)))}},
            double(counts.refused[r]));
    begin(out, HttpOpen);
    out.sample(families[HttpOpen].name, counts.open);
    begin(out, HttpThrottled);
    out.sample(families[HttpThrottled].name, double(counts.passwordChecksThrottled));
    return out.text();
}

QByteArrayList MetricsRenderer::familyNames()
{
    QByteArrayList names;
    for (const Family& f : families)
        names << f.name;
    return names;
}

} // namespace lockscope
