#pragma once

#include <QCoreApplication>
#include <QString>

namespace lockscope {

// The main window's title: the profile once, how many masters, read-only; the application's name
// once, last, as the platform shows it (Qt appends the display name to any title that does not
// already end with it, so a title that began with "LockScope" read "LockScope — … — LockScope").
class WindowTitle
{
    Q_DECLARE_TR_FUNCTIONS(WindowTitle)

public:
    static QString text(const QString& profile, int masters, bool readOnly);
    static QString applicationName();
};

} // namespace lockscope
