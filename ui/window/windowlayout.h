// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

class QDockWidget;
class QHeaderView;
class QMainWindow;
class QSplitter;
class QTreeView;

namespace lockscope {

class LockFilterProxy;

// Where the window's docks, toolbars, central splitter and column headers are, kept in the
// settings between runs (under `group`: the demo's apart from normal sessions'), and the
// arrangement as built, for View > Reset layout.
class WindowLayout final
{
    Q_DISABLE_COPY_MOVE(WindowLayout)

public:
    struct Parts
    {
        QMainWindow* window = nullptr;
        QSplitter* split = nullptr; // the locks table above the detail pane
        QHeaderView* locksHeader = nullptr;
        LockFilterProxy* proxy = nullptr; // sorted as the restored header says
        QTreeView* masters = nullptr;
        QDockWidget* mastersDock = nullptr;
        QDockWidget* eventsDock = nullptr;
    };

    explicit WindowLayout(const Parts& parts) : m(parts) {}

    void setGroup(const QString& group) { m_group = group; }
    // The first time the window is shown: remembers the arrangement as built, then restores the
    // saved one. Later calls do nothing.
    void restoreOnce();
    // Nothing to save for a window that was never shown.
    bool isRestored() const { return m_restored; }
    void save();
    void reset();
    // `lockscope --db FILE`: the recorded story is what a review is for, so `history` takes the
    // window; the live table, the masters and the event log have nothing to show. Kept apart from
    // live sessions' layout (group "review").
    void arrangeForReview(QDockWidget* history);

private:
    void applyDefaultDockSizes();

    Parts m;
    QString m_group;      // settings group: "" normally, "demo" in the demo
    QByteArray m_default; // docks and toolbars as built, before a saved layout was restored
    bool m_restored = false;
};

} // namespace lockscope
