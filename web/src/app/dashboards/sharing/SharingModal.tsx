import { useState } from 'react';
import { Modal, Tabs, Text } from '@mantine/core';
import { useSessionProperties } from '../../api/session';
import { useCurrentUser } from '../../api/user';
import { EmbedPanel } from './EmbedPanel';
import { PublicLinkPanel } from './PublicLinkPanel';
import { SdkPanel } from './SdkPanel';
import type { ShareTarget } from './target';

/**
 * The spec's three ways to share a dashboard or a question: a public link, static embedding (signed tokens) and the
 * React SDK.
 */
export function SharingModal({ target, onClose }: { target: ShareTarget; onClose: () => void }) {
  const props = useSessionProperties().data as Record<string, unknown> | undefined;
  const admin = useCurrentUser().data?.is_superuser === true;
  const siteUrl = typeof props?.['site-url'] === 'string' && props['site-url'] ? String(props['site-url']) : window.location.origin;
  const on = (key: string) => props?.[key] === true;
  const [tab, setTab] = useState('public');
  return (
    <Modal opened onClose={onClose} title={`Share "${target.name}"`} size="xl">
      {!admin ? (
        <Text>Only admins share and embed {target.kind === 'dashboard' ? 'dashboards' : 'questions'}.</Text>
      ) : (
        <Tabs value={tab} onChange={(v) => v && setTab(v)}>
          <Tabs.List mb="md">
            <Tabs.Tab value="public">Public link</Tabs.Tab>
            <Tabs.Tab value="static">Static embedding</Tabs.Tab>
            <Tabs.Tab value="sdk">React SDK</Tabs.Tab>
          </Tabs.List>
          {/* Every panel is there for its tab to point at; only the chosen one is drawn (the embed preview signs a token). */}
          <Tabs.Panel value="public">
            {tab === 'public' && <PublicLinkPanel target={target} siteUrl={siteUrl} enabled={on('enable-public-sharing')} />}
          </Tabs.Panel>
          <Tabs.Panel value="static">
            {tab === 'static' &&
              (on('enable-embedding-static') ? (
                <EmbedPanel target={target} siteUrl={siteUrl} />
              ) : (
                <Text>Static embedding is off. An admin turns it on in Admin › Embedding.</Text>
              ))}
          </Tabs.Panel>
          <Tabs.Panel value="sdk">
            {tab === 'sdk' && <SdkPanel target={target} siteUrl={siteUrl} enabled={on('enable-embedding-sdk')} />}
          </Tabs.Panel>
        </Tabs>
      )}
    </Modal>
  );
}
