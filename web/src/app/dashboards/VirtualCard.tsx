import { Box, Group, Paper, Textarea, TextInput, Typography } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { TextCard } from '../../dashboard/TextCard';
import type { Parameter } from '../../api/types';
import type { DashboardParameter, DashcardData } from '../api/dashboard-view';
import type { FilterValues } from './params';

/** What a dashcard without a question shows: `virtual_card.display` (text, heading or link). */
export function virtualKind(dc: DashcardData): string | null {
  if (dc.card) return null;
  const v = dc.visualization_settings?.virtual_card as { display?: string } | undefined;
  return v?.display ?? 'text';
}

const ALIGN: Record<string, string> = { bottom: 'flex-end', middle: 'center' };

/**
 * A text, heading or link card. Viewing: the viewer's TextCard (markdown, `{{slug}}` variables). Editing: its text or
 * URL in a field, changed through `onChange` (new visualization settings).
 */
export function VirtualCard(props: {
  dashcard: DashcardData;
  parameters: DashboardParameter[];
  values: FilterValues;
  editing: boolean;
  onChange: (settings: Record<string, unknown>) => void;
  editActions?: ReactNode;
}) {
  const dc = props.dashcard;
  const kind = virtualKind(dc) ?? 'text';
  const settings = dc.visualization_settings;
  const label = kind === 'heading' ? 'Heading' : kind === 'link' ? 'Link' : 'Text';
  // Metabase's card settings: no frame (an x-ray's section titles), and the text at the bottom or middle of the cell.
  const framed = kind !== 'heading' && settings['dashcard.background'] !== false;
  const align = ALIGN[String(settings['text.align_vertical'])];
  return (
    <Paper
      withBorder={props.editing || framed}
      bg={props.editing || framed ? undefined : 'transparent'}
      radius="md"
      p="xs"
      h="100%"
      component="section"
      aria-label={`${label} card`}
      data-testid={`${kind}-dashcard`}
      // Hidden, not scrolled: a scrolling box with nothing focusable in it cannot be scrolled from the keyboard.
      style={{
        overflow: 'hidden',
        ...(align && !props.editing ? { display: 'flex', flexDirection: 'column', justifyContent: align } : {}),
      }}
    >
      {props.editing ? (
        <Group align="flex-start" wrap="nowrap" gap="xs" h="100%">
          <Box style={{ flex: 1 }}>
            {kind === 'link' ? (
              <TextInput
                label="Link URL"
                value={(settings.link as { url?: string } | undefined)?.url ?? ''}
                onChange={(e) => props.onChange({ ...settings, link: { url: e.currentTarget.value } })}
              />
            ) : (
              <Textarea
                label={`${label} text`}
                autosize
                minRows={1}
                value={String(settings.text ?? '')}
                onChange={(e) => props.onChange({ ...settings, text: e.currentTarget.value })}
              />
            )}
          </Box>
          <Group gap={2}>{props.editActions}</Group>
        </Group>
      ) : (
        // Mantine's typography: headings and paragraphs without a margin at the card's edges, a `#` title the size of an h2.
        <Typography style={{ '--mantine-h1-font-size': 'var(--mantine-h2-font-size)' } as CSSProperties}>
          <TextCard kind={kind} settings={settings} parameters={props.parameters as Parameter[]} values={props.values} />
        </Typography>
      )}
    </Paper>
  );
}
