// SPDX-License-Identifier: Apache-2.0
#include "lockctl/terminalcolor.h"

#include <QCommandLineParser>

#include <unistd.h>

using namespace lockscope;

namespace lockctl {

QCommandLineOption TerminalColor::option()
{
    return QCommandLineOption(QStringLiteral("color"),
                              QStringLiteral("Colour the status words: auto (default: only on a terminal, "
                                             "and not when NO_COLOR is set), always or never."),
                              QStringLiteral("WHEN"), QStringLiteral("auto"));
}

Result<TerminalColor> TerminalColor::fromParser(const QCommandLineParser& parser)
{
    return decide(parser.value(QStringLiteral("color")), isatty(STDOUT_FILENO) == 1, qgetenv("NO_COLOR"),
                  qgetenv("TERM"));
}

Result<TerminalColor> TerminalColor::decide(const QString& when, bool stdoutIsTerminal,
                                            const QByteArray& noColor, const QByteArray& term)
{
    if (when == QLatin1String("always"))
        return TerminalColor(true);
    if (when == QLatin1String("never"))
        return TerminalColor(false);
    if (when != QLatin1String("auto"))
        return RedisError(ErrorKind::InvalidArgument, QString(),
                          QStringLiteral("--color takes auto, always or never, not '%1'").arg(when));
    return TerminalColor(stdoutIsTerminal && noColor.isEmpty() && term != "dumb");
}

QString TerminalColor::paint(const QString& text, const char* sgr) const
{
    if (!m_enabled || !sgr || text.isEmpty())
        return text;
    return QStringLiteral("\x1b[") + QLatin1String(sgr) + QLatin1Char('m') + text + QStringLiteral("\x1b[0m");
}

} // namespace lockctl
