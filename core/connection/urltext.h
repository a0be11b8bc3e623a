// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringView>

namespace lockscope {

// The pieces every URL parser here shares (redis://, redis-sentinel://, redis-cluster://).

// Text the user typed, for an error message. Callers pass only text after the credentials, so a
// quote can never be the password; it is cut at 64 characters.
QString quotedUrlPart(QStringView text);
// The scheme the user typed, quoted when it is a well-formed scheme name (RFC 3986: a letter, then
// letters, digits, '+', '-', '.'). Anything else before "://" may be a mistyped user:password
// ("alice:pw@host://..."): it is then described, never repeated.
QString quotedUrlScheme(QStringView scheme);
// What stands before "://" in `text`, lower-cased; empty when there is nothing there or no "://".
QString urlScheme(QStringView text);
// Cuts the user-info ("user:password@") off `rest`, what follows "://", and decodes it (percent-
// encoding) into `user` and `password`, which are left alone when there is none. It ends at the last
// '@', before anything else is split: a password with an unencoded '?', '#', '/', ',' or '@' is still a
// password, never a host, port or parameter, so that no error can quote any of it.
void takeUrlUserInfo(QStringView* rest, QString* user, QString* password);
// Cuts "?query" off `rest` and returns the query; empty when there is none.
QStringView takeUrlQuery(QStringView* rest);
// A decimal number of at most 10 ASCII digits, no sign, no more than `max`.
bool parseUrlNumber(QStringView text, qint64 max, qint64* out);
// A host name (letters, digits, '.', '-', '_'), not starting with '-' or '.'; IPv6 goes in brackets.
bool isUrlHostName(QStringView host);

} // namespace lockscope
