import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { RelatedLink } from '../api/automagic';

/** The kinds of the `related` block, in the order Metabase's side panel lists them, with their headings. */
const KINDS: Array<{ key: string; title: string }> = [
  { key: 'zoom-in', title: 'Zoom in' },
  { key: 'zoom-out', title: 'Zoom out' },
  { key: 'related', title: 'Related' },
  { key: 'linking-to', title: 'Linked tables' },
  { key: 'linked-from', title: 'Tables that link here' },
  { key: 'compare', title: 'Compare' },
];

/** Beside an x-ray: the other x-rays to go to next (each a link to its `/auto/dashboard/...` page). */
export function RelatedPanel({ related }: { related: Record<string, RelatedLink[]> }) {
  const shown = KINDS.filter((k) => (related[k.key] ?? []).length > 0);
  if (shown.length === 0) return null;
  return (
    <Paper component="aside" aria-label="More x-rays" withBorder radius="md" p="sm" w={260} style={{ flexShrink: 0 }}>
      <Stack gap="md">
        {shown.map((k) => (
          <section key={k.key} aria-labelledby={`xray-related-${k.key}`}>
            <Title order={2} size="h5" mb={4} id={`xray-related-${k.key}`}>
              {k.title}
            </Title>
            <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {related[k.key].map((l) => (
                <li key={l.url}>
                  <Anchor component={Link} to={l.url} size="sm">
                    {l.title}
                  </Anchor>
                  {l.description && (
                    <Text size="xs" c="dimmed">
                      {l.description}
                    </Text>
                  )}
                </li>
              ))}
            </Stack>
          </section>
        ))}
      </Stack>
    </Paper>
  );
}
