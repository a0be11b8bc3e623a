#include "historydock.h"

#include "historytimeline.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace lockscope {

HistoryDock::HistoryDock(QWidget* parent) : QDockWidget(tr("History"), parent)
{
    setObjectName(QStringLiteral("historyDock"));
    auto* box = new QWidget(this);
    m_timeline = new HistoryTimeline(box);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
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

} // namespace lockscope
