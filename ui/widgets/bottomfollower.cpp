// SPDX-License-Identifier: Apache-2.0
#include "widgets/bottomfollower.h"

#include <QAbstractScrollArea>
#include <QScrollBar>

namespace lockscope {

BottomFollower::BottomFollower(QAbstractScrollArea* area) : QObject(area), m_bar(area->verticalScrollBar())
{
    // The value changes when the reader scrolls, and when a shrinking range pulls it down to the
    // bottom: at the bottom is following, anywhere above it is reading. (The views' own
    // relayouts set the value with the scroll bar's signals blocked.)
    connect(m_bar, &QScrollBar::valueChanged, this,
            [this](int value) { m_following = value >= m_bar->maximum(); });
    connect(m_bar, &QScrollBar::rangeChanged, this, [this](int, int) { follow(); });
}

void BottomFollower::follow()
{
    if (m_following)
        m_bar->setValue(m_bar->maximum());
}

} // namespace lockscope
