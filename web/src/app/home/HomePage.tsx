import { Alert, Anchor, Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useBookmarks, type Bookmark } from '../api/bookmark';
import { cardModel, useRecentCards } from '../api/card';
import { collectionPath, useCollectionLevel } from '../api/collection';
import { itemPath } from '../api/item';
import { useCurrentUser } from '../api/user';
import { usePageTitle } from '../components/PageTitle';

const ADMIN_START = [
  { to: '/admin/databases', title: 'Add a database', text: 'Connect PostgreSQL, MySQL, SQLite or DuckDB.' },
  { to: '/admin/people', title: 'Invite people', text: 'Create accounts and groups.' },
  { to: '/admin/settings/authentication', title: 'Set up sign-in', text: 'Password rules, JWT and SAML single sign-on.' },
];

const bookmarkModel = (b: Bookmark) => (b.type === 'card' ? cardModel({ type: b.card_type ?? 'question' }) : b.type);

/** `/`: a greeting; what the person ran lately, their bookmarks, the collections; for an admin, where to start. */
export function HomePage() {
  usePageTitle('Home');
  const user = useCurrentUser().data;
  const recent = useRecentCards();
  const bookmarks = useBookmarks();
  const collections = useCollectionLevel(null);
  const shared = (collections.data ?? []).filter((c) => c.personal_owner_id === null);
  return (
    <Stack gap="xl" maw={960}>
      <Title order={1}>Welcome{user?.first_name ? `, ${user.first_name}` : ''}</Title>
      <Section title="Recently viewed" id="home-recent" query={recent} empty="The questions you run will show here.">
        {recent.data?.slice(0, 8).map((c) => ({ key: `card-${c.id}`, to: itemPath({ ...c, model: cardModel(c) }), name: c.name }))}
      </Section>
      <Section
        title="Bookmarks"
        id="home-bookmarks"
        query={bookmarks}
        empty="Bookmark a question, a dashboard or a collection to find it here."
      >
        {bookmarks.data?.map((b) => ({ key: b.id, to: itemPath({ model: bookmarkModel(b), id: b.item_id, name: b.name }), name: b.name }))}
      </Section>
      <Section title="Collections" id="home-collections" query={collections} empty="No collections yet.">
        {[
          { key: 'root', to: '/collection/root', name: 'Our analytics' },
          ...shared.map((c) => ({ key: `collection-${c.id}`, to: collectionPath(c), name: c.name })),
          ...(user?.personal_collection_id
            ? [{ key: 'mine', to: `/collection/${user.personal_collection_id}`, name: 'Your personal collection' }]
            : []),
        ]}
      </Section>
      {user?.is_superuser && (
        <section aria-labelledby="start-title">
          <Title order={2} fz="h3" id="start-title" mb="sm">
            Get started
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {ADMIN_START.map((s) => (
              <Card key={s.to} withBorder component={Link} to={s.to}>
                <Text fw={700}>{s.title}</Text>
                <Text size="sm" c="dimmed">
                  {s.text}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </section>
      )}
    </Stack>
  );
}

interface Entry {
  key: string;
  to: string;
  name: string;
}

function Section(props: {
  title: string;
  id: string;
  query: { isPending: boolean; isError: boolean; error: Error | null };
  empty: ReactNode;
  children: Entry[] | undefined;
}) {
  const entries = props.children ?? [];
  let body: ReactNode;
  if (props.query.isPending) body = <Skeleton h={60} aria-label={`Loading ${props.title.toLowerCase()}`} />;
  else if (props.query.isError)
    body = (
      <Alert color="red" variant="light" role="alert">
        {props.query.error?.message}
      </Alert>
    );
  else if (entries.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        {props.empty}
      </Text>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {entries.map((e) => (
          <li key={e.key}>
            <Card withBorder padding="sm">
              <Anchor component={Link} to={e.to} fw={700} lineClamp={2}>
                {e.name}
              </Anchor>
            </Card>
          </li>
        ))}
      </SimpleGrid>
    );
  return (
    <section aria-labelledby={props.id}>
      <Title order={2} fz="h3" id={props.id} mb="sm">
        {props.title}
      </Title>
      {body}
    </section>
  );
}
