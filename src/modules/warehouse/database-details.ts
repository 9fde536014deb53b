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
