// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QVariant>

namespace lockscope {

// Qt shows a tooltip as rich text as soon as it looks like HTML (Qt::mightBeRichText): a key
// named "<img src=…>" or an owner "<b>root</b>" would be rendered, not shown. A tooltip that could
// be taken for HTML is turned into HTML that shows exactly its text; any other stays as it is.
QString plainToolTip(const QString& text);
// The same for a model's ToolTipRole value; anything but a string passes through.
QVariant plainToolTip(const QVariant& tip);

} // namespace lockscope
