// SPDX-License-Identifier: Apache-2.0
#include "widgets/emptystate.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace lockscope {

EmptyState::EmptyState(QWidget* parent)
    : QWidget(parent), m_connect(new QPushButton(tr("&Connect…"), this)),
      m_demo(new QPushButton(tr("Start the &demo"), this))
{
    setObjectName(QStringLiteral("emptyState"));
    auto* title = new QLabel(tr("No masters to watch"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    title->setFont(big);
    title->setAlignment(Qt::AlignCenter);
    auto* text =
        new QLabel(tr("Connect to your Redis masters with a saved connection profile (Ctrl+K), or "
                      "try LockScope on the live Redlock demo: throw-away local masters and "
                      "clients that compete for locks. Nothing can be acquired until masters answer."),
                   this);
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignCenter);
    // Centred by the stretches around it; wide enough that its three lines are never clipped.
    text->setMinimumWidth(420);
    text->setMaximumWidth(560);
    m_connect->setDefault(true);
    m_connect->setToolTip(tr("Open a saved connection profile, or make one"));
    m_demo->setToolTip(tr("Start LockScope's Redlock demo on local throw-away masters"));
    connect(m_connect, &QPushButton::clicked, this, &EmptyState::connectRequested);
    connect(m_demo, &QPushButton::clicked, this, &EmptyState::demoRequested);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_connect);
    buttons->addWidget(m_demo);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(title);
    auto* centred = new QHBoxLayout;
    centred->addStretch(1);
    centred->addWidget(text, 3);
    centred->addStretch(1);
    layout->addLayout(centred);
    layout->addSpacing(12);
    layout->addLayout(buttons);
    layout->addStretch(2);
}

} // namespace lockscope
