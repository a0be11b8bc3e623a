// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "discovery/notificationmode.h"
#include "monitor/lockview.h"

#include <QCommandLineParser>

#include <functional>
#include <memory>

namespace lockscope {
class MasterSet;
class RecordingReader;
} // namespace lockscope

namespace lockctl {

class CliContext;
class TerminalColor;

// What `list` prints, as text or JSON (--json), the same whether the locks arrive in pages (a
// LockLister) or all at once (a LockMonitor's cluster entries): a first part printed as a whole
// listing (sorted by resource, the table's columns sized to its rows, the diagnoses read for it),
// then later pages (in its columns, or on in its JSON array), then the end.
class ListPrinter
{
public:
    ListPrinter(CliContext& context, lockscope::MasterSet& masters, const TerminalColor& color);
    ~ListPrinter();

    // The recording the JSON's diagnoses read the holders' stories from (--db FILE, or the default
    // one when it exists); a problem is fatal only when --db named it. Returns -1 to go on, or the
    // exit code.
    int openRecording(const QCommandLineParser& parser);
    // `locks` sorted by resource. `finished`: nothing comes after them (a listing without locks
    // says so).
    void printFirst(const QList<lockscope::LockView>& locks, bool finished);
    // A page after the first part (sorted within itself).
    void printPage(const QList<lockscope::LockView>& views);
    // After the last page: closes the JSON document with the masters (`mode`: each one's keyspace
    // notifications).
    void finish(const std::function<lockscope::NotificationMode(int)>& mode);

private:
    void printFirstJson(const QList<lockscope::LockView>& locks);
    void printFirstText(const QList<lockscope::LockView>& locks, bool finished);

    CliContext& m_context;
    lockscope::MasterSet& m_masters;
    const TerminalColor& m_color;
    std::unique_ptr<lockscope::RecordingReader> m_recording;
    qsizetype m_written = 0;   // locks in the JSON array so far
    QList<qsizetype> m_widths; // the first part's columns
};

} // namespace lockctl
