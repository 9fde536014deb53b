import { ActionIcon, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import type { User } from '../../api/user';

/** One user attribute as edited: a value that was not a string (a SAML claim list) is shown as JSON and kept unless changed. */
export interface AttributeRow {
  key: string;
  value: string;
  original?: unknown;
}

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function attributeRows(attrs: Record<string, unknown> | null | undefined): AttributeRow[] {
  return Object.entries(attrs ?? {}).map(([key, original]) => ({ key, value: shown(original), original }));
}

/** A value typed as `["a", "b"]` or `[1, 2]`: several values, matched as IN by row-level rules. */
function listOf(text: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((v) => typeof v === 'string' || typeof v === 'number')
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/** The rows as `login_attributes`, or the reason they cannot be (a blank or repeated key, a list that does not parse). */
export function attributesOf(rows: AttributeRow[]): { value: Record<string, unknown> } | { error: string } {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key && !r.value.trim()) continue;
    if (!key) return { error: 'Every attribute needs a name.' };
    if (key in out) return { error: `The attribute ${key} is given twice.` };
    if (r.original !== undefined && r.value === shown(r.original)) out[key] = r.original;
    else if (r.value.trim().startsWith('[')) {
      const list = listOf(r.value.trim());
      if (!list) return { error: `The value of ${key} is not a list of texts or numbers: write it as ["a", "b"] or [1, 2].` };
      out[key] = list;
    } else out[key] = r.value;
  }
  return { value: out };
}

/** What sign-in and the user's tenant give (read-only here), and whether a value set here overrides it. */
function fromElsewhere(user: User | undefined): Array<{ key: string; value: string; note: string }> {
  const out: Array<{ key: string; value: string; note: string }> = [];
  for (const [key, a] of Object.entries(user?.structured_attributes ?? {})) {
    if (a.source === 'jwt') out.push({ key, value: shown(a.value), note: 'from sign-in' });
    else if (a.source === 'system') out.push({ key, value: shown(a.value), note: 'set by the tenant, cannot be changed' });
    else if (a.original !== undefined) out.push({ key, value: shown(a.original), note: 'from sign-in, overridden here' });
  }
  return out;
}

/**
 * The attributes an administrator sets on a user (`login_attributes`): row-level rules read them together with what
 * JWT and SAML sign-in bring (`jwt_attributes`, rewritten at each sign-in), the administrator's value winning where
 * both name a key. Names and values, one row each.
 */
export function AttributesEditor({
  rows,
  onChange,
  error,
  user,
}: {
  rows: AttributeRow[];
  onChange(rows: AttributeRow[]): void;
  error?: string | null;
  /** The person edited: what their sign-in and tenant give is listed beside what is set here. */
  user?: User;
}) {
  const elsewhere = fromElsewhere(user);
  const set = (i: number, patch: Partial<AttributeRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Stack gap={6} role="group" aria-labelledby="attributes-label">
      <Text fw={500} size="sm" id="attributes-label">
        Attributes
      </Text>
      <Text size="xs" c="dimmed">
        Row-level rules read them with the claims of JWT and SAML sign-in; a value set here wins over a claim of the same name. Several
        values go as a list: ["EU", "US"].
      </Text>
      {elsewhere.length > 0 && (
        <List size="sm" aria-label="Attributes from sign-in and tenant">
          {elsewhere.map((a) => (
            <List.Item key={a.key}>
              <Text span size="sm" ff="monospace">
                {a.key} = {a.value}
              </Text>{' '}
              <Text span size="xs" c="dimmed">
                ({a.note})
              </Text>
            </List.Item>
          ))}
        </List>
      )}
      {rows.map((r, i) => (
        <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            aria-label={`Attribute ${i + 1} name`}
            placeholder="Name"
            value={r.key}
            onChange={(e) => set(i, { key: e.currentTarget.value })}
          />
          <TextInput
            aria-label={`Attribute ${i + 1} value`}
            placeholder="Value"
            value={r.value}
            onChange={(e) => set(i, { value: e.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={`Remove attribute ${r.key || i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            <span aria-hidden="true">×</span>
          </ActionIcon>
        </Group>
      ))}
      {error && (
        <Text size="sm" role="alert" style={{ color: 'var(--mantine-color-error)' }}>
          {error}
        </Text>
      )}
      <Group>
        <Button variant="subtle" size="compact-sm" onClick={() => onChange([...rows, { key: '', value: '' }])}>
          Add an attribute
        </Button>
      </Group>
    </Stack>
  );
}
