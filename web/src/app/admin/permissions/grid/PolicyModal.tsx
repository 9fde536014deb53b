import { ActionIcon, Alert, Autocomplete, Button, Group as Row, Modal, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { MetadataTable } from '../../../api/database';
import {
  useQuestionsOf,
  useUserAttributeKeys,
  type ColumnTarget,
  type Group,
  type PolicyQuestion,
  type RowPolicyBody,
} from '../../../api/permissions';

/** An attribute and what it fills in: a field id, or `tag:<name>` for a SQL question's template tag. */
interface Mapping {
  attribute: string;
  field: string;
}

const TAG = 'tag:';
const FILLABLE_TAGS = new Set(['text', 'number', 'date', 'dimension']);

const fieldOf = (t: ColumnTarget | unknown) => {
  if (!Array.isArray(t) || !Array.isArray(t[1])) return '';
  if (t[1][0] === 'template-tag' && typeof t[1][1] === 'string') return TAG + t[1][1];
  return typeof t[1][1] === 'number' ? String(t[1][1]) : '';
};

/** The template tags of a SQL question that an attribute can fill in (not snippets or card references). */
const tagsOf = (q: PolicyQuestion | undefined) =>
  q?.dataset_query?.type === 'native'
    ? Object.values(q.dataset_query.native?.['template-tags'] ?? {}).filter((t) => FILLABLE_TAGS.has(t.type))
    : null;

/**
 * Row and column security for a group on a table: people of the group see only the rows whose column equals their
 * user attribute, or a saved question in place of the table (its rows filtered the same way by the attributes mapped).
 */
export function PolicyModal(props: {
  group: Group;
  table: MetadataTable;
  policy: RowPolicyBody | null;
  onClose(): void;
  onSave(policy: RowPolicyBody): void;
}) {
  const { table } = props;
  const [mode, setMode] = useState(props.policy?.card_id ? 'question' : 'filter');
  const [card, setCard] = useState(props.policy?.card_id ? String(props.policy.card_id) : '');
  const [mappings, setMappings] = useState<Mapping[]>(() => {
    const rows = Object.entries(props.policy?.attribute_remappings ?? {}).map(([attribute, t]) => ({ attribute, field: fieldOf(t) }));
    return rows.length ? rows : [{ attribute: '', field: '' }];
  });
  const keys = useUserAttributeKeys();
  const questions = useQuestionsOf(table.db_id, mode === 'question');
  const tags = mode === 'question' ? tagsOf(questions.data?.find((q) => String(q.id) === card)) : null;
  const fields = tags
    ? tags.map((t) => ({ value: TAG + t.name, label: t['display-name'] || t.name }))
    : table.fields.filter((f) => f.visibility_type !== 'retired').map((f) => ({ value: String(f.id), label: f.display_name }));
  // A mapping made for another kind of question (a column where a variable is wanted) is not saved.
  const filled = mappings.filter((m) => m.attribute.trim() && fields.some((f) => f.value === m.field));
  const valid = mode === 'filter' ? filled.length > 0 : card !== '';
  const edit = (i: number, patch: Partial<Mapping>) => setMappings((ms) => ms.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  const target = (field: string): ColumnTarget => {
    if (!field.startsWith(TAG)) return ['dimension', ['field', Number(field), null]];
    const name = field.slice(TAG.length);
    return [tags?.find((t) => t.name === name)?.type === 'dimension' ? 'dimension' : 'variable', ['template-tag', name]];
  };
  const save = () =>
    props.onSave({
      card_id: mode === 'question' ? Number(card) : null,
      attribute_remappings: Object.fromEntries(filled.map((m) => [m.attribute.trim(), target(m.field)])),
    });
  const what = tags ? 'Variable' : 'Column';
  return (
    <Modal opened onClose={props.onClose} title={`Restrict ${table.display_name} for ${props.group.name}`} size="lg">
      <Stack gap="sm">
        <Radio.Group label="How to restrict the rows" value={mode} onChange={setMode}>
          <Stack gap={4} mt={4}>
            <Radio value="filter" label="Filter by a column of the table" />
            <Radio value="question" label="Use a saved question in place of the table" />
          </Stack>
        </Radio.Group>
        {mode === 'question' && (
          <NativeSelect
            label="Question"
            data={[
              { value: '', label: 'Choose a question' },
              ...(questions.data ?? []).map((q) => ({ value: String(q.id), label: q.name })),
            ]}
            value={card}
            onChange={(e) => setCard(e.currentTarget.value)}
          />
        )}
        {questions.isError && <Alert color="red">{questions.error.message}</Alert>}
        <Text size="sm">
          {mode === 'filter'
            ? 'People see the rows whose column equals their user attribute.'
            : tags
              ? 'People see the rows of this SQL question, each variable filled in with their user attribute.'
              : 'Optionally, filter the question’s rows too: by a column equal to a user attribute.'}
        </Text>
        {mappings.map((m, i) => {
          const n = i === 0 ? '' : ` ${i + 1}`;
          return (
            <Row key={i} gap="xs" align="flex-end" wrap="nowrap">
              <NativeSelect
                label={`${what}${n}`}
                data={[{ value: '', label: `Choose a ${what.toLowerCase()}` }, ...fields]}
                value={fields.some((f) => f.value === m.field) ? m.field : ''}
                onChange={(e) => edit(i, { field: e.currentTarget.value })}
                style={{ flex: 1 }}
              />
              <Text pb={6}>=</Text>
              <Autocomplete
                label={`User attribute${n}`}
                data={keys.data ?? []}
                value={m.attribute}
                onChange={(attribute) => edit(i, { attribute })}
                style={{ flex: 1 }}
              />
              {mappings.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  mb={4}
                  aria-label={`Remove filter${n || ' 1'}`}
                  onClick={() => setMappings((ms) => ms.filter((_, j) => j !== i))}
                >
                  ×
                </ActionIcon>
              )}
            </Row>
          );
        })}
        <Button
          variant="subtle"
          size="compact-sm"
          w="fit-content"
          onClick={() => setMappings((ms) => [...ms, { attribute: '', field: '' }])}
        >
          {tags ? 'Fill in another variable' : 'Add a filter'}
        </Button>
        <Row justify="flex-end" gap="xs">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button disabled={!valid} onClick={save}>
            Use this policy
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}
