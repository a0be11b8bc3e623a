// SPDX-License-Identifier: Apache-2.0
// Mutual exclusion under real contention: 8 separate processes (tests/tools/contender) take one
// Redlock on 5 real masters thousands of times and log every critical section on CLOCK_MONOTONIC,
// which all processes share; no two sections may overlap within their validity windows. Some
// holders "crash" (never release), so the expiry path and the validity arithmetic are exercised
// too: the next holder must not get in before the crashed one's validity is over. A contender that
// crashes or exits non-zero fails the test; a section that ran past its validity is counted and
// reported, and checked for overlap with its real end, not clipped to its validity.
// The volume is fixed (each contender makes its count of acquisitions, however long that takes):
// a run asserts what was done, never how much fitted in a time, which would be the machine's speed.
// The only time limit is the generous "did not hang" one.
#include "base/monotonicclock.h"
#include "support/redisservergroup.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace tst_redlocksafety {

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr int processes = 8;
constexpr int abandonEvery = 50; // each contender abandons every 50th section, as a crashed holder would

struct Section
{
    qint64 enterNs = 0;
    qint64 endNs = 0; // exit for a released section, validUntil (or a later exit) for an abandoned one
    qint64 validUntilNs = 0;
    bool released = true;
    QByteArray token;
    int process = 0;
    qint64 exitNs = 0; // when the holder left (for the overrun report)
};

// The first overlap, described; empty when the sections are mutually exclusive.
QString firstOverlap(std::vector<Section> sections)
{
    std::sort(sections.begin(), sections.end(),
              [](const Section& a, const Section& b) { return a.enterNs < b.enterNs; });
    const Section* latest = nullptr;
    for (const Section& s : sections) {
        if (latest && s.enterNs < latest->endNs)
            return QStringLiteral("process %1 (token %2) entered %3 us before process %4 (token %5) left")
                .arg(s.process)
                .arg(QString::fromUtf8(s.token))
                .arg((latest->endNs - s.enterNs) / 1000)
                .arg(latest->process)
                .arg(QString::fromUtf8(latest->token));
        if (!latest || s.endNs > latest->endNs)
            latest = &s;
    }
    return {};
}

// Sections whose holder was still inside after its validity had ended, described (the caller
// reports them: the lock no longer covered that work, whatever another holder did).
QStringList overruns(const std::vector<Section>& sections)
{
    QStringList out;
    for (const Section& s : sections)
        if (s.exitNs > s.validUntilNs)
            out << QStringLiteral("process %1 (token %2) left %3 us after its validity ended")
                       .arg(s.process)
                       .arg(QString::fromUtf8(s.token))
                       .arg((s.exitNs - s.validUntilNs) / 1000);
    return out;
}

// One contender log line, "<enterNs> <exitNs> <validUntilNs> <released> <token>".
std::optional<Section> sectionFromLog(const QByteArray& line, int process)
{
    const QByteArrayList f = line.trimmed().split(' ');
    if (f.size() != 5)
        return std::nullopt;
    Section s;
    s.enterNs = f[0].toLongLong();
    s.exitNs = f[1].toLongLong();
    s.validUntilNs = f[2].toLongLong();
    s.released = f[3] == "1";
    // Not clipped to the validity: a holder that was still inside after it ended overlaps whoever
    // came next, and the overlap check has to see that.
    s.endNs = s.released ? s.exitNs : qMax(s.exitNs, s.validUntilNs);
    s.token = f[4];
    s.process = process;
    return s;
}

// A run of the contenders: their sections, and what went wrong with the processes themselves.
struct Run
{
    std::vector<Section> sections;
    QStringList problems; // a contender that crashed, exited non-zero or logged garbage
};

QString contenderPath()
{
    return buildPath(QStringLiteral("tests/tools/contender/contender"));
}

} // namespace

class TestRedlockSafety : public QObject
{
    Q_OBJECT

private slots:
    void checkerFindsOverlaps();
    void noOverlapOnFiveMasters();
    void noOverlapWhenTwoMastersDieMidRun();

private:
    // Runs the contenders to the end; `midRun` is called once, when they have logged `midRunAfter`
    // critical sections between them.
    Run contend(RedisServerGroup& group, const QByteArray& resource, int countEach, int midRunAfter = -1,
                const std::function<void()>& midRun = {});
};

