// SPDX-License-Identifier: Apache-2.0
#include "support/testpaths.h"

namespace lockscope::test {

namespace {
QString under(QString dir, const QString& relative)
{
    if (!relative.isEmpty())
        dir += QLatin1Char('/') + relative;
    return dir;
}
} // namespace

QString sourcePath(const QString& relative)
{
    return under(QStringLiteral(LOCKSCOPE_SOURCE_DIR), relative);
}

QString buildPath(const QString& relative)
{
    const QByteArray dir = qgetenv("LOCKSCOPE_BINARY_DIR");
    return under(dir.isEmpty() ? QStringLiteral(LOCKSCOPE_BINARY_DIR) : QString::fromLocal8Bit(dir),
                 relative);
}

} // namespace lockscope::test
