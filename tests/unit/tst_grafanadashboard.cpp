// SPDX-License-Identifier: Apache-2.0
// The shipped Grafana dashboard and alert rules (#16) speak only of metrics `lockctl serve` exports:
// a renamed family fails here, not on an operator's empty panel. The dashboard is also checked for
// the shape Grafana's import wants (a datasource input, unique panel ids, a grid position each).
#include "metrics/metricsrenderer.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace tst_grafanadashboard {

using namespace lockscope;

namespace {

QByteArray readSource(const QString& relative)
{
    QFile f(test::sourcePath(relative));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Metric names an expression refers to: every lockscope_* identifier and every other selector
// (`name{`); PromQL keywords and functions are neither.
QStringList metricsIn(const QString& expr)
{
    static const QRegularExpression names(
        QStringLiteral(R"((?<![A-Za-z0-9_:$])([A-Za-z_:][A-Za-z0-9_:]*)\s*\{)"));
    static const QRegularExpression ours(QStringLiteral(R"(\blockscope_[a-z0-9_]+)"));
    QStringList out;
    for (auto it = names.globalMatch(expr); it.hasNext();)
        out << it.next().captured(1);
    for (auto it = ours.globalMatch(expr); it.hasNext();)
        out << it.next().captured(0);
    out.removeDuplicates();
    return out;
}

QSet<QString> exported()
{
    QSet<QString> names;
    // A histogram's samples are named after its family, with these suffixes.
    for (const QByteArray& n : MetricsRenderer::familyNames())
        for (const char* suffix : {"", "_bucket", "_sum", "_count"})
            names.insert(QString::fromLatin1(n) + QLatin1String(suffix));
    return names;
}

void collectPanels(const QJsonArray& panels, QList<QJsonObject>* out)
{
    for (const QJsonValue& p : panels) {
        out->append(p.toObject());
        collectPanels(p.toObject().value(QStringLiteral("panels")).toArray(), out);
    }
}

} // namespace

class TestGrafanaDashboard : public QObject
{
    Q_OBJECT

private slots:
    void isGrafanaImportJson();
    void everyExprUsesExportedMetrics();
    void alertRulesUseExportedMetrics();
    void theCheckCatchesAnUnknownMetric();
};

void TestGrafanaDashboard::isGrafanaImportJson()
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(
        readSource(QStringLiteral("resources/grafana/lockscope-dashboard.json")), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isObject());
    const QJsonObject d = doc.object();
    QVERIFY(!d.value(QStringLiteral("title")).toString().isEmpty());
    QVERIFY(!d.value(QStringLiteral("uid")).toString().isEmpty());
    QVERIFY(d.value(QStringLiteral("schemaVersion")).toInt() >= 30);
    const QJsonArray inputs = d.value(QStringLiteral("__inputs")).toArray();
    QCOMPARE(inputs.size(), 1);
    QCOMPARE(inputs.at(0).toObject().value(QStringLiteral("pluginId")).toString(),
             QStringLiteral("prometheus"));
    const QString input =
        QStringLiteral("${%1}").arg(inputs.at(0).toObject().value(QStringLiteral("name")).toString());

    QList<QJsonObject> panels;
    collectPanels(d.value(QStringLiteral("panels")).toArray(), &panels);
    QSet<int> ids;
    QStringList titles;
    for (const QJsonObject& p : panels) {
        const int id = p.value(QStringLiteral("id")).toInt();
        QVERIFY2(id > 0 && !ids.contains(id), qPrintable(QStringLiteral("panel id %1").arg(id)));
        ids.insert(id);
        const QJsonObject grid = p.value(QStringLiteral("gridPos")).toObject();
        for (const char* k : {"x", "y", "w", "h"})
            QVERIFY2(grid.contains(QLatin1String(k)),
                     qPrintable(p.value(QStringLiteral("title")).toString()));
        titles << p.value(QStringLiteral("title")).toString();
        if (p.value(QStringLiteral("type")).toString() == QStringLiteral("row"))
            continue;
        QCOMPARE(p.value(QStringLiteral("datasource")).toObject().value(QStringLiteral("uid")).toString(),
                 input);
        QVERIFY(!p.value(QStringLiteral("targets")).toArray().isEmpty());
    }
    // What the issue asks the dashboard to show.
    for (const QString& wanted : {QStringLiteral("Masters"), QStringLiteral("Locks by status"),
                                  QStringLiteral("Top oldest locks"), QStringLiteral("TTL heat")})
        QVERIFY2(titles.contains(wanted), qPrintable(titles.join(QStringLiteral(", "))));
}