void TestRedlockSafety::checkerFindsOverlaps()
{
    // The checker must be able to fail: a section that starts before the previous one's window ends.
    std::vector<Section> sections{{100, 200, 300, true, "a", 1}, {200, 260, 400, true, "b", 2}};
    QVERIFY(firstOverlap(sections).isEmpty());
    sections.push_back({250, 270, 500, true, "c", 3});
    QVERIFY(firstOverlap(sections).contains(QLatin1String("token c")));
    // An abandoned section lasts until its validity ends: the next one must wait for that.
    std::vector<Section> abandoned{{100, 900, 900, false, "a", 1}, {850, 950, 2000, true, "b", 2}};
    QVERIFY(!firstOverlap(abandoned).isEmpty());
    // Nested inside a long one, not adjacent to it: still found.
    std::vector<Section> nested{
        {100, 1000, 1000, true, "a", 1}, {200, 300, 900, true, "b", 2}, {400, 500, 900, true, "c", 3}};
    QVERIFY(!firstOverlap(nested).isEmpty());
    // A holder that stays past its validity (400) until 600 is not clipped: the next one, in at 500
    // after the lock expired, overlaps its real section, and the overrun is reported.
    std::vector<Section> overran{*sectionFromLog("100 600 400 1 a", 1),
                                 *sectionFromLog("500 550 900 1 b", 2)};
    QVERIFY(firstOverlap(overran).contains(QLatin1String("token b")));
    QCOMPARE(overruns(overran).size(), 1);
    QVERIFY(overruns(overran).first().contains(QLatin1String("token a")));
}

Run TestRedlockSafety::contend(RedisServerGroup& group, const QByteArray& resource, int countEach,
                               int midRunAfter, const std::function<void()>& midRun)
{
    QTemporaryDir logs;
    // A contender gives up after this long: far beyond what its count takes on a loaded machine
    // under the sanitizers, so reaching it means it hung (and the count check says so).
    const qint64 hangMs = upperBoundMs(240000);
    std::vector<std::unique_ptr<QProcess>> running;
    QStringList args;
    for (const QString& url : group.urls(false)) // the password goes in the environment
        args << QStringLiteral("-m") << url;
    args << QStringLiteral("--resource") << QString::fromUtf8(resource) << QStringLiteral("--count")
         << QString::number(countEach) << QStringLiteral("--ttl") << QStringLiteral("200")
         << QStringLiteral("--hold-us") << QStringLiteral("300") << QStringLiteral("--abandon-every")
         << QString::number(abandonEvery) << QStringLiteral("--deadline-ms") << QString::number(hangMs);
    for (int i = 0; i < processes; ++i) {
        auto process = std::make_unique<QProcess>();
        process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process->setProcessEnvironment(testPasswordEnvironment());
        process->start(contenderPath(),
                       args + QStringList{QStringLiteral("--log"), logs.filePath(QString::number(i))});
        running.push_back(std::move(process));
    }
    for (auto& p : running)
        if (!p->waitForStarted(10000))
            qFatal("contender did not start: %s", qPrintable(p->errorString()));
    if (midRun) {
        auto logged = [&] {
            int lines = 0;
            for (int i = 0; i < processes; ++i) {
                QFile file(logs.filePath(QString::number(i)));
                if (file.open(QIODevice::ReadOnly))
                    lines += int(file.readAll().count('\n'));
            }
            return lines;
        };
        if (!QTest::qWaitFor([&] { return logged() >= midRunAfter; }, int(hangMs)))
            qFatal("the contenders made no progress");
        midRun();
    }
    Run run;
    for (int i = 0; i < processes; ++i) {
        QProcess& p = *running[i];
        // (waitForFinished() is false for one that already ended while the test waited mid-run.)
        if (p.state() != QProcess::NotRunning && !p.waitForFinished(int(hangMs) + 30000)) {
            run.problems << QStringLiteral("contender %1 did not finish").arg(i);
            p.kill(); // the contender this test started
            p.waitForFinished(int(lockscope::test::upperBoundMs(5000)));
        } else if (p.exitStatus() != QProcess::NormalExit) {
            run.problems << QStringLiteral("contender %1 crashed").arg(i);
        } else if (p.exitCode() != 0) {
            run.problems << QStringLiteral("contender %1 exited with %2: %3")
                                .arg(i)
                                .arg(p.exitCode())
                                .arg(QString::fromLocal8Bit(p.readAllStandardOutput()));
        }
    }

    for (int i = 0; i < processes; ++i) {
        QFile file(logs.filePath(QString::number(i)));
        if (!file.open(QIODevice::ReadOnly)) {
            run.problems << QStringLiteral("no log from contender %1").arg(i);
            continue;
        }
        while (!file.atEnd()) {
            const std::optional<Section> s = sectionFromLog(file.readLine(), i);
            if (!s) {
                run.problems << QStringLiteral("malformed log line from contender %1").arg(i);
                break;
            }
            run.sections.push_back(*s);
        }
    }
    return run;
}

