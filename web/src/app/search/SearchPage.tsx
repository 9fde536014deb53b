import { Alert, Anchor, Badge, Button, Chip, Group, Pagination, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { itemPath } from '../api/item';
import { useSearch, type SearchModel } from '../api/search';
import { usePageTitle } from '../components/PageTitle';
import { CollectionPathText } from './CollectionPathText';
import { TYPE_FILTERS, typeLabel } from './types';

const PAGE_SIZE = 25;

/** `/search?q=&models=`: the results, filtered by type (`models`, as the API takes it), a page at a time. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const models = params.getAll('models') as SearchModel[];
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  usePageTitle(q ? `Results for “${q}”` : 'Search');
  const search = useSearch({ q, models, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const answer = search.data;
  const update = (change: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    next.delete('page');
    setParams(next);
  };
  return (
    <Stack gap="md" maw={960}>
      <Title order={1}>{q ? `Results for “${q}”` : 'Search'}</Title>
      <form
        role="search"
        aria-label="Search everything"
        onSubmit={(e) => {
          e.preventDefault();
          update((p) => p.set('q', text.trim()));
        }}
      >
        <Group gap="xs" align="flex-end">
          <TextInput label="Search for" value={text} onChange={(e) => setText(e.currentTarget.value)} w={360} />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      <Chip.Group
        multiple
        value={models}
        onChange={(value) =>
          update((p) => {
            p.delete('models');
            for (const m of value) p.append('models', m);
          })
        }
      >
        <Group gap="xs" role="group" aria-label="Type">
          {TYPE_FILTERS.map((t) => (
            <Chip key={t.model} value={t.model} size="sm">
              {t.label}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {search.isError && (
        <Alert color="red" variant="light" role="alert" title="The search failed">
          {search.error.message}
        </Alert>
      )}
      {search.isPending ? (
        <Skeleton h={200} aria-label="Searching" />
      ) : (
        answer && (
          <>
            <Text size="sm" aria-live="polite">
              {answer.total === 1 ? '1 result' : `${answer.total} results`}
            </Text>
            <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Results" aria-busy={search.isFetching}>
              {answer.data.map((r) => (
                <li key={`${r.model}-${r.id}`}>
                  <Group gap="xs" wrap="nowrap">
                    <Badge variant="light" color="gray" w={96}>
                      {typeLabel(r.model)}
                    </Badge>
                    <Anchor component={Link} to={itemPath(r)} fw={700}>
                      {r.name}
                    </Anchor>
                  </Group>
                  <CollectionPathText result={r} />
                  {r.description && (
                    <Text size="sm" lineClamp={2}>
                      {r.description}
                    </Text>
                  )}
                </li>
              ))}
            </Stack>
            {answer.total > PAGE_SIZE && (
              <Group justify="center">
                <Pagination
                  total={Math.ceil(answer.total / PAGE_SIZE)}
                  value={page}
                  onChange={(p) => {
                    const next = new URLSearchParams(params);
                    next.set('page', String(p));
                    setParams(next);
                  }}
                  getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
                  getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                />
              </Group>
            )}
          </>
        )
      )}
    </Stack>
  );
}
