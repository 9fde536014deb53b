import { Alert, Anchor, Badge, Button, Code, Group, SegmentedControl, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePreviewToken } from '../../api/dashboard-sharing';
import { CopyAction } from '../../components/CopyField';
import { notifySuccess } from '../../notify';
import { EmbedPreview } from './EmbedPreview';
import { hashOptions, iframeCode, LANGUAGES, signingCode, type Language } from './snippets';
import { usePublishEmbed, type ShareTarget } from './target';

type Rule = 'enabled' | 'locked' | 'disabled';
const RULES: Array<{ value: Rule; label: string }> = [
  { value: 'disabled', label: 'Disabled' },
  { value: 'enabled', label: 'Editable' },
  { value: 'locked', label: 'Locked' },
];

/** A locked value typed for the preview (`a, b` is a list), as the token would carry it. */
function lockedValue(text: string): unknown {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length ? parts : null;
}

/**
 * Static embedding of a dashboard or question: for each parameter, whether the embedding page may set it (editable),
 * the host signs its value into the token (locked) or nobody may (disabled); the look (border, title, theme as the
 * URL's hash); a live preview through `/api/preview-embed` that tries locked values; the code that signs the token in
 * the host's language plus the iframe; and publishing (`enable_embedding` and `embedding_params` in one PUT).
 */
export function EmbedPanel({ target, siteUrl }: { target: ShareTarget; siteUrl: string }) {
  const parameters = target.parameters;
  const [rules, setRules] = useState<Record<string, Rule>>(() =>
    Object.fromEntries(parameters.map((p) => [p.slug, (target.embedding_params?.[p.slug] as Rule | undefined) ?? 'disabled'])),
  );
  const [locked, setLocked] = useState<Record<string, string>>({});
  const [bordered, setBordered] = useState(true);
  const [titled, setTitled] = useState(true);
  const [theme, setTheme] = useState<'light' | 'night' | 'transparent'>('light');
  const [lang, setLang] = useState<Language>('node');
  const update = usePublishEmbed(target);

  const params: Record<string, unknown> = {};
  for (const p of parameters) if (rules[p.slug] === 'locked') params[p.slug] = lockedValue(locked[p.slug] ?? '') ?? [];
  const [previewBody] = useDebouncedValue({ resource: target.kind, id: target.id, params, embedding_params: rules }, 400);
  const token = usePreviewToken(previewBody, true);
  const hash = hashOptions({ bordered, titled, theme });
  const code = signingCode(lang, { siteUrl, resource: target.kind, id: target.id, params, hash });
  const saved = JSON.stringify(target.embedding_params ?? {}) === JSON.stringify(rules);
  const publish = (enable: boolean) =>
    update.mutate(
      { enable_embedding: enable, embedding_params: rules },
      {
        onSuccess: () =>
          notifySuccess(enable ? `The ${target.kind} is published for embedding.` : `Embedding of this ${target.kind} is off.`),
      },
    );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={700}>Static embedding</Text>
          <Badge color={target.enable_embedding ? 'green' : 'gray'} variant="light">
            {target.enable_embedding ? (saved ? 'Published' : 'Published, with unpublished changes') : 'Not published'}
          </Badge>
        </Group>
        <Group gap="xs">
          {target.enable_embedding && (
            <Button variant="default" color="red" onClick={() => publish(false)} loading={update.isPending}>
              Unpublish
            </Button>
          )}
          <Button onClick={() => publish(true)} loading={update.isPending} disabled={target.enable_embedding && saved}>
            {target.enable_embedding ? 'Publish changes' : 'Publish'}
          </Button>
        </Group>
      </Group>
      {update.error && (
        <Alert color="red" role="alert">
          {update.error.message}
        </Alert>
      )}
      <Title order={3} size="h5">
        Parameters
      </Title>
      {parameters.length === 0 && <Text c="dimmed">This {target.kind} has no parameters.</Text>}
      {parameters.map((p) => (
        <Group key={p.id} align="flex-end" gap="sm">
          <Select
            label={p.name}
            data={RULES}
            value={rules[p.slug]}
            allowDeselect={false}
            w={180}
            onChange={(v) => v && setRules({ ...rules, [p.slug]: v as Rule })}
          />
          {rules[p.slug] === 'locked' && (
            <TextInput
              label={`Preview value of ${p.name}`}
              description="Your backend signs this value into the token."
              value={locked[p.slug] ?? ''}
              onChange={(e) => setLocked({ ...locked, [p.slug]: e.currentTarget.value })}
            />
          )}
        </Group>
      ))}
      <Title order={3} size="h5">
        Appearance
      </Title>
      <Group>
        <Switch label="Border" checked={bordered} onChange={(e) => setBordered(e.currentTarget.checked)} />
        <Switch label="Title" checked={titled} onChange={(e) => setTitled(e.currentTarget.checked)} />
        <SegmentedControl
          aria-label="Theme"
          value={theme}
          onChange={(v) => setTheme(v as typeof theme)}
          data={[
            { value: 'light', label: 'Light' },
            { value: 'night', label: 'Dark' },
            { value: 'transparent', label: 'Transparent' },
          ]}
        />
      </Group>
      <Title order={3} size="h5">
        Preview
      </Title>
      <EmbedPreview
        kind={target.kind}
        token={token.data?.token ?? null}
        error={token.error}
        theme={theme}
        bordered={bordered}
        titled={titled}
      />
      <Title order={3} size="h5">
        Code for your backend
      </Title>
      <Text size="sm">
        Sign the token with the embedding secret key (shown once, when it is made, in{' '}
        <Anchor component={Link} to="/admin/embedding">
          Admin › Embedding
        </Anchor>
        ); your page shows the iframe at the URL it makes.
      </Text>
      <SegmentedControl aria-label="Language" value={lang} onChange={(v) => setLang(v as Language)} data={LANGUAGES} />
      <Group align="flex-start" wrap="nowrap" gap="xs">
        <Code
          block
          style={{ flex: 1, overflowX: 'auto' }}
          aria-label={`Signing code in ${LANGUAGES.find((l) => l.value === lang)?.label}`}
          tabIndex={0}
        >
          {code}
        </Code>
        <CopyAction value={code} name="the signing code" />
      </Group>
      <Group align="flex-start" wrap="nowrap" gap="xs">
        <Code block style={{ flex: 1 }} aria-label="Iframe code" tabIndex={0}>
          {iframeCode(target.kind)}
        </Code>
        <CopyAction value={iframeCode(target.kind)} name="the iframe code" />
      </Group>
    </Stack>
  );
}
