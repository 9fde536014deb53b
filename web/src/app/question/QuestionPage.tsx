import { Alert, Skeleton, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCard } from '../api/card';
import { isApiError } from '../api/client';
import { useDatabases, useTableMetadata } from '../api/database';
import { NoPermission } from '../components/NoPermission';
import { NotFound } from '../components/NotFound';
import { usePageTitle } from '../components/PageTitle';
import { parseAdhoc, type AdhocCard } from './adhoc';
import { cardPath, emptyNative, fromCard, type CardType, type Draft } from './draft';
import { QuestionEditor } from './QuestionEditor';

/**
 * `/question/:id-slug`, `/model/:id-slug`, `/metric/:id-slug`: a saved card, opened and run. `/question/new` (or
 * `/question/notebook`, the New menu's link) starts one: `?type=native` the SQL editor (`&database=ID`), `?table=ID`
 * the query builder on a table, else the query builder with nothing picked. `/model/new` starts a model.
 * `/question#<base64 card>` is an ad-hoc question (a drill-through's), opened and run.
 */
export function QuestionPage() {
  const splat = useParams()['*'] ?? '';
  const location = useLocation();
  const area = (location.pathname.split('/')[1] ?? 'question') as CardType;
  const id = /^(\d+)(-|$)/.exec(splat)?.[1];
  if (id) return <SavedQuestion key={id} id={Number(id)} area={area} />;
  const adhoc = splat === '' && area === 'question' ? parseAdhoc(location.hash) : null;
  if (adhoc) return <AdhocQuestion key={location.hash} card={adhoc} />;
  if (splat === '' || splat === 'new' || splat === 'notebook') return <NewQuestion type={area} />;
  return <NotFound />;
}

function SavedQuestion({ id, area }: { id: number; area: CardType }) {
  const card = useCard(id);
  const navigate = useNavigate();
  const type = card.data?.type;
  // The path follows the card's type: a question turned into a model moves to /model/…, as a model opened at /question/….
  useEffect(() => {
    if (card.data && type !== area) navigate(cardPath(card.data), { replace: true });
  }, [area, type, card.data, navigate]);
  // A revert, a reload or a new type (turned into a model) starts the editing over from what the server now holds.
  const [version, setVersion] = useState(0);
  usePageTitle(card.data?.name ?? null);
  if (card.isPending) return <Loading />;
  if (card.isError) {
    if (isApiError(card.error) && card.error.status === 404) return <NotFound />;
    if (isApiError(card.error) && card.error.status === 403) return <NoPermission />;
    return (
      <Alert color="red" title="This question could not be loaded">
        {card.error.message}
      </Alert>
    );
  }
  return (
    <QuestionEditor
      key={`${id}:${version}:${card.data.type}`}
      card={card.data}
      initial={fromCard(card.data)}
      onReload={() => setVersion((v) => v + 1)}
    />
  );
}

function NewQuestion({ type }: { type: CardType }) {
  const [params] = useSearchParams();
  const native = params.get('type') === 'native';
  const table = Number(params.get('table')) || null;
  const databases = useDatabases();
  usePageTitle(native ? 'New SQL query' : type === 'model' ? 'New model' : type === 'metric' ? 'New metric' : 'New question');
  const asked = Number(params.get('database')) || null;
  if (native && !asked && databases.isPending) return <Loading />;
  if (table !== null && !native) return <NewOnTable table={table} type={type} />;
  const database = asked ?? databases.data?.[0]?.id ?? null;
  const query = native ? { ...emptyNative(database) } : {};
  return <QuestionEditor key={params.toString()} card={null} initial={newDraft(type, query)} onReload={() => undefined} />;
}

/** An ad-hoc question from its URL: not saved, run at once (Save makes it a new question). */
function AdhocQuestion({ card }: { card: AdhocCard }) {
  usePageTitle('New question');
  const draft: Draft = {
    ...newDraft('question', card.dataset_query),
    display: card.display,
    visualization_settings: card.visualization_settings,
  };
  return (
    <QuestionEditor card={null} initial={draft} onReload={() => undefined} adhoc={{ originalCardId: card.original_card_id ?? null }} />
  );
}

/** "Start a question" on a table (the browse pages' link): the query builder with the table picked. */
function NewOnTable({ table, type }: { table: number; type: CardType }) {
  const meta = useTableMetadata(table);
  if (meta.isPending) return <Loading />;
  const query = meta.data ? { database: meta.data.db_id, type: 'query', query: { 'source-table': table } } : {};
  return <QuestionEditor key={table} card={null} initial={newDraft(type, query)} onReload={() => undefined} />;
}

const newDraft = (type: CardType, query: Record<string, unknown>): Draft => ({
  name: '',
  description: null,
  type,
  // A metric is one number (or its trend once broken out by time): drawn as a number until then.
  display: type === 'metric' ? 'scalar' : 'table',
  visualization_settings: {},
  dataset_query: query,
  collection_id: null,
});

function Loading() {
  return (
    <Stack>
      <Skeleton h={40} w="40%" aria-label="Loading the question" />
      <Skeleton h={240} />
    </Stack>
  );
}
