// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosis.h"

#include <QJsonArray>

#include <string>

namespace lockscope {

// `lockctl list --json`'s "diagnosis": [{"code": "no-expiry", "sentence": "..."}, ...] (lockctl(1), "JSON
// OUTPUT"; the codes in docs/manual/stuck-locks.md).
QJsonArray diagnosisJson(const QList<Diagnosis>& diagnoses);
// The same array as JSON text, byte for byte what QJsonDocument writes of diagnosisJson() (for the
// streaming list).
void appendDiagnosisJson(std::string& out, const QList<Diagnosis>& diagnoses);

} // namespace lockscope
