#include "history/historytracker.h"

#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "export/csvfield.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <utility>

namespace lockscope {

HistoryTracker::HistoryTracker(QObject* parent) : QObject(parent) {}

void HistoryTracker::markForceReleased(const QByteArray& resource)
{
    if (keeps(resource))
        m_forceReleased.insert(resource); // the recording has its audit record otherwise
}

void HistoryTracker::setRecorded(bool recorded)
{
    m_recorded = recorded;
    if (!recorded)
        return;
    // Rebuilt rather than thinned: a table keeps the size of its largest day.
    QHash<ResourceKey, History> kept;
    if (auto it = m_history.constFind(ResourceKey(m_followed)); it != m_history.cend())
        kept.insert(it.key(), *it);
    m_history = std::move(kept);
    const bool forced = m_forceReleased.contains(m_followed);
    m_forceReleased = {};
    if (forced)
        m_forceReleased.insert(m_followed);
}

void HistoryTracker::follow(const QByteArray& resource)
{
    if (m_recorded && resource != m_followed) {
        m_history.remove(ResourceKey(m_followed));
        m_forceReleased.remove(m_followed);
    }
    m_followed = resource;
}

HolderEpisode::End HistoryTracker::endOf(const QByteArray& resource, const History& h, bool replaced) const
{
    if (m_forceReleased.contains(resource))
        return HolderEpisode::End::ForceReleased;
    if (h.atRisk)
        return HolderEpisode::End::LostOnRestart;
    const bool ranOut = h.deadlineMs >= 0 && h.deadlineMs - monotonicMs() <= expiryToleranceMs;
    if (ranOut)
        return HolderEpisode::End::Expired;
    return replaced ? HolderEpisode::End::Replaced : HolderEpisode::End::Released;
}

QList<HolderEpisode> HistoryTracker::episodes(const QByteArray& resource) const
{
    const auto it = m_history.constFind(ResourceKey(resource));
    if (it == m_history.cend())
        return {};
    QList<HolderEpisode> all = it->ended;
    if (it->open)
        all << HolderEpisode{it->token, it->owner, it->from, QDateTime(), HolderEpisode::End::Ongoing};
    return all;
}

void HistoryTracker::close(History& h, HolderEpisode::End end, const QDateTime& now)
{
    if (!h.open)
        return;
    h.ended << HolderEpisode{std::exchange(h.token, {}), std::exchange(h.owner, {}),
                             std::exchange(h.from, {}), now, end};
    h.open = false;
}

void HistoryTracker::see(const LockView& view, const QDateTime& now)
{
    History& h = m_history[ResourceKey(view.resource)];
    if (!h.open || h.token != view.token) {
        if (h.open) {
            close(h, endOf(view.resource, h, true), now);
            m_forceReleased.remove(view.resource);
        }
        h.token = view.token;
        h.owner = view.owner;
        h.from = now;
        h.open = true;
        if (h.ended.size() + 1 > maxEpisodesPerResource)
            h.ended.removeFirst();
    } else if (h.owner.isEmpty()) {
        h.owner = view.owner;
    }
    h.deadlineMs = view.validityMs < 0 ? -1 : view.computedAtMs + view.validityMs;
    h.atRisk = view.atRisk;
}

void HistoryTracker::observe(const LockBatch& batch, const QDateTime& now)
{
    for (const QByteArray& resource : batch.removed) {
        if (!keeps(resource))
            continue;
        auto it = m_history.find(ResourceKey(resource));
        if (it == m_history.end())
            continue;
        close(*it, endOf(resource, *it, false), now);
        m_forceReleased.remove(resource);
        emit changed(resource);
    }
    for (const QList<SharedLockView>* list : {&batch.added, &batch.changed}) {
        for (const LockView& v : *list) {
            if (!keeps(v.resource))
                continue;
            see(v, now);
            emit changed(v.resource);
        }
    }
}

QByteArray HistoryTracker::toCsv(const QByteArray& resource, const QList<HolderEpisode>& episodes)
{
    QString out = QStringLiteral("resource,token,owner,from,to,end\n");
    for (const HolderEpisode& e : episodes) {
        out += QStringList{csvField(escapeBytes(resource)),
                           csvField(escapeBytes(e.token)),
                           csvField(e.owner),
                           e.from.toString(Qt::ISODateWithMs),
                           e.to.isValid() ? e.to.toString(Qt::ISODateWithMs) : QString(),
                           csvField(HolderEpisode::endName(e.end))}
                   .join(QLatin1Char(','));
        out += QLatin1Char('\n');
    }
    return out.toUtf8();
}

QByteArray HistoryTracker::toJson(const QByteArray& resource, const QList<HolderEpisode>& episodes)
{
    QJsonArray list;
    for (const HolderEpisode& e : episodes) {
        QJsonObject o{{QStringLiteral("token"), escapeBytes(e.token)},
                      {QStringLiteral("owner"), e.owner},
                      {QStringLiteral("from"), e.from.toString(Qt::ISODateWithMs)},
                      {QStringLiteral("end"), HolderEpisode::endName(e.end)}};
        if (e.to.isValid())
            o.insert(QStringLiteral("to"), e.to.toString(Qt::ISODateWithMs));
        list << o;
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("resource"), escapeBytes(resource)},
                                     {QStringLiteral("holders"), list}})
        .toJson(QJsonDocument::Indented);
}

} // namespace lockscope
