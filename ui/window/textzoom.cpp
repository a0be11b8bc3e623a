// SPDX-License-Identifier: Apache-2.0
#include "window/textzoom.h"

#include <QAction>
#include <QApplication>
#include <QSettings>

#include <algorithm>
#include <iterator>

namespace lockscope {

namespace {
const QString zoomKey = QStringLiteral("view/zoomPercent");
} // namespace

TextZoom::TextZoom(QObject* parent)
    : QObject(parent), m_base(QApplication::font()), m_in(new QAction(tr("Zoom &in"), this)),
      m_out(new QAction(tr("Zoom &out"), this)), m_reset(new QAction(tr("&Actual size"), this))
{
    m_in->setShortcuts(QKeySequence::ZoomIn);
    m_out->setShortcuts(QKeySequence::ZoomOut);
    // No Ctrl+0 for "actual size": the Filter menu's "show all" has it.
    for (QAction* a : {m_in, m_out})
        a->setShortcutContext(Qt::ApplicationShortcut);
    m_in->setObjectName(QStringLiteral("zoomIn"));
    m_out->setObjectName(QStringLiteral("zoomOut"));
    m_reset->setObjectName(QStringLiteral("zoomReset"));
    connect(m_in, &QAction::triggered, this, &TextZoom::zoomIn);
    connect(m_out, &QAction::triggered, this, &TextZoom::zoomOut);
    connect(m_reset, &QAction::triggered, this, [this] { setPercent(100); });
    setPercent(QSettings().value(zoomKey, 100).toInt());
}

void TextZoom::setPercent(int percent)
{
    // Only the steps: a hand-edited setting of 5000 % would make the window unusable.
    const int* step = std::find(std::begin(steps), std::end(steps), percent);
    percent = step == std::end(steps) ? 100 : percent;
    m_in->setEnabled(percent < steps[std::size(steps) - 1]);
    m_out->setEnabled(percent > steps[0]);
    m_reset->setEnabled(percent != 100);
    if (percent == m_percent && QApplication::font() == scaledFont(percent))
        return;
    m_percent = percent;
    QApplication::setFont(scaledFont(percent));
    QSettings().setValue(zoomKey, percent);
}

QFont TextZoom::scaledFont(int percent) const
{
    QFont font = m_base;
    if (m_base.pointSizeF() > 0)
        font.setPointSizeF(m_base.pointSizeF() * percent / 100.0);
    else
        font.setPixelSize(qMax(6, m_base.pixelSize() * percent / 100));
    return font;
}

void TextZoom::zoomIn()
{
    const auto next = std::upper_bound(std::begin(steps), std::end(steps), m_percent);
    if (next != std::end(steps))
        setPercent(*next);
}

void TextZoom::zoomOut()
{
    const auto below = std::lower_bound(std::begin(steps), std::end(steps), m_percent);
    if (below != std::begin(steps))
        setPercent(*std::prev(below));
}

} // namespace lockscope
