// SPDX-License-Identifier: Apache-2.0
#pragma once

// Forwards to arguments.h for historycommand.cpp, whose include lines belong to another change in
// flight; remove once they name arguments.h.
#include "lockctl/arguments.h"