void TestGrafanaDashboard::everyExprUsesExportedMetrics()
{
    const QJsonObject d =
        QJsonDocument::fromJson(readSource(QStringLiteral("resources/grafana/lockscope-dashboard.json")))
            .object();
    QList<QJsonObject> panels;
    collectPanels(d.value(QStringLiteral("panels")).toArray(), &panels);
    QStringList exprs;
    for (const QJsonObject& p : panels)
        for (const QJsonValue& t : p.value(QStringLiteral("targets")).toArray())
            exprs << t.toObject().value(QStringLiteral("expr")).toString();
    for (const QJsonValue& v :
         d.value(QStringLiteral("templating")).toObject().value(QStringLiteral("list")).toArray())
        exprs << v.toObject().value(QStringLiteral("definition")).toString();
    QVERIFY(exprs.size() > 10);
    const QSet<QString> known = exported();
    QSet<QString> used;
    for (const QString& e : exprs) {
        QVERIFY2(!e.isEmpty(), "a target without expr");
        for (const QString& m : metricsIn(e)) {
            QVERIFY2(known.contains(m), qPrintable(QStringLiteral("%1 (in %2) is not exported").arg(m, e)));
            used.insert(m);
        }
    }
    for (const char* m : {"lockscope_master_up", "lockscope_locks", "lockscope_lock_age_seconds",
                          "lockscope_lock_ttl_seconds"})
        QVERIFY2(used.contains(QLatin1String(m)), m);
}

void TestGrafanaDashboard::alertRulesUseExportedMetrics()
{
    const QByteArray rules = readSource(QStringLiteral("resources/prometheus/lockscope-alerts.yml"));
    QVERIFY(!rules.isEmpty());
    const QSet<QString> known = exported();
    int exprs = 0;
    for (const QByteArray& line : rules.split('\n')) {
        const QByteArray t = line.trimmed();
        if (!t.startsWith("expr:"))
            continue;
        ++exprs;
        const QString e = QString::fromUtf8(t.mid(5));
        QVERIFY2(!metricsIn(e).isEmpty(), qPrintable(e));
        for (const QString& m : metricsIn(e))
            QVERIFY2(known.contains(m), qPrintable(QStringLiteral("%1 (in %2) is not exported").arg(m, e)));
    }
    QCOMPARE(exprs, 9); // the six of before, LockScopeLockDoubleGrant, and the two on how locks behave
}

void TestGrafanaDashboard::theCheckCatchesAnUnknownMetric()
{
    const QStringList found =
        metricsIn(QStringLiteral("sum by (status) (rate(lockscope_lock_held_total{instance=~\"$x\"}[5m])) "
                                 "/ on() up{job=\"a\"}"));
    QVERIFY(found.contains(QStringLiteral("lockscope_lock_held_total")));
    QVERIFY(found.contains(QStringLiteral("up")));
    QVERIFY(!exported().contains(QStringLiteral("lockscope_lock_held_total")));
    QVERIFY(!found.contains(QStringLiteral("by")));
    QVERIFY(!found.contains(QStringLiteral("rate")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestGrafanaDashboard)

} // namespace tst_grafanadashboard

#include "tst_grafanadashboard.moc"
