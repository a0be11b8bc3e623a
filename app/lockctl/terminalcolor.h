// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QCommandLineOption>

class QCommandLineParser;

namespace lockctl {

// Colour in lockctl's output for people (list's table, watch's lines), chosen the way Linux tools
// do (clig.dev, no-color.org): --color=always or never decides; otherwise (auto, the default) colour
// only when stdout is a terminal, NO_COLOR is unset or empty, and TERM is not "dumb". Only
// lockctl's own words are coloured: what a server sent stays escaped text (escapeBytes).
class TerminalColor
{
public:
    // --color WHEN, for the commands that colour their output.
    static QCommandLineOption option();
    // From --color and the environment; an error for a WHEN other than auto, always or never.
    static lockscope::Result<TerminalColor> fromParser(const QCommandLineParser& parser);
    // The decision itself, with stdout's kind and the environment given.
    static lockscope::Result<TerminalColor> decide(const QString& when, bool stdoutIsTerminal,
                                                   const QByteArray& noColor, const QByteArray& term);

    static TerminalColor never() { return TerminalColor(false); }

    bool enabled() const { return m_enabled; }
    // `text` between the SGR sequence `sgr` (e.g. "32" for green) and a reset; as is when disabled
    // or `sgr` is null.
    QString paint(const QString& text, const char* sgr) const;

private:
    explicit TerminalColor(bool enabled) : m_enabled(enabled) {}
    bool m_enabled = false;
};

} // namespace lockctl
