// SPDX-License-Identifier: Apache-2.0
#include "support/lockctldiagnosis.h"

#include "support/lockctlrun.h"

#include <QJsonObject>

namespace lockscope::test {

QHash<QString, QJsonArray> listDiagnoses(const QStringList& urls, int* code, const QStringList& extra)
{
    QStringList args = testPasswordArgs();
    for (const QString& u : urls)
        args << QStringLiteral("-m") << u;
    args << QStringLiteral("list") << QStringLiteral("--pattern") << QStringLiteral("*") << extra;
    int exit = -1;
    const QJsonObject out = runLockctlJson(args, &exit);
    if (code)
        *code = exit;
    QHash<QString, QJsonArray> byResource;
    for (const QJsonValue& lock : out.value(QStringLiteral("locks")).toArray())
        byResource.insert(lock[QStringLiteral("resource")].toString(),
                          lock[QStringLiteral("diagnosis")].toArray());
    return byResource;
}

QStringList codesOf(const QJsonArray& diagnosis)
{
    QStringList out;
    for (const QJsonValue& d : diagnosis)
        out << d[QStringLiteral("code")].toString();
    return out;
}

QString sentenceOf(const QJsonArray& diagnosis, const QString& code)
{
    for (const QJsonValue& d : diagnosis)
        if (d[QStringLiteral("code")].toString() == code)
            return d[QStringLiteral("sentence")].toString();
    return QString();
}

} // namespace lockscope::test
