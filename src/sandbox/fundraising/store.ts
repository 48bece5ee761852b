// What callers create at run time (constituents, payments, list definitions), in memory, on top of
// the generated records. Lookups by id go through here so created records read back like seeded ones.
import { type FundraisingData, FIRST_CONSTITUENT_ID, FIRST_LIST_ID, FIRST_TRANSACTION_ID, type Json, constituent, transaction } from './data';

export interface StoredPayment {
  readonly payment: Json;
  readonly allocations: Json[];
  readonly trackingCodes: Json;
}

export class FundraisingStore {
  readonly createdConstituents: Json[] = [];
  readonly createdPayments = new Map<number, StoredPayment>();
  readonly lists = new Map<number, Json>();
  nextAllocationId = 900_000_001;

  constructor(readonly data: FundraisingData) {
    const seeded = [['Lapsed donors 2024', 'Constituent'], ['Spring appeal payments', 'Transaction'], ['Gift Aid to claim', 'Transaction']];
    seeded.forEach(([name, listType], i) => this.lists.set(FIRST_LIST_ID + i, {
      listDefinitionId: FIRST_LIST_ID + i, name, listType, description: null, dateAdded: '2024-03-01T09:00:00.000Z',
    }));
  }

  get constituentCount(): number { return this.data.constituents + this.createdConstituents.length; }

  constituentAt(position: number): Json | undefined {
    if (position < this.data.constituents) return constituent(this.data, position);
    return this.createdConstituents[position - this.data.constituents];
  }

  constituentById(id: number): Json | undefined {
    if (!Number.isInteger(id)) return undefined;
    return this.constituentAt(id - FIRST_CONSTITUENT_ID);
  }

  addConstituent(record: Omit<Json, 'constituentId' | 'constituentNumber'>): Json {
    const id = FIRST_CONSTITUENT_ID + this.constituentCount;
    const full = { constituentId: id, constituentNumber: `CN${String(id).padStart(8, '0')}`, ...record };
    this.createdConstituents.push(full);
    return full;
  }

  get transactionCount(): number { return this.data.transactions + this.createdPayments.size; }

  nextTransactionId(): number { return FIRST_TRANSACTION_ID + this.transactionCount; }

  /** Generated payments only, by id (created ones are in createdPayments). */
  generatedTransaction(id: number): Json | undefined {
    const index = id - FIRST_TRANSACTION_ID;
    return Number.isInteger(index) && index >= 0 && index < this.data.transactions ? transaction(this.data, index) : undefined;
  }
}
