// The engagement service's next release, as `apiwb sandbox --release next` serves it (sandbox choice
// `release-next`). The contract says its non-production environment runs 1.35 while the contract is
// 1.34, compatibility unverified (seed 000 §9), and says nothing of what 1.35 changed: every
// difference here is a sandbox choice, deterministic, a pure function of the order's place in its
// customer's list, so a test can name every one. GET /api/Transaction/GetOrdersByCustomer:
// - an order at index 6 mod 50 is gone (removed);
// - an order at index 13 mod 40 has another Status (Completed ↔ Refunded: changed);
// - an order at index 0 mod 7 has a `Channel` field (a field added: those orders changed too);
// - NEXT_ADDED_ORDERS orders are new, after the customer's oldest (OrderID from NEXT_FIRST_ADDED_ORDER).
// Totals and pages count the next release's list. BIDWHouse facts, leads and everything else answer as
// the current release (the compare bench counts on the facts being the same).
import { type EngagementData, order, orderCount } from './data';

export const NEXT_ADDED_ORDERS = 2;
export const NEXT_FIRST_ADDED_ORDER = 90_001;

export const nextReleaseOrders = {
  removes: (index: number): boolean => index % 50 === 6,
  changesStatus: (index: number): boolean => index % 40 === 13,
  addsChannel: (index: number): boolean => index % 7 === 0,
};

/** The orders of a customer as the next release lists them (newest first, the added ones last). */
export function nextOrders(data: EngagementData, ctcID: number): Record<string, unknown>[] {
  const total = orderCount(data, ctcID);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < total; i++) {
    if (nextReleaseOrders.removes(i)) continue;
    let record = order(data, ctcID, i);
    if (nextReleaseOrders.changesStatus(i)) record = { ...record, Status: record['Status'] === 'Completed' ? 'Refunded' : 'Completed' };
    if (nextReleaseOrders.addsChannel(i)) record = { ...record, Channel: 'Mobile app' };
    out.push(record);
  }
  if (total > 0) {
    for (let k = 0; k < NEXT_ADDED_ORDERS; k++) out.push({ ...order(data, ctcID, total + k), OrderID: ctcID * 100_000 + NEXT_FIRST_ADDED_ORDER + k });
  }
  return out;
}
