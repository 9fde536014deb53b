import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';

export type PasswordComplexity = 'weak' | 'normal' | 'strong';

interface Rules {
  total: number;
  lower?: number;
  upper?: number;
  digit?: number;
  special?: number;
}

const RULES: Record<PasswordComplexity, Rules> = {
  weak: { total: 6 },
  normal: { total: 6, digit: 1 },
  strong: { total: 8, lower: 2, upper: 2, digit: 1, special: 1 },
};

let common: Set<string> | undefined;
/**
 * ~50,000 most common passwords from the zxcvbn-ts dictionary, loaded on first use: the dictionary held 3 MB of the
 * idle server's heap, for the few requests that set a password.
 */
function commonPasswords(): Set<string> {
  common ??= new Set((loadDictionary().dictionary as Record<string, string[]>)['passwords-common']);
  return common;
}

function loadDictionary(): typeof import('@zxcvbn-ts/language-common') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous check, loaded on first use
  return require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
}

export function describeRules(complexity: PasswordComplexity): string {
  const r = RULES[complexity];
  const parts = [
    r.lower && `${r.lower} lower case letter${r.lower > 1 ? 's' : ''}`,
    r.upper && `${r.upper} upper case letter${r.upper > 1 ? 's' : ''}`,
    r.digit && `${r.digit} number${r.digit > 1 ? 's' : ''}`,
    r.special && `${r.special} special character${r.special > 1 ? 's' : ''}`,
  ].filter(Boolean);
  return `password must be at least ${r.total} characters long${parts.length ? ` and include ${parts.join(', ')}` : ''}.`;
}

/** The reason a password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: unknown, complexity: PasswordComplexity): string | undefined {
  if (typeof password !== 'string' || password.trim() === '') return MSG.nonBlank;
  const r = RULES[complexity];
  const count = (re: RegExp) => (password.match(re) ?? []).length;
  const ok =
    [...password].length >= r.total &&
    count(/[a-z]/g) >= (r.lower ?? 0) &&
    count(/[A-Z]/g) >= (r.upper ?? 0) &&
    count(/[0-9]/g) >= (r.digit ?? 0) &&
    count(/[^a-zA-Z0-9]/g) >= (r.special ?? 0);
  if (!ok) return describeRules(complexity);
  if (password.length > 1024) return 'password must be at most 1024 characters long.';
  if (commonPasswords().has(password.toLowerCase())) return MSG.passwordTooCommon;
  return undefined;
}

export function assertPasswordAcceptable(password: unknown, complexity: PasswordComplexity, param = 'password'): void {
  const problem = passwordProblem(password, complexity);
  if (problem) throw ValidationError.of(param, problem, '[redacted]');
}
