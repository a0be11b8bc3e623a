// SPDX-License-Identifier: Apache-2.0
#include "window/windowtitle.h"

#include <QCoreApplication>
#include <QGuiApplication>

namespace lockscope {

// The words keep the translation context the class gave them.
namespace WindowTitle {
static QString tr(const char* text)
{
    return QCoreApplication::translate("WindowTitle", text);
}
} // namespace WindowTitle

QString WindowTitle::applicationName()
{
    const QString display = QGuiApplication::applicationDisplayName();
    return display.isEmpty() ? QStringLiteral("LockScope") : display;
}

QString WindowTitle::text(const QString& profile, int masters, bool readOnly, bool production)
{
    const QString app = applicationName();
    if (masters <= 0 && profile.isEmpty())
        return app;
    // No translation is loaded to turn "%n master(s)" into a plural: spelled out.
    QString what = masters == 1 ? tr("1 master") : tr("%1 masters").arg(masters);
    if (readOnly)
        what = tr("%1, read-only").arg(what);
    if (production)
        what = tr("PRODUCTION, %1").arg(what);
    const QString body = profile.isEmpty() ? what : tr("%1 (%2)").arg(profile, what);
    return body + QStringLiteral(" — ") + app;
}

} // namespace lockscope
