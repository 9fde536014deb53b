import { NativeSelect, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/client';

/** Why a save failed, for the control that made it: the API's message about that key, else its message. */
export function errorFor(e: unknown, key: string): string {
  if (isApiError(e)) return e.fieldErrors[key] ?? e.message;
  return e instanceof Error ? e.message : String(e);
}

type Save = (value: string) => Promise<unknown>;

/**
 * A text saved when it loses the focus (or on Enter, for one line) if it changed, as Metabase's editor does; the
 * server's error stays at the input until the next save.
 */
export function SavedText(props: { label: string; value: string; param: string; onSave: Save; multiline?: boolean; required?: boolean }) {
  const [draft, setDraft] = useState(props.value);
  const [error, setError] = useState<string | null>(null);
  // Typed into since it last lost the focus. A save elsewhere (another tab, a refetch) shows here unless this input
  // has been typed into: the answer to the previous save, arriving while the next text is typed, must not put the
  // saved text back under the cursor; an input only focused takes it, so leaving it saves nothing stale.
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setDraft(props.value);
  }, [props.value]);
  const commit = async () => {
    if (draft === props.value) return;
    if (props.required && !draft.trim()) return setError(`Enter a ${props.label.toLowerCase()}.`);
    try {
      setError(null);
      await props.onSave(draft);
    } catch (e) {
      setError(errorFor(e, props.param));
    }
  };
  const common = {
    label: props.label,
    value: draft,
    error,
    onChange: (e: { currentTarget: { value: string } }) => {
      editing.current = true;
      setDraft(e.currentTarget.value);
    },
    onBlur: () => {
      editing.current = false;
      void commit();
    },
  };
  return props.multiline ? (
    <Textarea {...common} autosize minRows={1} maxRows={4} />
  ) : (
    <TextInput {...common} onKeyDown={(e) => e.key === 'Enter' && void commit()} />
  );
}

/** A choice saved as soon as it is made; the server's error stays at the select. */
export function SavedSelect(props: {
  label: string;
  value: string;
  param: string;
  data: React.ComponentProps<typeof NativeSelect>['data'];
  onSave: Save;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  return (
    <NativeSelect
      label={props.label}
      data={props.data}
      value={pending ?? props.value}
      error={error}
      onChange={async (e) => {
        const value = e.currentTarget.value;
        setPending(value);
        setError(null);
        try {
          await props.onSave(value);
        } catch (err) {
          setError(errorFor(err, props.param));
        } finally {
          setPending(null);
        }
      }}
    />
  );
}

/** "Saving…" then "Saved" for a group of autosaved controls, read out by screen readers. */
export function SaveStatus({ pending, saved }: { pending: boolean; saved: boolean }) {
  return (
    <Text size="xs" c="dimmed" role="status" aria-live="polite" mih={18}>
      {pending ? 'Saving…' : saved ? 'Saved' : ''}
    </Text>
  );
}
