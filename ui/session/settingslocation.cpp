// SPDX-License-Identifier: Apache-2.0
#include "session/settingslocation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>

namespace lockscope {

namespace {

const QString directoryName = QStringLiteral("lockscope");
const QString oldDirectoryName = QStringLiteral("LockScope");
const QString fileName = QStringLiteral("lockscope.conf");

} // namespace

void SettingsLocation::apply()
{
    migrate(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
    QCoreApplication::setOrganizationName(directoryName);
    QCoreApplication::setApplicationName(QStringLiteral("lockscope"));
}

QString SettingsLocation::filePath()
{
    return QSettings().fileName();
}

bool SettingsLocation::migrate(const QString& configHome)
{
    if (configHome.isEmpty())
        return true;
    const QDir home(configHome);
    const QString oldPath = home.filePath(oldDirectoryName + QLatin1Char('/') + fileName);
    const QString newPath = home.filePath(directoryName + QLatin1Char('/') + fileName);
    if (!QFile::exists(oldPath) || QFile::exists(newPath))
        return true;
    // Profiles carry no secrets (those are in the keychain or the environment), but the file is
    // still the user's own: the new directory is private like the audit log's.
    if (!home.mkpath(directoryName))
        return false;
    QFile::setPermissions(home.filePath(directoryName),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (!QFile::rename(oldPath, newPath))
        return false;
    home.rmdir(oldDirectoryName); // only when empty: anything else in it stays
    return true;
}

} // namespace lockscope
