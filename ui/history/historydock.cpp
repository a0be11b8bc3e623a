// SPDX-License-Identifier: Apache-2.0
#include "history/historydock.h"

#include "history/historytimeline.h"
#include "history/recordedresourcesmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QListView>
#include <QPushButton>
#include <QVBoxLayout>

namespace lockscope {

HistoryDock::HistoryDock(QWidget* parent)
    : QDockWidget(tr("History"), parent), m_recorded(new RecordedResourcesModel(this))
{
    setObjectName(QStringLiteral("historyDock"));
    auto* box = new QWidget(this);
    m_timeline = new HistoryTimeline(box);
    m_resources = new QComboBox(box);
    m_resources->setObjectName(QStringLiteral("historyResources"));
    m_resources->setModel(m_recorded);
    // Sized by a typical name, not by measuring every one; the popup lays out only the rows it shows.
    m_resources->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_resources->setMinimumContentsLength(40);
    if (auto* list = qobject_cast<QListView*>(m_resources->view()))
        list->setUniformItemSizes(true);
    m_resources->setToolTip(tr("The resources in the recording"));
    m_resources->hide();
    connect(m_resources, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            emit resourceChosen(m_resources->itemData(index).toByteArray());
    });
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_resources);
    layout->addWidget(m_timeline, 1);
    auto* exportRow = new QHBoxLayout;
    auto* csv = new QPushButton(tr("Export CSV…"), box);
    auto* json = new QPushButton(tr("Export JSON…"), box);
    connect(csv, &QPushButton::clicked, this, [this] { emit exportRequested(false); });
    connect(json, &QPushButton::clicked, this, [this] { emit exportRequested(true); });
    exportRow->addStretch(1);
    exportRow->addWidget(csv);
    exportRow->addWidget(json);
    layout->addLayout(exportRow);
    setWidget(box);
}

void HistoryDock::setResources(const QList<QByteArray>& resources)
{
    const QSignalBlocker quiet(m_resources);
    m_recorded->setResources(resources);
    m_resources->setCurrentIndex(-1);
    m_resources->show();
}

void HistoryDock::chooseResource(const QByteArray& resource)
{
    const QSignalBlocker quiet(m_resources);
    m_resources->setCurrentIndex(m_recorded->rowOf(resource));
}

} // namespace lockscope
