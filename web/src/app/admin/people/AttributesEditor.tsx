import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';

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

/** The rows as `login_attributes`, or the reason they cannot be (a blank or repeated key). */
export function attributesOf(rows: AttributeRow[]): { value: Record<string, unknown> } | { error: string } {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key && !r.value.trim()) continue;
    if (!key) return { error: 'Every attribute needs a name.' };
    if (key in out) return { error: `The attribute ${key} is given twice.` };
    out[key] = r.original !== undefined && r.value === shown(r.original) ? r.original : r.value;
  }
  return { value: out };
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
}: {
  rows: AttributeRow[];
  onChange(rows: AttributeRow[]): void;
  error?: string | null;
}) {
  const set = (i: number, patch: Partial<AttributeRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Stack gap={6} role="group" aria-labelledby="attributes-label">
      <Text fw={500} size="sm" id="attributes-label">
        Attributes
      </Text>
      <Text size="xs" c="dimmed">
        Row-level rules read them with the claims of JWT and SAML sign-in; a value set here wins over a claim of the same name.
      </Text>
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
