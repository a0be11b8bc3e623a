// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QString>
#include <QStringList>

namespace lockscope::test {

// `lockctl list --json --pattern '*' <extra>` on these masters: each lock's "diagnosis", by resource.
QHash<QString, QJsonArray> listDiagnoses(const QStringList& urls, int* code = nullptr,
                                         const QStringList& extra = {});
// The codes of a "diagnosis" array, in order.
QStringList codesOf(const QJsonArray& diagnosis);
// The sentence of `code` in a "diagnosis" array; empty when it is not there.
QString sentenceOf(const QJsonArray& diagnosis, const QString& code);

} // namespace lockscope::test