void TestRedlockSafety::noOverlapOnFiveMasters()
{
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    constexpr int countEach = 120;
    const Run run = contend(group, "safety:five", countEach);
    QVERIFY2(run.problems.isEmpty(), qPrintable(run.problems.join(QLatin1Char('\n'))));
    const std::vector<Section>& sections = run.sections;
    const QStringList late = overruns(sections);
    qInfo("%d of %d sections ran past their validity%s", int(late.size()), int(sections.size()),
          qPrintable(late.isEmpty() ? QString() : QLatin1String(": ") + late.join(QLatin1String("; "))));
    // Every contender made its count: the run did all its work, however slowly.
    QCOMPARE(int(sections.size()), processes * countEach);
    const QString overlap = firstOverlap(sections);
    QVERIFY2(overlap.isEmpty(), qPrintable(overlap));

    int abandoned = 0;
    QSet<int> winners;
    for (const Section& s : sections) {
        abandoned += s.released ? 0 : 1;
        winners.insert(s.process);
        QVERIFY(s.validUntilNs > s.enterNs); // every section began within its lease's validity
    }
    QVERIFY(abandoned >= processes);     // the expiry path ran, repeatedly
    QCOMPARE(winners.size(), processes); // every process got the lock: contention was real
    for (int i = 0; i < group.size(); ++i)
        QVERIFY(group.at(i).command({"GET", "safety:five"}).isNil() ||
                group.at(i).command({"PTTL", "safety:five"}).integer <= 200);
}

void TestRedlockSafety::noOverlapWhenTwoMastersDieMidRun()
{
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    qint64 killedAtNs = 0;
    constexpr int countEach = 100;
    const Run run = contend(group, "safety:dying", countEach, 250, [&] {
        group.at(0).kill();
        group.at(3).kill();
        killedAtNs = monotonicNs();
    });
    QVERIFY2(run.problems.isEmpty(), qPrintable(run.problems.join(QLatin1Char('\n'))));
    const std::vector<Section>& sections = run.sections;
    const QStringList late = overruns(sections);
    qInfo("%d of %d sections ran past their validity%s", int(late.size()), int(sections.size()),
          qPrintable(late.isEmpty() ? QString() : QLatin1String(": ") + late.join(QLatin1String("; "))));
    QVERIFY(killedAtNs > 0);
    QCOMPARE(int(sections.size()), processes * countEach);
    const QString overlap = firstOverlap(sections);
    QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    int before = 0;
    int after = 0;
    QSet<int> winnersAfter;
    for (const Section& s : sections) {
        (s.enterNs < killedAtNs ? before : after) += 1;
        if (s.enterNs > killedAtNs)
            winnersAfter.insert(s.process);
    }
    // Every contender still wins with two masters gone: nobody was locked out by the failure.
    QVERIFY2(winnersAfter.size() == processes,
             qPrintable(QStringLiteral("only %1 of %2 contenders won after the masters died")
                            .arg(winnersAfter.size())
                            .arg(processes)));
    // Both halves of the run did real work: 3 of 5 masters are still a quorum. (The kill comes
    // once 250 of the 800 sections are logged; a few more may start while the masters die.)
    QVERIFY2(before >= 250 && after >= 400,
             qPrintable(QStringLiteral("%1 before, %2 after").arg(before).arg(after)));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedlockSafety)

} // namespace tst_redlocksafety

#include "tst_redlocksafety.moc"
