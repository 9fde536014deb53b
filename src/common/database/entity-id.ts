import { randomBytes } from 'node:crypto';

/** A new Metabase entity id: 21 URL-safe characters. */
export const entityId = (): string => randomBytes(16).toString('base64url').slice(0, 21);
