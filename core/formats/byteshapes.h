// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <algorithm>
#include <optional>

// What the bytes of a value look like, for the recognisers of every family of lock formats
// (LockFormatRecognizer). Pure.
namespace lockscope::recognition {

// Timestamps outside this window are not taken for times: a 10-digit counter or a random hex
// string must not pass for a lock written in 1650 or 2400.
constexpr qint64 kPlausibleFromMs = 946684800000LL; // 2000-01-01 UTC
constexpr qint64 kPlausibleToMs = 4102444800000LL;  // 2100-01-01 UTC

bool isDigit(char c);
int hexValue(char c); // -1 for a character that is no hex digit
bool isHex(char c);
bool isLowerHex(char c);
bool isBase64(char c);

// Not empty, and every byte passes `pred`.
template <typename Pred> bool allOf(QByteArrayView bytes, Pred pred)
{
    return !bytes.isEmpty() && std::all_of(bytes.begin(), bytes.end(), pred);
}

quint64 parseHex(QByteArrayView hex);
// Digits only, short enough not to overflow.
std::optional<qint64> parseCount(QByteArrayView digits);
// "2026-11-22 02:31:46 UTC"
QString utcText(qint64 ms);
// UTF-8 text without control characters. A value cut at the read limit may stop inside a
// character; `cut` accepts that ragged end.
bool isPrintableText(QByteArrayView bytes, bool cut);
// "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f80", any case.
bool isUuidText(QByteArrayView v);
// 22 characters of the base64 alphabet (+ and / included), no padding, as 16 or more random bytes
// encode and a library cuts them ("Uq8+0bH/7dK2xVf3LmN9pQ"). A word is not one: both cases, and a
// digit, + or /; or, with letters alone, the case changing as randomly as it does in random bytes
// (six changes and two capitals in a row), which CamelCase names do not. About 3 in 10,000 random
// tokens fail that and stay plain tokens.
bool isRandomBase64Token(QByteArrayView v);

} // namespace lockscope::recognition
