import { Anchor, Code, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { CopyAction } from '../../components/CopyField';
import { sdkCode } from './snippets';
import type { ShareTarget } from './target';

/** Modular embedding: the React code of the SDK for this dashboard or question, and where to read more. */
export function SdkPanel({ target, siteUrl, enabled }: { target: ShareTarget; siteUrl: string; enabled: boolean }) {
  const [kind, setKind] = useState<'interactive' | 'static'>('interactive');
  const code = sdkCode(siteUrl, target.kind, target.id, kind === 'interactive');
  return (
    <Stack>
      <Text size="sm">
        Show this {target.kind} in your React app to your own signed-in users, with the SDK&apos;s components (
        <Anchor href="https://www.npmjs.com/package/@analytics-server/embedding-sdk" target="_blank" rel="noreferrer">
          the SDK&apos;s readme
        </Anchor>
        ).
        {!enabled && (
          <>
            {' '}
            The SDK is off: an admin turns it on in{' '}
            <Anchor component={Link} to="/admin/embedding">
              Admin › Embedding
            </Anchor>
            .
          </>
        )}
      </Text>
      <SegmentedControl
        aria-label="Component"
        value={kind}
        onChange={(v) => setKind(v as typeof kind)}
        data={[
          { value: 'interactive', label: `Interactive ${target.kind}` },
          { value: 'static', label: `Static ${target.kind}` },
        ]}
      />
      <Group align="flex-start" wrap="nowrap" gap="xs">
        <Code block style={{ flex: 1, overflowX: 'auto' }} aria-label="React code" tabIndex={0}>
          {code}
        </Code>
        <CopyAction value={code} name="the React code" />
      </Group>
    </Stack>
  );
}
