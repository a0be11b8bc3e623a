// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"

#include <QHash>
#include <QPair>
#include <QStatusBar>

class QLabel;
class QProgressBar;
class QToolButton;

namespace lockscope {

class LockFilterProxy;
class LockTableModel;
class MasterTableModel;
class SteadyLabel;

// The window's status bar: the READ-ONLY badge, the lock counts by status, the scanned patterns,
// the initial scan's progress and how many masters are up.
class WindowStatusBar final : public QStatusBar
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowStatusBar)

public:
    explicit WindowStatusBar(QWidget* parent = nullptr);

    // A core (re)started: the badge as it says, the scan's progress from zero (hidden when there is
    // nothing to scan, and while no master is up: no "scanning 0%" for ever beside a master whose
    // password was refused).
    void setStarted(bool readOnly, bool production, bool anythingToScan);
    // One master's share of the initial scan; the bar shows the sum over all masters.
    void setScanProgress(int master, qint64 scanned, qint64 total);
    void setScanFinished();
    // A review of a recording: no master, no scan; it says what is shown instead.
    void setReview(const QString& text);
    // Progress reported by a previous core means nothing to the next one.
    void clearScanProgress() { m_progress.clear(); }
    void updateCounts(const LockTableModel& locks, const LockFilterProxy& proxy,
                      const MasterTableModel& masters, const QList<ScanPattern>& patterns);
    // Two holders at once found so far: `alerting` probable or proven ones, `all` with the possible
    // ones. Hidden while there is none; a click asks for the Incidents dock.
    void setIncidents(int alerting, int all);

signals:
    void incidentsClicked();

private:
    QLabel* m_readOnlyBadge;
    QToolButton* m_incidents;
    SteadyLabel* m_totals; // changes with every batch of locks: must not re-lay out the window
    SteadyLabel* m_mastersUp;
    QLabel* m_scanScope; // the patterns scanned, or which master's keys they all miss
    QProgressBar* m_progressBar;
    QHash<int, QPair<qint64, qint64>> m_progress; // master -> (keys scanned, keys in its database)
    bool m_scanning = false;                      // the initial scan has not finished
    bool m_anyMasterUp = false;
    bool m_review = false;
};

} // namespace lockscope
