// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/ownerrule.h"
#include "formats/recognizedlock.h"

#include <QByteArrayList>
#include <QList>
#include <QStringList>

// What the tests of LockFormatRecognizer (one per family of formats) build their keys from.
namespace lockscope::test {

// 2025-06-15 15:06:40 UTC: the wall clock every legacy timestamp is judged against.
constexpr qint64 kNowMs = 1750000000000LL;

// Two Redisson client instances (their uuids head every holder field).
extern const QByteArray kInstanceA;
extern const QByteArray kInstanceB;

// A string read whole, or cut after `value` with the full length `valueSize` (-1: the value's).
KeyObservation stringObservation(const QByteArray& value, bool truncated = false, qint64 valueSize = -1);
// A hash from alternating field, value; `elementCount` -1: the number of fields given.
KeyObservation hashObservation(const QByteArrayList& flat, bool truncated = false, qint64 elementCount = -1);
// A sorted set, members with their scores; `elementCount` -1: the number of members given.
KeyObservation zsetObservation(const QByteArrayList& members, const QList<double>& scores,
                               bool truncated = false, qint64 elementCount = -1);

// "id | owner | xcount | sinceMs" per holder: one QCOMPARE shows every difference.
QStringList describeHolders(const QList<LockHolder>& holders);
QString holderText(const QByteArray& id, const QString& owner, qint64 count = 1, qint64 sinceMs = -1);
// A recognised lock as the lines a test compares: format, token (escaped), owner, detail, whether
// auxiliary, then its holders as describeHolders gives them.
QStringList describeLock(const RecognizedLock& lock);
// The same lines for what a test expects.
QStringList expectedLock(LockFormat format, const QByteArray& token, const QString& owner,
                         const QString& detail, const QStringList& holders, bool auxiliary = false);

// Owner rules from "glob<TAB>pattern" per rule.
QList<OwnerRule> rulesFrom(const QStringList& specs);

} // namespace lockscope::test
