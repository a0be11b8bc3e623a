// SPDX-License-Identifier: Apache-2.0
#include "notifications/lockdiagnosiswatch.h"

#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "connections/profilestore.h"
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogmodel.h"
#include "notifications/desktopnotifier.h"
#include "session/corethread.h"

#include <QDateTime>

namespace lockscope {

LockDiagnosisWatch::LockDiagnosisWatch(QObject* parent)
    : QObject(parent), m_notifier(new DesktopNotifier(this))
{
    qRegisterMetaType<DiagnosisFacts>();
    m_factsTimer.setInterval(factsIntervalMs);
    connect(&m_factsTimer, &QTimer::timeout, this, &LockDiagnosisWatch::requestFacts);
    m_tick.setInterval(tickMs);
    connect(&m_tick, &QTimer::timeout, this, &LockDiagnosisWatch::tick);
    m_tick.start();
    setRules(NotificationRules());
}

void LockDiagnosisWatch::setPane(LockDetailPane* pane)
{
    m_pane = pane;
    connect(pane, &LockDetailPane::viewChanged, this, [this] {
        showSelected();
        requestFacts(); // a newly selected lock: its waiters and owner now, not in a few seconds
    });
}

void LockDiagnosisWatch::setNotifier(DesktopNotifier* notifier)
{
    delete m_notifier;
    m_notifier = notifier;
    m_notifier->setParent(this);
}

void LockDiagnosisWatch::setRules(const NotificationRules& rules)
{
    m_rules.setRules(rules);
    m_context.settings.heldTooLongFactor = rules.heldTooLongFactor;
}

void LockDiagnosisWatch::setRulesFromProfile(const QString& profileName)
{
    for (const ConnectionProfile& p : ProfileStore::load())
        if (!profileName.isEmpty() && p.name == profileName) {
            setRules(p.notifications);
            return;
        }
    setRules(NotificationRules());
}

void LockDiagnosisWatch::attach(CoreThread* core)
{
    m_core = core;
    m_factsFor.clear();
    connect(core->service(), &CoreService::diagnosisRead, this, &LockDiagnosisWatch::onFacts);
    connect(core->service(), &CoreService::masterChanged, this, &LockDiagnosisWatch::observeMaster);
    m_factsTimer.start();
}

DiagnosisContext LockDiagnosisWatch::contextNow() const
{
    DiagnosisContext c = m_context;
    c.nowMs = QDateTime::currentMSecsSinceEpoch();
    c.monotonicNowMs = monotonicMs();
    return c;
}

QList<Diagnosis> LockDiagnosisWatch::diagnose(const LockView& view) const
{
    const DiagnosisFacts none;
    return LockDiagnosis::diagnose(view, m_tracker.story(view.key(), view.token),
                                   m_factsFor == view.resource ? m_facts : none, contextNow());
}

void LockDiagnosisWatch::observe(const LockBatch& batch)
{
    const qint64 wall = QDateTime::currentMSecsSinceEpoch();
    const qint64 mono = monotonicMs();
    m_tracker.observe(batch, wall, mono);
    QList<NotificationEvent> fired;
    for (const QList<SharedLockView>* views : {&batch.added, &batch.changed})
        for (const LockView& v : *views)
            fired << m_rules.evaluateLock(v.key(), diagnose(v), mono, v.token);
    for (const QByteArray& r : batch.removed)
        m_rules.lockGone(r, mono);
    raise(fired);
    showSelected();
}

void LockDiagnosisWatch::observeMaster(const MasterSnapshot& master)
{
    // Down is a failure (Down, or retrying after one); a first connection under way is not news,
    // and a master closed on purpose (another profile, the window closing) is not down.
    using State = RedisConnection::State;
    if (master.state == State::Connecting)
        return;
    const bool down = master.state == State::Down || master.state == State::Reconnecting;
    raise(m_rules.evaluateMaster(master.index, master.name, !down, master.error, monotonicMs()));
}

void LockDiagnosisWatch::requestFacts()
{
    if (!m_core || !m_pane || !m_pane->view())
        return;
    m_factsRequest = m_core->request(&CoreService::readDiagnosis, *m_pane->view());
}

void LockDiagnosisWatch::onFacts(quint64 request, const QByteArray& resource, const DiagnosisFacts& facts)
{
    if (request != m_factsRequest)
        return; // an answer for an earlier selection
    m_factsFor = resource;
    m_facts = facts;
    m_tracker.noteOwners(resource, facts, QDateTime::currentMSecsSinceEpoch());
    showSelected();
}

void LockDiagnosisWatch::showSelected()
{
    if (!m_pane || !m_pane->view())
        return;
    m_pane->setDiagnosis(m_pane->view()->resource, diagnose(*m_pane->view()));
}

void LockDiagnosisWatch::tick()
{
    raise(m_rules.tick(monotonicMs()));
    showSelected();
}

void LockDiagnosisWatch::raiseIncident(const SafetyIncident& incident)
{
    if (const std::optional<NotificationEvent> e = m_rules.incident(incident))
        raise({*e});
}

void LockDiagnosisWatch::raise(const QList<NotificationEvent>& events)
{
    if (events.isEmpty())
        return;
    QList<EventLogModel::Entry> entries;
    entries.reserve(events.size());
    const QDateTime now = QDateTime::currentDateTime();
    for (qsizetype i = 0; i < events.size(); ++i) {
        const NotificationEvent& e = events.at(i);
        entries.append(
            {now, EventLogModel::Kind::Notification,
             e.resource.isEmpty() ? m_context.masterNames.value(e.master) : escapeBytes(e.resource),
             tr("%1 — %2").arg(e.title, e.body)});
        if (i < maxDesktopNotificationsPerTick)
            m_notifier->notify(e.title, e.body);
        emit notified(e);
    }
    // Thousands at once (a million locks that hold a rule together) are one more notification, not
    // thousands on the user's desktop.
    if (events.size() > maxDesktopNotificationsPerTick) {
        const int more = int(events.size()) - maxDesktopNotificationsPerTick;
        m_notifier->notify(tr("%n more notification(s)", nullptr, more),
                           tr("The event log lists every one."));
    }
    // One insertion for the lot: one per notification made the event log's view take a removal
    // and an insertion each (seconds for a tick that fired for a million locks).
    if (m_events)
        m_events->addAll(entries);
}

} // namespace lockscope
