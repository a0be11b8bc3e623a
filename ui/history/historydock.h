// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QComboBox;

namespace lockscope {

class HistoryTimeline;
class RecordedResourcesModel;

// The History dock: the selected resource's holders on a timeline, with its CSV/JSON export
// buttons (the window does the saving: exportRequested). In review of a recording there is no
// table to select from: a list of the recorded resources appears above the timeline.
class HistoryDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryDock)

public:
    explicit HistoryDock(QWidget* parent = nullptr);

    HistoryTimeline* timeline() const { return m_timeline; }
    QComboBox* resources() const { return m_resources; }
    // Shows the list of resources to choose from (escaped as everywhere).
    void setResources(const QList<QByteArray>& resources);
    void chooseResource(const QByteArray& resource);

signals:
    void exportRequested(bool json);
    void resourceChosen(const QByteArray& resource);

private:
    HistoryTimeline* m_timeline;
    RecordedResourcesModel* m_recorded;
    QComboBox* m_resources;
};

} // namespace lockscope
