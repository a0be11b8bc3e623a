// SPDX-License-Identifier: Apache-2.0
#include "support/offscreenscreen.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace lockscope::test {

bool useOffscreenScreen(const QSize& size)
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty() && !platform.startsWith("offscreen"))
        return false;
    // Read when the platform starts (in the QApplication constructor): kept until the process ends.
    static QTemporaryDir dir;
    if (!dir.isValid())
        return false;
    const QJsonObject screen{{QStringLiteral("name"), QStringLiteral("test")},
                             {QStringLiteral("x"), 0},
                             {QStringLiteral("y"), 0},
                             {QStringLiteral("width"), size.width()},
                             {QStringLiteral("height"), size.height()},
                             {QStringLiteral("logicalDpi"), 96},
                             {QStringLiteral("logicalBaseDpi"), 96},
                             {QStringLiteral("dpr"), 1}};
    const QJsonObject config{{QStringLiteral("screens"), QJsonArray{screen}}};
    const QString path = dir.filePath(QStringLiteral("offscreen.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(config).toJson()) < 0)
        return false;
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(path));
    return true;
}

} // namespace lockscope::test
