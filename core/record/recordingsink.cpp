// SPDX-License-Identifier: Apache-2.0
#include "record/recordingsink.h"

#include "base/localidentity.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <limits>

namespace lockscope {

QString RecordingSink::recorderName()
{
    return QStringLiteral("%1@%2/%3:%4")
        .arg(LocalIdentity::user(), LocalIdentity::host(),
             QFileInfo(QCoreApplication::applicationFilePath()).fileName())
        .arg(LocalIdentity::pid());
}

QString RecordingSink::mastersJson(const QStringList& masterNames)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(masterNames)).toJson(QJsonDocument::Compact));
}

QString RecordingSink::storedText(const QString& text)
{
    constexpr qsizetype maxStoredTextChars = 512;
    if (text.size() <= maxStoredTextChars)
        return text;
    qsizetype n = maxStoredTextChars;
    if (text.at(n - 1).isHighSurrogate())
        --n; // never half a character
    return text.left(n) + QStringLiteral("…");
}

QString RecordingSink::idsRunOut(const char* table, qint64 largest, qsizetype wanted)
{
    if (largest <= std::numeric_limits<qint64>::max() - qint64(wanted))
        return {};
    return QStringLiteral("the recording's %1 ids run out (its largest is %2): the store is damaged; "
                          "record into another one")
        .arg(QLatin1String(table))
        .arg(largest);
}

} // namespace lockscope
