import type { CollectionPerm } from '../../schema/collection-permission.entity';

/**
 * A set of groups' best grant on each collection, as kept in memory for every request of their members: collection ids
 * sorted in a typed array beside one byte of permission each (9 bytes a grant where a Map takes some 80). Float64, not
 * Int32: an id past 2^31 (ids may be BIGINT on Postgres) would wrap onto another collection's and grant it.
 */
export class GrantTable {
  private constructor(
    private readonly ids: Float64Array,
    private readonly writes: Uint8Array,
  ) {}

  static of(grants: ReadonlyArray<{ collectionId: number; perm: CollectionPerm }>): GrantTable {
    const sorted = [...grants].sort((a, b) => a.collectionId - b.collectionId);
    const ids = new Float64Array(sorted.length);
    const writes = new Uint8Array(sorted.length);
    let n = 0;
    for (const g of sorted) {
      // One group's read and another's write on the same collection: the best one counts.
      if (n > 0 && ids[n - 1] === g.collectionId) writes[n - 1] |= g.perm === 'write' ? 1 : 0;
      else {
        ids[n] = g.collectionId;
        writes[n++] = g.perm === 'write' ? 1 : 0;
      }
    }
    return new GrantTable(ids.slice(0, n), writes.slice(0, n));
  }

  get size(): number {
    return this.ids.length;
  }

  perm(collectionId: number): CollectionPerm | undefined {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.ids[mid];
      if (id === collectionId) return this.writes[mid] ? 'write' : 'read';
      if (id < collectionId) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}
