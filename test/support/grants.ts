import type { INestApplication } from '@nestjs/common';
import { ClusterEvents } from '../../src/common/cluster/cluster-events';

/**
 * After a test wrote grants with plain SQL behind the server's back: announces it as the server's own writes do, so
 * that the grants it keeps in memory (GrantsCache) are read again.
 */
export async function grantsChanged(app: INestApplication): Promise<void> {
  await app.get(ClusterEvents).publish({ topic: 'permissions' });
}
