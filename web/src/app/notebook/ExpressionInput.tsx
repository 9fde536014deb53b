import { Combobox, TextInput, useCombobox } from '@mantine/core';
import { useRef, useState } from 'react';
import { FUNCTION_NAMES, wordAt } from './expression';

/**
 * The expression field, completing function names and `[Column]` names at the cursor (Mantine's Combobox: the
 * suggestions are a listbox tied to the field; arrows and Enter pick one).
 */
export function ExpressionInput({
  value,
  onChange,
  columnNames,
  error,
  label = 'Expression',
  description = 'Columns in brackets, e.g. [Total] * 2 or concat([First], " ", [Last])',
  functionNames = FUNCTION_NAMES,
}: {
  description?: string;
  value: string;
  onChange(v: string): void;
  columnNames: string[];
  error?: string | null;
  label?: string;
  /** What completes as a function: the row functions, and the aggregations too in a custom metric. */
  functionNames?: string[];
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const input = useRef<HTMLInputElement>(null);
  const [cursor, setCursor] = useState(0);
  const word = wordAt(value, cursor);
  const prefix = word?.prefix.toLowerCase() ?? '';
  const suggestions = !word
    ? []
    : word.kind === 'column'
      ? columnNames.filter((n) => n.toLowerCase().includes(prefix)).map((n) => ({ value: `[${n}]`, label: n }))
      : prefix.length
        ? functionNames.filter((n) => n.toLowerCase().startsWith(prefix)).map((n) => ({ value: `${n}(`, label: `${n}()` }))
        : [];

  const pick = (text: string) => {
    if (!word) return;
    // A column's closing bracket may already be typed after the cursor.
    const after = value.slice(cursor).replace(word.kind === 'column' ? /^[^\]\s]*\]?/ : /^[A-Za-z0-9_]*/, '');
    const next = value.slice(0, word.start) + text + after;
    const at = word.start + text.length;
    onChange(next);
    combobox.closeDropdown();
    requestAnimationFrame(() => {
      input.current?.setSelectionRange(at, at);
      setCursor(at);
    });
  };

  return (
    <Combobox store={combobox} onOptionSubmit={pick}>
      <Combobox.Target>
        <TextInput
          ref={input}
          label={label}
          description={description}
          value={value}
          error={error}
          ff="monospace"
          onChange={(e) => {
            onChange(e.currentTarget.value);
            setCursor(e.currentTarget.selectionStart ?? e.currentTarget.value.length);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onKeyUp={(e) => setCursor(e.currentTarget.selectionStart ?? 0)}
          onClick={(e) => setCursor(e.currentTarget.selectionStart ?? 0)}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={suggestions.length === 0}>
        <Combobox.Options aria-label="Suggestions">
          {suggestions.slice(0, 30).map((s) => (
            <Combobox.Option value={s.value} key={s.value}>
              {s.label}
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
