// SPDX-License-Identifier: Apache-2.0
#include "base/compactmalloc.h"
#include "base/heaptrimmer.h"
#include "connections/connectionsdialog.h"
#include "demo/demosession.h"
#include "livedemo/demowindow.h"
#include "session/launchoptions.h"
#include "session/settingslocation.h"
#include "window/mainwindow.h"
#include "window/windowrecording.h"

#include <QApplication>
#include <QMessageBox>
#include <QProcess>

#include <csignal>
#include <cstdio>
#include <string_view>

using namespace lockscope;

namespace {

// --help and --version are asked in terminals and package checks, often where there is no display,
// and QApplication aborts without one: so these are answered before it exists.
bool mayAskOnlyForText(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--")
            break;
        for (std::string_view flag : {"-h", "-?", "--help", "--help-all", "-v", "--version"})
            if (argument == flag)
                return true;
    }
    return false;
}

// What parse() refused with: usage and version (asked for, exit 0) or a mistake (exit 2).
int reportRefusal(const QString& message)
{
    std::fprintf(stderr, "%s\n", qPrintable(message));
    const bool asked =
        message.startsWith(QLatin1String("Usage")) || message.startsWith(QLatin1String("lockscope "));
    return asked ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    // A file size limit (ulimit -f) must make an audit append fail with EFBIG, which the window
    // reports, rather than kill the process in the middle of a write.
    std::signal(SIGXFSZ, SIG_IGN);
    useCompactMalloc(); // before any thread: a million locks' worth of allocations changes hands
    if (mayAskOnlyForText(argc, argv)) {
        QCoreApplication textOnly(argc, argv);
        QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
        const Result<LaunchOptions> options = LaunchOptions::parse(QCoreApplication::arguments());
        if (!options)
            return reportRefusal(options.error().message);
        // The flag was an option's value (--select -v): a normal start.
    }
    QApplication app(argc, argv);
    const HeapTrimmer heapTrimmer; // the pages a first pass leaves free go back to the system
    // The same application name as lockctl: one audit log, one data directory. Settings in
    // $XDG_CONFIG_HOME/lockscope/ (moved there from "LockScope/" once).
    SettingsLocation::apply();
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("LockScope"));
    // The desktop entry's id (the Wayland app id): the menu entry and the window are one application.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.lockscope.LockScope"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));

    Result<LaunchOptions> options = LaunchOptions::parse(QCoreApplication::arguments());
    if (!options)
        return reportRefusal(options.error().message);
    for (const QString& w : options->warnings)
        std::fprintf(stderr, "lockscope: warning: %s\n", qPrintable(w));

    DemoSession demo;
    QString profileName;
    if (!options->demo && !options->hasMasters() && options->reviewPath.isEmpty()) {
        // Nothing on the command line: pick a saved profile (or make one).
        ConnectionsDialog connections;
        // The profile brings the masters; the launch options stay, and read-only only tightens.
        if (connections.exec() == QDialog::Accepted && connections.chosenConfig()) {
            options->config =
                options->launch.combine(*connections.chosenConfig(), connections.chosenLockedReadOnly(),
                                        connections.chosenPatterns(), connections.chosenScanRate());
            profileName = connections.chosenProfileName();
        }
    }

    MainWindow window(options->config, options->auditLogPath);
    window.setLaunchConfig(options->launch);
    window.setProfileName(options->demo ? QObject::tr("demo") : profileName);
    // "Start the demo" from the empty window (the first-launch dialog was cancelled): the demo is
    // its own session (its own masters, its own window layout), so it starts as one.
    QObject::connect(&window, &MainWindow::demoRequested, &window, [&window] {
        if (QProcess::startDetached(QCoreApplication::applicationFilePath(), {QStringLiteral("--demo")}))
            window.close();
        else
            QMessageBox::critical(&window, QObject::tr("LockScope demo"),
                                  QObject::tr("The demo could not be started."));
    });
    if (!options->recordingPath.isEmpty())
        window.recordInto(options->recordingPath);
    if (options->noRecord)
        window.recording()->disableForThisRun();
    if (!options->reviewPath.isEmpty())
        window.review(options->reviewPath, options->select);
    else if (!options->select.isEmpty())
        window.selectWhenSeen(options->select);
    window.setDemoLayout(options->demo);
    if (options->demo)
        DemoWindow::install(&window, &demo, options->config.readOnly, options->auditLogPath,
                            options->select.isEmpty());
    window.show();
    if (options->demo)
        demo.start();
    return app.exec();
}
