// SPDX-License-Identifier: Apache-2.0
#pragma once

class QTableView;

namespace lockscope {

// The look every read-only table here shares: whole rows selected, no editing, no row header, one
// line per row at a fixed height (a resize-to-contents header makes row updates quadratic), and the
// last column taking the spare width.
void setUpReadOnlyRows(QTableView* view);

} // namespace lockscope
