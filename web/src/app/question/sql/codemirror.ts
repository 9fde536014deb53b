import { autocompletion, closeCompletion, completionKeymap, completionStatus } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { MariaSQL, PostgreSQL, sql, SQLite, StandardSQL, type SQLDialect, type SQLNamespace } from '@codemirror/lang-sql';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { MetadataTable } from '../../api/database';

/** The engine's SQL dialect for highlighting and keywords: postgres, mysql (MariaSQL covers MySQL), sqlite, else standard. */
export function dialectFor(engine: string | undefined): SQLDialect {
  if (engine === 'postgres' || engine === 'redshift') return PostgreSQL;
  if (engine === 'mysql' || engine === 'mariadb') return MariaSQL;
  if (engine === 'sqlite') return SQLite;
  return StandardSQL;
}

/** Completion of tables and their columns: each table by name (and `schema.table` where there are schemas). */
export function schemaOf(tables: readonly MetadataTable[]): SQLNamespace {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const cols = t.fields.map((f) => f.name);
    out[t.name] = cols;
    if (t.schema) out[`${t.schema}.${t.name}`] = cols;
  }
  return out;
}

/**
 * Colours from Mantine's CSS variables, which follow the light and dark scheme, so the highlighted SQL keeps the
 * contrast axe asks for in both (CodeMirror's default colours are for a light background only).
 */
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--mantine-color-violet-text)', fontWeight: 'bold' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--mantine-color-green-text)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--mantine-color-blue-text)' },
  { tag: tags.comment, color: 'var(--mantine-color-dimmed)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.function(tags.variableName)], color: 'var(--mantine-color-cyan-text)' },
]);

const look = EditorView.theme({
  '&': { fontSize: '14px', border: '1px solid var(--mantine-color-default-border)', borderRadius: '4px', minHeight: '160px' },
  '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)' },
  '.cm-content': { fontFamily: 'var(--mantine-font-family-monospace)', caretColor: 'var(--mantine-color-text)', minHeight: '160px' },
  '.cm-gutters': { background: 'var(--mantine-color-default)', color: 'var(--mantine-color-text)', border: 'none' },
  '.cm-activeLine': { background: 'transparent' },
  '.cm-activeLineGutter': { background: 'transparent' },
  '.cm-placeholder': { color: 'var(--mantine-color-dimmed)' },
  '.cm-tooltip': { background: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': {
    background: 'var(--mantine-primary-color-filled)',
    color: 'var(--mantine-color-white)',
  },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': { background: 'var(--mantine-primary-color-light) !important' },
});

export interface EditorHooks {
  onChange(text: string): void;
  /** Ctrl/Cmd+Enter: the selected text, or undefined to run it all. */
  onRun(selection: string | undefined): void;
}

/** The language part is a compartment: a new database changes the dialect and the completion without a new editor. */
export const language = new Compartment();

export const languageFor = (engine: string | undefined, tables: readonly MetadataTable[]): Extension =>
  sql({ dialect: dialectFor(engine), schema: schemaOf(tables), upperCaseKeywords: true });

export function createEditor(parent: HTMLElement, doc: string, hooks: { current: EditorHooks }, lang: Extension): EditorView {
  const run = (view: EditorView) => {
    closeCompletion(view);
    const sel = view.state.selection.main;
    hooks.current.onRun(sel.empty ? undefined : view.state.sliceDoc(sel.from, sel.to));
    return true;
  };
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        syntaxHighlighting(highlight),
        autocompletion(),
        // Ctrl/Cmd+Enter runs before the default keymap inserts a line.
        keymap.of([{ key: 'Mod-Enter', run, preventDefault: true }, ...completionKeymap, ...historyKeymap, ...defaultKeymap]),
        language.of(lang),
        placeholder('SELECT * FROM …'),
        look,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': 'SQL query', 'aria-multiline': 'true' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) hooks.current.onChange(u.state.doc.toString());
          // Completions that arrive once the editor has lost focus (typed, then Run clicked at once) would stay open
          // over the results: closed, after this update (an update cannot dispatch another).
          if (completionStatus(u.state) !== null && !u.view.hasFocus) queueMicrotask(() => closeCompletion(u.view));
        }),
      ],
    }),
  });
}
