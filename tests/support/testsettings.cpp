// SPDX-License-Identifier: Apache-2.0
#include "support/testsettings.h"

#include <QCoreApplication>
#include <QSettings>

namespace lockscope::test {

void nameTestApplication(const QString& application)
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(application);
}

void useTestSettings(const QString& directory, const QString& application)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, directory);
    nameTestApplication(application);
    QSettings().clear();
}

} // namespace lockscope::test
