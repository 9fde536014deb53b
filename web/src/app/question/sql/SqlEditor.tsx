import { Alert, Box, Button, Group, Select, Text } from '@mantine/core';
import { closeCompletion } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDatabaseMetadata, useDatabases } from '../../api/database';
import { useSnippets } from '../../api/snippet';
import type { NativeQuery } from '../draft';
import { createEditor, language, languageFor, type EditorHooks } from './codemirror';
import { SnippetsPanel } from './SnippetsPanel';
import { sameTags, syncTags, variableTags, type TemplateTags } from './template-tags';
import { VariablesPanel } from './VariablesPanel';

export interface SqlEditorProps {
  query: NativeQuery;
  onChange(q: NativeQuery): void;
  onRun(selection?: string): void;
  onCancel(): void;
  running: boolean;
  error: string | null;
}

/**
 * The SQL editor: the database, CodeMirror with the engine's dialect and completion of the database's tables and
 * columns, Ctrl/Cmd+Enter to run (the selection when there is one), the error under it, and the template tags
 * parsed as the person types, with the panels of variables and snippets.
 */
export function SqlEditor({ query, onChange, onRun, onCancel, running, error }: SqlEditorProps) {
  const databases = useDatabases();
  const database = query.database ?? undefined;
  const engine = databases.data?.find((d) => d.id === database)?.engine;
  const metadata = useDatabaseMetadata(database);
  const snippets = useSnippets();
  const [panel, setPanel] = useState<'variables' | 'snippets' | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const tags = (query.native['template-tags'] ?? {}) as TemplateTags;
  const snippetIds = useMemo(() => new Map((snippets.data ?? []).map((s) => [s.name, s.id])), [snippets.data]);

  // The editor is made once; its callbacks read the latest props through this ref.
  const hooks = useRef<EditorHooks>({ onChange: () => undefined, onRun: () => undefined });
  hooks.current = {
    onChange: (text) => {
      const next = syncTags(text, tags, snippetIds);
      onChange({ ...query, native: { ...query.native, query: text, 'template-tags': sameTags(next, tags) ? tags : next } });
      // A new variable opens the panel where its type is set, as Metabase's editor does (unless another panel is open).
      if (panel === null && variableTags(next).length > variableTags(tags).length) setPanel('variables');
    },
    onRun: (selection) => onRun(selection),
  };

  useEffect(() => {
    if (!host.current) return;
    const v = createEditor(host.current, query.native.query, hooks, languageFor(engine, []));
    view.current = v;
    return () => v.destroy();
    // Made once: later text comes from the editor itself.
  }, []);

  // The database's dialect and tables, once known (and whenever the database changes).
  useEffect(() => {
    view.current?.dispatch({ effects: language.reconfigure(languageFor(engine, metadata.data?.tables ?? [])) });
  }, [engine, metadata.data]);

  // A run from the button: the completions typed into are no longer wanted over the results.
  useEffect(() => {
    if (running && view.current) closeCompletion(view.current);
  }, [running]);

  const insert = (text: string) => {
    const v = view.current;
    if (!v) return;
    const { from, to } = v.state.selection.main;
    v.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
    v.focus();
  };

  return (
    <Box component="section" aria-label="SQL editor">
      <Group justify="space-between" mb="xs" align="flex-end">
        <Select
          label="Database"
          w={260}
          size="sm"
          data={(databases.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
          value={database ? String(database) : null}
          onChange={(v) => v && onChange({ ...query, database: Number(v) })}
          allowDeselect={false}
          placeholder={databases.isPending ? 'Loading…' : 'Pick a database'}
        />
        <Group gap="xs">
          <Button
            variant={panel === 'variables' ? 'light' : 'default'}
            size="sm"
            aria-pressed={panel === 'variables'}
            onClick={() => setPanel(panel === 'variables' ? null : 'variables')}
          >
            Variables
          </Button>
          <Button
            variant={panel === 'snippets' ? 'light' : 'default'}
            size="sm"
            aria-pressed={panel === 'snippets'}
            onClick={() => setPanel(panel === 'snippets' ? null : 'snippets')}
          >
            Snippets
          </Button>
          {running ? (
            <Button color="red" variant="light" size="sm" onClick={onCancel}>
              Cancel query
            </Button>
          ) : (
            <Button size="sm" onClick={() => onRun(selectionOf(view.current))} disabled={!query.native.query.trim() || !database}>
              Run query
            </Button>
          )}
        </Group>
      </Group>
      <Box style={{ display: 'flex', gap: 'var(--mantine-spacing-md)', alignItems: 'flex-start' }}>
        <Box style={{ flex: '1 1 auto', minWidth: 0 }}>
          <div ref={host} />
          <Text size="xs" c="dimmed" mt={4}>
            Ctrl+Enter (⌘+Enter) runs the query, or the selected part of it.
          </Text>
          {error && (
            <Alert color="red" title="The query failed" role="alert" mt="xs">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', fontFamily: 'var(--mantine-font-family-monospace)' }}>
                {error}
              </Text>
            </Alert>
          )}
        </Box>
        {panel === 'variables' && (
          <VariablesPanel
            tags={tags}
            tables={metadata.data?.tables ?? []}
            onChange={(t) => onChange({ ...query, native: { ...query.native, 'template-tags': t } })}
            onClose={() => setPanel(null)}
          />
        )}
        {panel === 'snippets' && <SnippetsPanel onInsert={(name) => insert(`{{snippet: ${name}}}`)} onClose={() => setPanel(null)} />}
      </Box>
    </Box>
  );
}

function selectionOf(v: EditorView | null): string | undefined {
  if (!v) return undefined;
  const sel = v.state.selection.main;
  return sel.empty ? undefined : v.state.sliceDoc(sel.from, sel.to);
}
