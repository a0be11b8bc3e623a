// SPDX-License-Identifier: Apache-2.0
#include "bench/uibench/insightsrun.h"

#include "bench/uibench/stallmeter.h"
#include "insights/insightsdock.h"
#include "insights/insightsmodel.h"
#include "window/mainwindow.h"
#include "window/windowinsights.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <cstdio>
#include <sys/resource.h>

using namespace lockscope;

int runInsights(QApplication& app, MainWindow& window, StallMeter& meter, const QString& path, int limitMs,
                double maxStallMs)
{
    window.review(path);
    QElapsedTimer clock;
    qint64 figuresMs = -1;
    WindowInsights* insights = window.insights();
    QObject::connect(insights, &WindowInsights::refreshed, &app, [&] {
        figuresMs = clock.elapsed();
        // A moment more of the window with its figures drawn (the charts' first paint).
        QTimer::singleShot(500, &app, &QCoreApplication::quit);
    });
    QTimer::singleShot(limitMs, &app, [] { QCoreApplication::exit(3); });
    // Shown once the window is up: the pass starts then, as when a user opens the tab.
    QTimer::singleShot(300, &app, [&] {
        clock.start();
        meter.start();
        insights->dock()->show();
        insights->dock()->raise();
    });
    const int rc = app.exec();
    meter.stop();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const int families = insights->model()->rowCount();
    const QJsonObject result{{QStringLiteral("bench"), QStringLiteral("insights-view")},
                             {QStringLiteral("families"), families},
                             {QStringLiteral("figuresMs"), figuresMs},
                             {QStringLiteral("maxStallMs"), qRound(meter.maxStallMs() * 10) / 10.0},
                             {QStringLiteral("p99StallMs"), qRound(meter.percentileStallMs(99) * 10) / 10.0},
                             {QStringLiteral("maxStallCpuMs"), qRound(meter.maxStallCpuMs() * 10) / 10.0},
                             {QStringLiteral("peakRssMiB"), qRound(double(usage.ru_maxrss) / 102.4) / 10.0},
                             {QStringLiteral("maxStallMsAllowed"), maxStallMs},
                             {QStringLiteral("timedOut"), rc == 3}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return rc == 3 || families == 0 || meter.maxStallMs() > maxStallMs ? 1 : 0;
}
