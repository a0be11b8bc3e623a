// Mutual exclusion under real contention: 8 separate processes (tests/tools/contender) take one
// Redlock on 5 real masters thousands of times and log every critical section on CLOCK_MONOTONIC,
// which all processes share; no two sections may overlap within their validity windows. Some
// holders "crash" (never release), so the expiry path and the validity arithmetic are exercised
// too: the next holder must not get in before the crashed one's validity is over.
#include "monotonicclock.h"
#include "redisservergroup.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr int processes = 8;

struct Section
{
    qint64 enterNs = 0;
    qint64 endNs = 0; // exit for a released section, validUntil for an abandoned one
    qint64 validUntilNs = 0;
    bool released = true;
    QByteArray token;
    int process = 0;
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

QString contenderPath()
{
    QByteArray dir = qgetenv("LOCKSCOPE_BINARY_DIR");
    if (dir.isEmpty())
        dir = LOCKSCOPE_BINARY_DIR;
    return QString::fromLocal8Bit(dir) + QStringLiteral("/tests/tools/contender/contender");
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
    std::vector<Section> contend(RedisServerGroup& group, const QByteArray& resource, int countEach,
                                 int midRunAfter = -1, const std::function<void()>& midRun = {});
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
}

std::vector<Section> TestRedlockSafety::contend(RedisServerGroup& group, const QByteArray& resource,
                                                int countEach, int midRunAfter,
                                                const std::function<void()>& midRun)
{
    QTemporaryDir logs;
    std::vector<std::unique_ptr<QProcess>> running;
    QStringList args;
    for (const QString& url : group.urls())
        args << QStringLiteral("-m") << url;
    args << QStringLiteral("--resource") << QString::fromUtf8(resource) << QStringLiteral("--count")
         << QString::number(countEach) << QStringLiteral("--ttl") << QStringLiteral("200")
         << QStringLiteral("--hold-us") << QStringLiteral("300") << QStringLiteral("--abandon-every")
         << QStringLiteral("150") << QStringLiteral("--deadline-ms") << QStringLiteral("45000");
    for (int i = 0; i < processes; ++i) {
        auto process = std::make_unique<QProcess>();
        process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
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
        if (!QTest::qWaitFor([&] { return logged() >= midRunAfter; }, 60000))
            qFatal("the contenders made no progress");
        midRun();
    }
    for (auto& p : running) {
        if (!p->waitForFinished(90000))
            qFatal("contender did not finish");
        if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0)
            qWarning("contender exited with %d: %s", p->exitCode(), p->readAllStandardOutput().constData());
    }

    std::vector<Section> sections;
    for (int i = 0; i < processes; ++i) {
        QFile file(logs.filePath(QString::number(i)));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("no log from contender %d", i);
        while (!file.atEnd()) {
            const QByteArrayList f = file.readLine().trimmed().split(' ');
            if (f.size() != 5)
                qFatal("malformed log line");
            Section s;
            s.enterNs = f[0].toLongLong();
            s.validUntilNs = f[2].toLongLong();
            s.released = f[3] == "1";
            s.endNs = s.released ? qMin(f[1].toLongLong(), s.validUntilNs) : s.validUntilNs;
            s.token = f[4];
            s.process = i;
            sections.push_back(s);
        }
    }
    return sections;
}

void TestRedlockSafety::noOverlapOnFiveMasters()
{
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    const std::vector<Section> sections = contend(group, "safety:five", 300);
    QVERIFY2(sections.size() >= 2000, qPrintable(QString::number(sections.size())));
    const QString overlap = firstOverlap(sections);
    QVERIFY2(overlap.isEmpty(), qPrintable(overlap));

    int abandoned = 0;
    QSet<int> winners;
    for (const Section& s : sections) {
        abandoned += s.released ? 0 : 1;
        winners.insert(s.process);
        QVERIFY(s.validUntilNs > s.enterNs); // validity was positive when the quorum was reached
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
    const std::vector<Section> sections = contend(group, "safety:dying", 260, 500, [&] {
        group.at(0).kill();
        group.at(3).kill();
        killedAtNs = monotonicNs();
    });
    QVERIFY(killedAtNs > 0);
    QVERIFY2(sections.size() >= 1500, qPrintable(QString::number(sections.size())));
    const QString overlap = firstOverlap(sections);
    QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    int before = 0;
    int after = 0;
    for (const Section& s : sections)
        (s.enterNs < killedAtNs ? before : after) += 1;
    // Both halves of the run did real work: 3 of 5 masters are still a quorum.
    QVERIFY2(before >= 200 && after >= 500,
             qPrintable(QStringLiteral("%1 before, %2 after").arg(before).arg(after)));
}

QTEST_GUILESS_MAIN(TestRedlockSafety)
#include "tst_redlocksafety.moc"
