// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

struct FamilyFigures;

// How a family's figures read in a table's cell, the same in `lockctl stats` and the window's
// Insights: "-" where nothing was observed.
struct FamilyFigureText
{
    // Whole milliseconds under a second ("433ms"), where 0.4s and 0.5s would hide what matters.
    static QString duration(qint64 ms);
    static QString perMinute(const FamilyFigures& f);
    // p99 hold / lease ("0.93").
    static QString headroom(const FamilyFigures& f);
    // The share of ended tenures that expired ("12%", "2.5%").
    static QString expiredShare(const FamilyFigures& f);
    // What is known of clients queueing for it: "4 waiting, 120 refused", "-" when nothing is.
    static QString contention(const FamilyFigures& f);
    // The same in a sentence: the most clients waiting, how long a lock stayed free while they
    // waited, the attempts the tracer saw turned away; empty when nothing is known.
    static QString contentionSentence(const FamilyFigures& f);
};

} // namespace lockscope
