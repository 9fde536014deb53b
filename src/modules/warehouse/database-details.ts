import { SecretBox } from '../../common/crypto/secret-box';

/** What a masked secret looks like on the wire; Metabase's clients send it back unchanged to mean "keep it". */
export const SECRET_MASK = '**MetabasePass**';
const SECRET_KEYS = ['password'];

/** Seals the secrets of validated details for storage. */
export function sealDetails(details: object, box: SecretBox): Record<string, unknown> {
  const out: Record<string, unknown> = { ...details };
  for (const k of SECRET_KEYS) if (typeof out[k] === 'string') out[k] = box.seal(out[k] as string);
  return out;
}

/** Opens stored details for a driver. */
export function openDetails(stored: Record<string, unknown>, box: SecretBox): Record<string, unknown> {
  const out = { ...stored };
  for (const k of SECRET_KEYS) if (typeof out[k] === 'string') out[k] = box.open(out[k] as string);
  return out;
}

/** Details as admins see them: secrets replaced by the mask. */
export function maskDetails(stored: Record<string, unknown>): Record<string, unknown> {
  const out = { ...stored };
  for (const k of SECRET_KEYS) if (out[k] !== null && out[k] !== undefined && out[k] !== '') out[k] = SECRET_MASK;
  return out;
}

/** An update that sends a masked secret back keeps the stored one. */
export function mergeMasked(incoming: Record<string, unknown>, storedOpen: Record<string, unknown>): Record<string, unknown> {
  const out = { ...incoming };
  for (const k of SECRET_KEYS) if (out[k] === SECRET_MASK) out[k] = storedOpen[k];
  return out;
}

/**
 * Which target settings an update changes while it keeps the stored password (sent back masked, or details left
 * out): such an update must give the password again, or an admin session alone could point the connection at
 * another server, or weaken its TLS, and receive the password there. Empty when the update is safe. Turning
 * TLS or its verification on is not a change that needs it.
 */
export function retargetedWithKeptSecret(
  before: { engine: string; details: Record<string, unknown> },
  after: { engine: string; details: Record<string, unknown> },
  incoming: Record<string, unknown> | undefined,
): string[] {
  const stored = before.details.password;
  if (stored === null || stored === undefined || stored === '') return [];
  if (incoming !== undefined && incoming.password !== SECRET_MASK) return [];
  const [b, a] = [before.details, after.details];
  const changed: string[] = [];
  if (before.engine !== after.engine) changed.push('engine');
  if (String(b.host ?? '').toLowerCase() !== String(a.host ?? '').toLowerCase()) changed.push('host');
  if ((b.port ?? null) !== (a.port ?? null)) changed.push('port');
  if ((b.user ?? null) !== (a.user ?? null)) changed.push('user');
  if (b.ssl === true && a.ssl !== true) changed.push('ssl');
  if (b['ssl-verify'] !== false && a['ssl-verify'] === false) changed.push('ssl-verify');
  if ((b['ssl-root-cert'] ?? null) !== (a['ssl-root-cert'] ?? null)) changed.push('ssl-root-cert');
  return changed;
}
