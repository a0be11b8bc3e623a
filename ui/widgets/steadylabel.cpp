// SPDX-License-Identifier: Apache-2.0
#include "widgets/steadylabel.h"

#include <QEvent>

namespace lockscope {

namespace {
// Spare room when the label grows, in average character widths.
constexpr int spareCharacters = 6;
} // namespace

SteadyLabel::SteadyLabel(QWidget* parent) : QLabel(parent) {}

void SteadyLabel::setSteadyText(const QString& text)
{
    if (text == this->text())
        return;
    // With a fixed size (minimum equal to maximum) QWidget::updateGeometry, which setText calls,
    // does not invalidate the parent's layout: that is what keeps the window's layout out of it.
    setText(text);
    fit(false);
}

void SteadyLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fit(true);
}

void SteadyLabel::fit(bool shrink)
{
    const QSize needed = sizeHint();
    const bool fixed = minimumSize() == maximumSize();
    if (fixed && !shrink && needed.width() <= minimumWidth() && needed.height() == minimumHeight())
        return;
    const int grown = needed.width() + fontMetrics().averageCharWidth() * spareCharacters;
    setFixedSize(shrink || !fixed ? grown : qMax(grown, minimumWidth()), needed.height());
}

} // namespace lockscope
