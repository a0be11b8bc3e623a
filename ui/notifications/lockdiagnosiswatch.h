// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosis.h"
#include "diagnosis/lockstorytracker.h"
#include "diagnosis/notificationevaluator.h"
#include "eventlog/eventlogmodel.h"
#include "session/mastersnapshot.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lockscope {

class CoreThread;
class DesktopNotifier;
class LockDetailPane;

// The window's diagnosis: keeps every lock's story from the batches the table gets, asks the core
// thread every few seconds for the selected lock's waiters and owner connection, and puts the
// diagnosis sentences in the detail pane. It also evaluates the notification rules on every changed
// lock and master: a rule that starts to hold raises a desktop notification (once per lock and
// rule until it clears) and an event log line.
class LockDiagnosisWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockDiagnosisWatch)

public:
    static constexpr int factsIntervalMs = 3000; // waiters and CLIENT LIST of the selected lock
    static constexpr int tickMs = 1000;          // time-based diagnoses and rule delays

    explicit LockDiagnosisWatch(QObject* parent = nullptr);

    void setPane(LockDetailPane* pane);
    void setEventLog(EventLogModel* events) { m_events = events; }
    // The notifier (parented here); a silent one sends nothing (review of a recording).
    DesktopNotifier* notifier() const { return m_notifier; }
    void setNotifier(DesktopNotifier* notifier);
    void setRules(const NotificationRules& rules);
    // The rules of the named connection profile (the defaults for none).
    void setRulesFromProfile(const QString& profileName);
    void setMasterNames(const QStringList& names) { m_context.masterNames = names; }
    // The core whose masters the facts are read from, and whose master changes are watched.
    void attach(CoreThread* core);

    void observe(const LockBatch& batch);
    void observeMaster(const MasterSnapshot& master);

    const LockStoryTracker& tracker() const { return m_tracker; }
    // Notifications a tick sends to the desktop one by one; past them, one says how many more.
    static constexpr int maxDesktopNotificationsPerTick = 3;
    // Room for `locks` locks' stories (CoreService::locksForeseen).
    void reserve(qsizetype locks) { m_tracker.reserve(locks); }
    QList<Diagnosis> diagnose(const LockView& view) const;
    // A lock let two holders in at once: the double-grant rule's notification and event log line
    // (nothing for a possible incident or with the rule off).
    void raiseIncident(const SafetyIncident& incident);

signals:
    void notified(const lockscope::NotificationEvent& event);

private:
    void onFacts(quint64 request, const QByteArray& resource, const DiagnosisFacts& facts);
    void requestFacts();
    void showSelected();
    void tick();
    void raise(const QList<NotificationEvent>& events);
    DiagnosisContext contextNow() const;

    QPointer<LockDetailPane> m_pane;
    QPointer<EventLogModel> m_events;
    QPointer<CoreThread> m_core;
    DesktopNotifier* m_notifier;
    LockStoryTracker m_tracker;
    NotificationEvaluator m_rules;
    DiagnosisContext m_context;
    QByteArray m_factsFor; // the resource m_facts belong to
    DiagnosisFacts m_facts;
    quint64 m_factsRequest = 0;
    QTimer m_factsTimer;
    QTimer m_tick;
};

} // namespace lockscope
