#pragma once

#include "lockview.h"

#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QTableWidget;

namespace lockscope {

class QuorumDiagram;

// Everything about the selected lock: the verdict and who holds it, the quorum diagram, and what
// each master holds (token, PTTL, type, decoded owner, re-entry count, semaphore holders, errors).
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

    void setMasterNames(const QStringList& names) { m_names = names; }
    void setView(const std::optional<LockView>& view);
    const std::optional<LockView>& view() const { return m_view; }
    QTableWidget* mastersTable() const { return m_table; }
    QuorumDiagram* diagram() const { return m_diagram; }

private:
    std::optional<LockView> m_view;
    QStringList m_names;
    QLabel* m_title;
    QLabel* m_summary;
    QuorumDiagram* m_diagram;
    QTableWidget* m_table;
};

} // namespace lockscope
