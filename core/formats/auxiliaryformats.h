// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/recognizedlock.h"

#include <QByteArray>

#include <optional>

// Helper keys the libraries keep next to their locks (wait queues, wake-up lists, unlock channels,
// token counters), known by name alone. Pure.
namespace lockscope::recognition {

// A lock marked `auxiliary`, with the library's format and what the key is for; nothing for a key
// that is no known helper.
std::optional<RecognizedLock> recognizeAuxiliary(const QByteArray& key);

} // namespace lockscope::recognition
