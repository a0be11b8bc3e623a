// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosis.h"
#include "monitor/lockview.h"

#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <optional>

class QLabel;
class QScrollArea;
class QSplitter;
class QTableWidget;

namespace lockscope {

class QuorumDiagram;

// Everything about the selected lock: the verdict and who holds it, the quorum diagram, and what
// each master holds (token, PTTL, type, decoded owner, re-entry count, semaphore holders, errors).
// Masters are labelled M1..Mn as in the diagram, their URL in the tooltip. The validity and the
// PTTLs count down from the time of the read, like the locks table's TTL, and every new
// observation replaces them. The content scrolls, so the pane itself can be made small.
class LockDetailPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockDetailPane)

public:
    enum Column
    {
        MasterColumn,
        TokenColumn,
        PttlColumn,
        TypeColumn,
        OwnerColumn,
        ReentryColumn,
        SemaphoreColumn,
        ErrorColumn,
        ColumnCount
    };

    explicit LockDetailPane(QWidget* parent = nullptr);

    static constexpr int tickMs = 100;

    void setMasterNames(const QStringList& names) { m_names = names; }
    void setView(const std::optional<LockView>& view);
    // The selected lock went away (released or expired): nothing is selected any more.
    void setGone(const QByteArray& resource);
    // Why `resource` may be stuck, one sentence each (nothing shown when the list is empty).
    // Ignored unless `resource` is the lock shown; a new lock clears it.
    void setDiagnosis(const QByteArray& resource, const QList<Diagnosis>& diagnoses);
    QLabel* diagnosisLabel() const { return m_diagnosis; }
    // The times the recording shows `resource` held by two holders at once, one line each (nothing
    // shown when there is none). Ignored unless `resource` is the lock shown; a new lock clears it.
    void setIncidents(const QByteArray& resource, const QStringList& lines);
    QLabel* incidentsLabel() const { return m_incidents; }
    const QList<Diagnosis>& diagnoses() const { return m_diagnoses; }
    const std::optional<LockView>& view() const { return m_view; }
    QTableWidget* mastersTable() const { return m_table; }
    QuorumDiagram* diagram() const { return m_diagram; }
    QLabel* titleLabel() const { return m_title; }
    QLabel* summaryLabel() const { return m_summary; }
    // "validity 12.3 s" beside the title, on one line (a number is never parted from its unit).
    QLabel* validityLabel() const { return m_validityLabel; }
    // The validity shown now ("12.3 s"), empty without a lock or an expiry.
    QString validityText() const { return m_validity; }

    QSize minimumSizeHint() const override;

signals:
    // Another lock (or none) is shown now.
    void viewChanged(const QByteArray& resource);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refreshTimes();
    void fitColumns(const QList<bool>& used);
    QString summaryText(const LockView& view) const;
    void showValidity(const LockView& view, qint64 nowMs);

    std::optional<LockView> m_view;
    QStringList m_names;
    QString m_validity;
    QLabel* m_title;
    QLabel* m_summary;
    QLabel* m_validityLabel;
    QLabel* m_diagnosis;
    QLabel* m_incidents;
    QList<Diagnosis> m_diagnoses;
    QuorumDiagram* m_diagram;
    QTableWidget* m_table;
    QSplitter* m_split = nullptr;
    QScrollArea* m_scroll = nullptr;
    QTimer m_tick;
};

} // namespace lockscope
