#include "bytesdisplay.h"

#include <QStringDecoder>

namespace lockscope {

namespace {

void appendHex(QString& out, uchar byte)
{
    static const char digits[] = "0123456789abcdef";
    out += QStringLiteral("\\x");
    out += QLatin1Char(digits[byte >> 4]);
    out += QLatin1Char(digits[byte & 15]);
}

// Length of the valid UTF-8 sequence starting at `i`, or 0 when it is not one.
int utf8Length(const QByteArray& b, qsizetype i)
{
    const uchar c = uchar(b[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > b.size())
        return 0;
    for (int k = 1; k < len; ++k)
        if ((uchar(b[i + k]) >> 6) != 2)
            return 0;
    if (len > 1) {
        // Reject overlong forms and surrogates: QString::fromUtf8 would not give these bytes back.
        const QString decoded = QString::fromUtf8(b.constData() + i, len);
        if (decoded.toUtf8() != b.mid(i, len))
            return 0;
    }
    return len;
}

} // namespace

QString escapeBytes(const QByteArray& bytes)
{
    QString out;
    out.reserve(bytes.size());
    for (qsizetype i = 0; i < bytes.size();) {
        const uchar c = uchar(bytes[i]);
        if (c == '\\') {
            out += QStringLiteral("\\\\");
            ++i;
            continue;
        }
        if (c < 0x20 || c == 0x7f) {
            appendHex(out, c);
            ++i;
            continue;
        }
        const int len = utf8Length(bytes, i);
        if (len == 0) {
            appendHex(out, c);
            ++i;
            continue;
        }
        out += QString::fromUtf8(bytes.constData() + i, len);
        i += len;
    }
    return out;
}

Result<QByteArray> unescapeBytes(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        if (utf8[i] != '\\') {
            out += utf8[i];
            continue;
        }
        if (i + 1 < utf8.size() && utf8[i + 1] == '\\') {
            out += '\\';
            ++i;
            continue;
        }
        if (i + 3 < utf8.size() && utf8[i + 1] == 'x') {
            bool ok = false;
            const int value = utf8.mid(i + 2, 2).toInt(&ok, 16);
            if (ok) {
                out += char(value);
                i += 3;
                continue;
            }
        }
        return RedisError(
            ErrorKind::InvalidArgument, QString(),
            QStringLiteral("bad escape at position %1: use \\\\ for a backslash or \\xNN for a byte").arg(i));
    }
    return out;
}

} // namespace lockscope
