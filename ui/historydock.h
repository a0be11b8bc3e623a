#pragma once

#include <QDockWidget>

namespace lockscope {

class HistoryTimeline;

// The History dock: the selected resource's holders on a timeline, with its CSV/JSON export
// buttons (the window does the saving: exportRequested).
class HistoryDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryDock)

public:
    explicit HistoryDock(QWidget* parent = nullptr);

    HistoryTimeline* timeline() const { return m_timeline; }

signals:
    void exportRequested(bool json);

private:
    HistoryTimeline* m_timeline;
};

} // namespace lockscope
