#pragma once

#include <QCoreApplication>
#include <QString>

namespace lockscope {

// Remaining times as people read them at a glance: tenths while it matters, minutes when it doesn't.
class DurationText
{
    Q_DECLARE_TR_FUNCTIONS(DurationText)

public:
    static QString format(qint64 ms);
};

} // namespace lockscope
