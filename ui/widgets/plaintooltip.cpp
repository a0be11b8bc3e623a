// SPDX-License-Identifier: Apache-2.0
#include "widgets/plaintooltip.h"

#include <QTextDocument>

namespace lockscope {

QString plainToolTip(const QString& text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

QVariant plainToolTip(const QVariant& tip)
{
    if (tip.typeId() != QMetaType::QString)
        return tip;
    return plainToolTip(tip.toString());
}

} // namespace lockscope
